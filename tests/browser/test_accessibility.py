"""Accessibility: every image of every built page has alt text. (axe-core runs on every page in
test_pages.py.) And the guard of how test_pages runs axe's contrast rule: on one word of code of
each kind (:data:`bookdev.readings.SAME_CONTRAST`), which must get the verdict every word of its kind
gets when the rule checks them all, and must not hide a pale word."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest

from bookdev import readings
from bookdev.browser import SITE
from bookdev.site import AXE, PAGES, THEMES, inject_axe, read_theme, set_theme

pytestmark = pytest.mark.browser


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs))


@pytest.mark.parametrize("name", PAGES)
def test_every_image_has_alt_text(name: str) -> None:
    parser = _Images()
    parser.feed((SITE / name).read_text(encoding="utf-8"))
    missing = [img.get("src") for img in parser.images if not (img.get("alt") or "").strip()]
    assert not missing, f"{name}: images without alt text: {missing}"


# axe's contrast rule on every element inside the first `count` elements `within` selects that lie in
# no other, then, for each word of code SAME_CONTRAST marked as of the kind of an earlier one, both of
# them inside those: the two verdicts (outcome, contrast ratio, reason, colours) when they differ.
# Returns [pairs, differing].
_EVERY_WORD = r"""async ([within, count]) => {
  axe.configure({ rules: [{ id: "color-contrast", selector: "*" }] });
  const roots = [...document.querySelectorAll(within)].filter((e) => !e.parentElement.closest(within)).slice(0, count);
  const result = await axe.run({ include: roots }, { runOnly: { type: "rule", values: ["color-contrast"] } });
  const verdict = new Map();
  for (const [outcome, list] of [["violation", result.violations], ["incomplete", result.incomplete],
                                 ["pass", result.passes]]) {
    for (const node of list.flatMap((rule) => rule.nodes)) {
      const d = (node.any[0] && node.any[0].data) || {};
      verdict.set(node.element, [outcome, d.contrastRatio, d.messageKey, d.fgColor, d.bgColor].join(" "));
    }
  }
  const inside = (e) => roots.some((r) => r.contains(e));
  const said = (e) => verdict.get(e) || "not checked";
  let pairs = 0;
  const differing = [];
  for (const word of document.querySelectorAll("[data-axe-same]")) {
    const first = document.querySelector(`[data-axe-kind="${word.dataset.axeSame}"]`);
    if (!inside(word) || !inside(first)) { continue; }
    pairs += 1;
    if (said(word) !== said(first)) { differing.push([word.outerHTML.slice(0, 90), said(word), said(first)]); }
  }
  return [pairs, differing];
}"""


# The first `count` elements `within` selects that lie in no other stay; the later ones are removed (on
# api.html, 29,000 elements: axe builds its tree of the whole page, 3 to 4 times the guard's time). What
# lies under and around the first ones, where their colours come from, is unchanged.
_KEEP_FIRST = """([within, count]) => [...document.querySelectorAll(within)].filter((e) => !e.parentElement.closest(within))
  .slice(count).forEach((e) => e.remove())"""


@pytest.mark.parametrize(("name", "within", "count", "themes", "least"), [
    ("book/03_qkv.html", "main", 1, THEMES, 1500),  # code cells shown and folded, outputs, inline code (1,540 in 2026-11)
    ("book/api.html", "dl.py", 12, ("light",), 400),  # the first API signatures (462 words in 2026-11)
])
def test_one_word_of_each_kind_gets_the_verdict_of_every_word(open_page, name: str, within: str, count: int,  # noqa: ANN001
                                                              themes: tuple[str, ...], least: int) -> None:
    """Every word of code marked as of an earlier word's kind gets, when axe's contrast rule checks
    every element, the very verdict of that earlier word: so checking one of each kind, as test_pages
    does, decides what checking all of them would."""
    assert AXE.is_file(), "axe-core is missing: run 'npm ci' (make test does)"
    page, _ = open_page(name)
    page.evaluate(_KEEP_FIRST, [within, count])
    inject_axe(page)  # as read_page does; _EVERY_WORD then sets the contrast rule to check every element
    for theme in themes:
        set_theme(page, theme)
        page.evaluate(readings.SAME_CONTRAST)
        pairs, differing = page.evaluate(_EVERY_WORD, [within, count])
        assert pairs >= least, f"{name}, {theme}: only {pairs} words of code were of an earlier word's kind"
        assert not differing, f"{name}, {theme}: {len(differing)} words judged unlike their kind's first: {differing[:5]}"


def _contrast_failures(page: Any) -> list[str]:
    reading = read_theme(page, "light", ["color-contrast"])
    return [n["html"] for v in reading.axe for n in v["nodes"]]


def test_a_pale_word_of_code_is_found(open_page) -> None:  # noqa: ANN001
    """Among thousands of words of code checked one per kind, one word made pale (an inline colour),
    then a whole kind of word (a stylesheet rule), each fails axe's contrast rule."""
    page, _ = open_page("book/03_qkv.html")
    inject_axe(page)
    assert not _contrast_failures(page)
    page.evaluate("""() => { const names = [...document.querySelectorAll(".highlight pre span.n")].filter((e) => e.checkVisibility());
                             const last = names[names.length - 1]; last.id = "pale-word"; last.style.color = "#d8d8d8"; }""")
    failures = _contrast_failures(page)
    assert len(failures) == 1 and 'id="pale-word"' in failures[0], failures
    page.add_style_tag(content=".highlight .s2 { color: #e0e0e0 !important; }")  # every string
    failures = _contrast_failures(page)
    assert any('id="pale-word"' in f for f in failures) and any('class="s2"' in f for f in failures), failures
