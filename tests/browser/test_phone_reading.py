"""Reading on a phone (390 px): the Exercises page's catalogue breaks no word inside itself, and no
formula of the book is cut off (an inline formula inside a box that hides its end, a display formula
a few pixels wider than its box, so that its last symbol looks cut off)."""

from __future__ import annotations

import pytest

from bookdev.site import PAGES, PHONE, THEMES, has_math, load, set_theme

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


@pytest.mark.parametrize("scheme", THEMES)
def test_exercise_catalogue_reads_on_a_phone(offline_page, site_url, scheme: str) -> None:  # noqa: ANN001
    page, log = offline_page
    page.set_viewport_size(PHONE)
    load(page, f"{site_url}/{EXERCISES}")
    set_theme(page, scheme)
    seen = page.evaluate(_BROKEN_WORDS)
    assert seen["tables"] > 10, f"the catalogue's tables are missing: {seen['tables']}"
    assert seen["broken"] == [], f"words broken across lines at 390 px: {seen['broken'][:20]}"
    assert seen["wide"] == 0, "a catalogue table is wider than the screen"
    if not seen["headersShown"]:  # laid out as blocks: every cell after the first two says what it is
        assert seen["labels"][2:] == seen["headers"][2:], (seen["labels"], seen["headers"])
    assert log.console_errors == [] and log.page_errors == []


MATH_PAGES = [p for p in PAGES if has_math(p)]
#: A formula may be drawn smaller to fit its line, down to this share of the text's size; one wider
#: than that scrolls sideways (a box the keyboard can reach), and is then clearly wider than its box.
MIN_SCALE = 0.8

# Each typeset formula on the page: the nearest box around it that does not let it overflow (the
# formula's own scroll box, or the theme's span.math that hides what does not fit); where the
# formula's glyphs (mjx-math) lie against that box's visible area; whether the box scrolls and can
# take the focus; and the formula's size against its text's. (Not the box's scrollWidth: MathJax's
# hidden MathML for screen readers widens it.)
_FORMULAS = r"""() => [...document.querySelectorAll("mjx-container")].map((c) => {
  let box = c;
  while (box && box !== document.body && getComputedStyle(box).overflowX === "visible") box = box.parentElement;
  const b = box.getBoundingClientRect();
  const left = b.left + box.clientLeft;
  const m = (c.querySelector("mjx-math") || c).getBoundingClientRect();
  const mml = c.querySelector("mjx-assistive-mml");
  return {
    display: c.getAttribute("display") === "true", tex: (mml ? mml.textContent : c.textContent).slice(0, 70),
    box: box.tagName.toLowerCase() + "." + [...box.classList].join("."), overflow: getComputedStyle(box).overflowX,
    width: box.clientWidth, content: Math.round(m.width * 10) / 10,
    cut: Math.round(Math.max(left - m.left, m.right - (left + box.clientWidth)) * 10) / 10,
    focusable: box.tabIndex >= 0, shown: m.width > 0, fades: getComputedStyle(box).webkitMaskImage !== "none",
    scale: parseFloat(getComputedStyle(c).fontSize) / parseFloat(getComputedStyle(c.parentElement).fontSize),
  };
})"""


@pytest.mark.parametrize("name", MATH_PAGES)
def test_no_formula_is_cut_off_on_a_phone(offline_page, site_url, name: str) -> None:  # noqa: ANN001
    """At 390 px every formula fits its line, drawn at least MIN_SCALE of the text's size; a display
    formula wider than that scrolls sideways, reachable by the keyboard, fades out at the edge past
    which more of it lies, and is wider than its box by more than a few pixels (one that overflows
    by 2-20 px looks as if its last symbol were cut off)."""
    page, log = offline_page
    page.set_viewport_size(PHONE)
    _load_fitted(page, f"{site_url}/{name}")
    _no_formula_cut(page, name)
    assert log.console_errors == [] and log.page_errors == []


# Resolves once the text column has kept its width for 300 ms (the theme's sidebars slide in and
# out over about half a second when the window's width crosses a breakpoint), then two frames later.
_SETTLED = """async () => {
  const column = document.querySelector(".bd-article");
  let width = -1, since = performance.now();
  while (performance.now() - since < 300) {
    await new Promise((r) => setTimeout(r, 50));
    if (column.clientWidth !== width) { width = column.clientWidth; since = performance.now(); }
  }
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""


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
    page.evaluate(_SETTLED)
    _no_formula_cut(page, name)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.evaluate(_SETTLED)
    again = page.evaluate("() => [...document.querySelectorAll('mjx-container')].map((c) => getComputedStyle(c).fontSize)")
    assert again == sizes, "back at 1280 px, some formulas are still drawn smaller"


def _no_formula_cut(page: object, name: str) -> None:
    formulas = [f for f in page.evaluate(_FORMULAS) if f["shown"]]
    assert formulas, f"no typeset formula on {name}"
    problems = []
    for f in formulas:
        fits = f["content"] <= f["width"] + 0.5
        where = f"{'display' if f['display'] else 'inline'} {f['tex']!r} ({f['content']} px in {f['width']} px, {f['box']})"
        if f["overflow"] in ("hidden", "clip") and f["cut"] > 0.5:
            problems.append(f"{where}: {f['cut']} px cut off by a box that hides it")
        elif not fits and f["content"] * MIN_SCALE <= f["width"]:
            problems.append(f"{where}: overflows by a little, would fit at {f['width'] / f['content']:.2f} of its size")
        elif not fits and not f["focusable"]:
            problems.append(f"{where}: scrolls, but the keyboard cannot reach it")
        elif not fits and not f["fades"]:
            problems.append(f"{where}: scrolls, but does not fade out where more of it lies")
        elif fits and f["fades"]:
            problems.append(f"{where}: fits, but fades out at an edge")
        if f["scale"] < MIN_SCALE - 0.01:
            problems.append(f"{where}: drawn at {f['scale']:.2f} of the text's size")
    assert problems == [], f"{name} at 390 px:\n" + "\n".join(problems)


def test_a_wide_formula_fades_where_more_of_it_lies(offline_page, site_url) -> None:  # noqa: ANN001
    """The widest formula of chapter 17 at 390 px: it fades out on the right, scrolled to its end
    on the left only, in the middle on both sides."""
    page, _ = offline_page
    page.set_viewport_size(PHONE)
    _load_fitted(page, f"{site_url}/book/17_learning.html")
    sides = """(where) => {
      const box = [...document.querySelectorAll('mjx-container[display="true"]')].sort((a, b) => b.scrollWidth - a.scrollWidth)[0];
      box.scrollLeft = where === "end" ? box.scrollWidth : where === "middle" ? (box.scrollWidth - box.clientWidth) / 2 : 0;
      box.dispatchEvent(new Event("scroll"));
      return ["left", "right"].filter((side) => box.classList.contains(`attnbook-more-${side}`));
    }"""
    assert page.evaluate(sides, "start") == ["right"]
    assert page.evaluate(sides, "middle") == ["left", "right"]
    assert page.evaluate(sides, "end") == ["left"]
