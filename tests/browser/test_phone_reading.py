"""Reading on a phone (390 px): the Exercises page's catalogue breaks no word inside itself, and no
formula of the book is cut off (an inline formula inside a box that hides its end, a display formula
a few pixels wider than its box, so that its last symbol looks cut off)."""

from __future__ import annotations

import pytest

from bookdev.site import PHONE, THEMES, load, set_theme

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
