"""Reading on a phone (390 px): the Exercises page's catalogue breaks no word inside itself, and the
formulas fit when a window narrows to a phone's width and when a page is loaded at it. (That no formula
of any page is cut off at 390 px, inline or display, is the check ``formulas_fit_a_phone`` of
test_pages.py, on every page's one visit; the measure is :func:`bookdev.legibility.formula_problems`.)"""

from __future__ import annotations

import pytest

from bookdev.legibility import formula_problems, shown_formulas
from bookdev.readings import FRAMES_SETTLED, SETTLED
from bookdev.site import NO_TRANSITIONS, PHONE, THEMES, load, set_theme

pytestmark = pytest.mark.browser

EXERCISES = "book/exercises.html"

# Every word of the catalogue's cells whose letters do not all stand on one line (a word may still
# break after a hyphen or a dash, as prose does), and each column's name as the phone shows it
# (the column header, or the label the cell's ::before puts in front of its text).
_BROKEN_WORDS = r"""() => {
  const tables = [...document.querySelectorAll("table.attnex-catalogue")];
  const broken = [];
  for (const table of tables) {
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      for (const m of text.matchAll(/[^\s\-–—/]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  const t = tables[0];
  const headers = [...t.querySelectorAll("thead th")].map((th) => th.textContent.trim());
  const headersShown = t.querySelector("thead").getBoundingClientRect().height > 2;
  const labels = [...t.querySelector("tbody tr").children].map(
    (td) => getComputedStyle(td, "::before").content.replace(/^"|"$/g, "").replace(/:\s*$/, "").trim());
  const wide = tables.filter((x) => x.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length;
  return { tables: tables.length, broken, headers, headersShown, labels, wide };
}"""


def test_exercise_catalogue_reads_on_a_phone(offline_page, site_url) -> None:  # noqa: ANN001
    """In each theme, on one load of the page."""
    page, log = offline_page
    page.set_viewport_size(PHONE)
    load(page, f"{site_url}/{EXERCISES}")
    for scheme in THEMES:
        set_theme(page, scheme)
        seen = page.evaluate(_BROKEN_WORDS)
        assert seen["tables"] > 10, f"{scheme}: the catalogue's tables are missing: {seen['tables']}"
        assert seen["broken"] == [], f"{scheme}: words broken across lines at 390 px: {seen['broken'][:20]}"
        assert seen["wide"] == 0, f"{scheme}: a catalogue table is wider than the screen"
        if not seen["headersShown"]:  # laid out as blocks: every cell after the first two says what it is
            assert seen["labels"][2:] == seen["headers"][2:], (scheme, seen["labels"], seen["headers"])
    assert log.console_errors == [] and log.page_errors == []


def _load_fitted(page: object, url: str) -> None:
    """Load the page and wait until the site's script has fitted its formulas (math_focus.js)."""
    load(page, url)
    page.wait_for_function("() => document.documentElement.dataset.attnbookMath === 'fitted'", timeout=10_000)


@pytest.mark.parametrize("name", ["book/17_learning.html", "book/intro.html"])
def test_formulas_fit_again_when_the_screen_narrows(offline_page, site_url, name: str) -> None:  # noqa: ANN001
    """Loaded at 1280 px, then shown at 390 px (a window narrowed, a phone turned): the formulas are
    measured again and fit as if the page had been loaded at 390 px; back at 1280 px they are drawn
    at the size they had there before."""
    page, _ = offline_page
    _load_fitted(page, f"{site_url}/{name}")
    sizes = page.evaluate("() => [...document.querySelectorAll('mjx-container')].map((c) => getComputedStyle(c).fontSize)")
    page.set_viewport_size(PHONE)
    page.evaluate(SETTLED)
    _no_formula_cut(page, name)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.evaluate(SETTLED)
    again = page.evaluate("() => [...document.querySelectorAll('mjx-container')].map((c) => getComputedStyle(c).fontSize)")
    assert again == sizes, "back at 1280 px, some formulas are still drawn smaller"


def _no_formula_cut(page: object, name: str) -> None:
    formulas = shown_formulas(page)
    assert formulas, f"no typeset formula on {name}"
    problems = formula_problems(formulas)
    assert problems == [], f"{name} at 390 px:\n" + "\n".join(problems)


def test_a_wide_formula_fades_where_more_of_it_lies(offline_page, site_url) -> None:  # noqa: ANN001
    """Chapter 17 loaded at 390 px (a phone's first visit, where the other pages are read after a
    narrowing): no formula is cut off; and its widest formula fades out on the right, scrolled to its
    end on the left only, in the middle on both sides."""
    page, _ = offline_page
    page.set_viewport_size(PHONE)
    _load_fitted(page, f"{site_url}/book/17_learning.html")
    _no_formula_cut(page, "book/17_learning.html")
    sides = """(where) => {
      const box = [...document.querySelectorAll('mjx-container[display="true"]')].sort((a, b) => b.scrollWidth - a.scrollWidth)[0];
      box.scrollLeft = where === "end" ? box.scrollWidth : where === "middle" ? (box.scrollWidth - box.clientWidth) / 2 : 0;
      box.dispatchEvent(new Event("scroll"));
      return ["left", "right"].filter((side) => box.classList.contains(`attnbook-more-${side}`));
    }"""
    assert page.evaluate(sides, "start") == ["right"]
    assert page.evaluate(sides, "middle") == ["left", "right"]
    assert page.evaluate(sides, "end") == ["left"]


# Each inline formula followed by punctuation (a comma, a full stop, a closing parenthesis): whether that
# punctuation stands on the formula's line, as a phone lays it out.
_PUNCTUATION_AFTER_MATH = r"""() => [...document.querySelectorAll(".bd-article span.math")].flatMap((m) => {
  const next = m.nextSibling;
  if (!next || next.nodeType !== Node.TEXT_NODE || !/^[,.;:!?)]/.test(next.textContent)) return [];
  const range = document.createRange();
  range.setStart(next, 0);
  range.setEnd(next, 1);
  const p = range.getBoundingClientRect(), b = m.getBoundingClientRect();
  const sameLine = Math.abs((p.top + p.bottom) / 2 - (b.top + b.bottom) / 2) < 10 && p.left >= b.right - 1;
  return [{ text: (m.textContent.slice(0, 30) + next.textContent.slice(0, 1)), sameLine }];
})"""


def test_no_line_starts_with_the_punctuation_after_a_formula(offline_page, site_url) -> None:  # noqa: ANN001
    """Issue 51: chapter 05's lede at 390 px started a line with the comma after the inline √dₖ; a
    formula and the punctuation after it are now one unit of the line. Every formula of the page, at
    every width of a phone from 330 to 450 px (4 px apart: without the join, six of these widths start
    a line with a comma or a full stop after a formula). Transitions off, each width is read once the
    column has kept its width for three frames (the same verdicts as after SETTLED's 300 ms of quiet, in
    a fifth of the time)."""
    page, _ = offline_page
    page.set_viewport_size(PHONE)
    load(page, f"{site_url}/book/05_softmax.html")
    page.add_style_tag(content=NO_TRANSITIONS)
    apart = {}
    for width in range(330, 451, 4):
        page.set_viewport_size({"width": width, "height": PHONE["height"]})
        page.wait_for_function(FRAMES_SETTLED)
        found = page.evaluate(_PUNCTUATION_AFTER_MATH)
        assert len(found) >= 5, found
        apart.update({width: [f["text"] for f in found if not f["sameLine"]]} if any(not f["sameLine"] for f in found) else {})
    assert not apart, f"punctuation starts a line after these formulas, by screen width: {apart}"
