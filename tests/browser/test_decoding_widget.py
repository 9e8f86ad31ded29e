"""The decoding chapter's KV-cache widget on the built page: the previous/next buttons (mouse and
keyboard) step the generation and the page shows what attnlib computes. The generic checks (offline
rendering, numbers at every step, axe, arrow keys) run for it in test_widgets.py, and that its card
fits a 390 px phone screen in test_pages.py (every card of every page)."""

from __future__ import annotations

import re

import pytest

from attnlib.widgets.decoding import decoding_numbers
from bookdev import browser as bb
from bookdev import widgets as wd

pytestmark = pytest.mark.browser
PAGE = "book/15_decoding.html"
TOL = 0.5e-3 + 1e-9


def open_chapter(page, site_url: str) -> wd.Widget:  # noqa: ANN001
    """The chapter loaded into ``page``: its one DecodingStepper."""
    return wd.the_one(wd.load_widget_page(page, site_url, PAGE), "DecodingStepper", PAGE)


def _step_shown(w: wd.Widget) -> int:
    return int(wd.number(w.texts()["cache-length"]))


def _weights_match(w: wd.Widget) -> None:
    step = _step_shown(w)
    exp = decoding_numbers(w.state["query_vectors"], w.state["key_vectors"], w.state["value_vectors"], step)
    t = w.texts()
    for j in range(step):
        assert abs(wd.number(t[f"weight-{j}"]) - exp["weights"][j]) <= TOL, (step, j, t[f"weight-{j}"])


def test_buttons_step_the_generation_with_mouse_and_keyboard(fresh_chapter) -> None:  # noqa: ANN001
    page, log, w = fresh_chapter
    n = len(w.state["tokens"])
    start = _step_shown(w)
    assert start == w.state["step"]
    next_button = f"{w.root}.querySelector('[data-name=\"next\"]')"
    prev_button = f"{w.root}.querySelector('[data-name=\"prev\"]')"
    page.evaluate(f"() => {next_button}.click()")
    assert _step_shown(w) == start + 1
    _weights_match(w)
    page.evaluate(f"() => {prev_button}.focus()")
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    assert _step_shown(w) == start - 1
    _weights_match(w)
    for _ in range(n):
        page.evaluate(f"() => {next_button}.click()")
    assert _step_shown(w) == n and page.evaluate(f"() => {next_button}.disabled")
    _weights_match(w)
    assert log.console_errors == [] and log.page_errors == [] and log.external == []


# Where each shown weight cell lies against the box that holds the table (which scrolls sideways
# only if the table is wider than it) and the screen: the weights must be in sight without scrolling.
_WEIGHTS_IN_SIGHT = """(root) => {
  const table = root.querySelector('[data-name="cache"]');
  const box = table.parentElement;
  const b = box.getBoundingClientRect();
  const cells = [...table.querySelectorAll('td[data-name^="weight-"]')].filter((td) => !td.closest("tr").hidden);
  return {
    box: [box.scrollWidth, box.clientWidth], screen: document.documentElement.clientWidth,
    cells: cells.map((td) => { const r = td.getBoundingClientRect(); return [td.dataset.name, td.textContent, r.left, r.right]; }),
    boxLeft: b.left, boxRight: b.left + box.clientWidth,
  };
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_weights_column_in_sight_without_scrolling(chapter, width: int) -> None:  # noqa: ANN001
    """Every step: the cache table fits its box (no sideways scroll bar), and every weight cell shows
    its number inside that box and on the screen, at a laptop's and at a phone's width."""
    page, log, w = chapter
    page.set_viewport_size({"width": width, "height": 900})
    page.evaluate(f"() => {w.root}.scrollIntoView()")
    for step in range(1, len(w.state["tokens"]) + 1):
        w.set_range("step", step)
        seen = page.evaluate(f"() => ({_WEIGHTS_IN_SIGHT})({w.root})")
        assert seen["box"][0] <= seen["box"][1], f"the cache table scrolls sideways at {width} px, step {step}: {seen}"
        assert len(seen["cells"]) == step, seen
        for name, text, left, right in seen["cells"]:
            assert text.strip(), f"{name} is empty at step {step}"
            assert seen["boxLeft"] - 0.5 <= left and right <= seen["boxRight"] + 0.5, (
                f"{name} reaches past the table's box at {width} px, step {step}: {seen}")
            assert right <= seen["screen"], f"{name} is off the {width} px screen at step {step}: {seen}"
    assert log.console_errors == [] and log.page_errors == []


# What the bar chart draws: per token, whether its bar, its value and its label are rendered, and the
# chart's accessible title.
_BARS_SHOWN = """(root) => {
  const svg = root.querySelector('svg[data-name="weights-bars"]');
  const drawn = (e) => Boolean(e) && e.getClientRects().length > 0 && getComputedStyle(e).display !== "none"
    && getComputedStyle(e).visibility !== "hidden";
  const rects = [...svg.querySelectorAll("rect")];
  const labels = [...svg.querySelectorAll(".attnw-barlab")];
  return {
    title: svg.querySelector("title").textContent,
    shown: rects.map((r, i) => [drawn(r) && Number(r.getAttribute("height")) >= 0,
      drawn(svg.querySelector(`[data-name="weights-bars-${i}"]`)), drawn(labels[i])]),
  };
}"""


def test_bar_chart_shows_only_the_tokens_generated_so_far(chapter) -> None:  # noqa: ANN001
    """At step t the chart has t bars, values and labels (the tokens in the cache), none for the
    tokens not generated yet, and its title names only those t tokens (at a laptop's width)."""
    page, log, w = chapter
    page.set_viewport_size(bb.VIEWPORT)
    tokens = w.state["tokens"]
    for step in [*range(1, len(tokens) + 1), 2]:
        w.set_range("step", step)
        exp = decoding_numbers(w.state["query_vectors"], w.state["key_vectors"], w.state["value_vectors"], step)
        seen = page.evaluate(f"() => ({_BARS_SHOWN})({w.root})")
        assert len(seen["shown"]) == len(tokens), seen
        for j, parts in enumerate(seen["shown"]):
            assert parts == [j < step] * 3, f"token {j} ({tokens[j]!r}) at step {step}: bar, value, label drawn = {parts}"
        shown_values = [wd.number(v) for v in re.findall(r"-?\d+\.\d+", seen["title"])]
        assert len(shown_values) == step, f"the chart's title at step {step} names {seen['title']!r}"
        for value, weight in zip(shown_values, exp["weights"], strict=True):
            assert abs(value - weight) <= TOL, seen["title"]
    assert log.console_errors == [] and log.page_errors == []
