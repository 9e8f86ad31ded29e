"""The positions chapter's rotary widget on the built page: the "both" buttons (mouse and keyboard)
move the query and the key together and leave the rotary score unchanged, while with added
sinusoids the same move changes it; every number is attnlib's. How long a redraw takes is
benchmarks/bench_widgets.py's to measure (a timed test fails on a busy machine). The generic checks
(offline rendering, numbers at many settings, arrow keys) run for it in test_widgets.py, and that
its card fits a 390 px phone screen in test_pages.py (every card of every page)."""

from __future__ import annotations

import pytest

from attnlib.widgets.rotary import rotary_numbers
from bookdev import widgets as wd

from .rotary_driver import check_rotary_numbers

pytestmark = pytest.mark.browser
PAGE = "book/14_positions.html"


def open_chapter(page, site_url: str) -> wd.Widget:  # noqa: ANN001
    """The chapter loaded into ``page``: its one RotaryPositions."""
    return wd.the_one(wd.load_widget_page(page, site_url, PAGE), "RotaryPositions", PAGE)


def _press(page, w: wd.Widget, name: str, key: str | None = None) -> None:  # noqa: ANN001
    button = f"{w.root}.querySelector('[data-name=\"{name}\"]')"
    if key is None:
        page.evaluate(f"() => {button}.click()")
    else:
        page.evaluate(f"() => {button}.focus()")
        page.keyboard.press(key)


def test_moving_both_positions_keeps_the_rotary_score_and_changes_the_sinusoidal_one(fresh_chapter) -> None:  # noqa: ANN001
    page, log, w = fresh_chapter
    w.set_range("query_position", 5)
    w.set_range("key_position", 2)
    for pair in (0, 3):
        w.set_range("pair", pair)
        start = w.texts()
        _press(page, w, "both-up")
        _press(page, w, "both-up", key="Enter")
        _press(page, w, "both-up", key="Space")
        moved = w.texts()
        assert (moved["query_position"], moved["key_position"]) == ("8", "5"), moved
        assert moved["score"] == start["score"] and moved["offset"] == start["offset"] == "3"
        check_rotary_numbers(w)
        if pair == 0:  # the fast pair has visibly turned; the score has not
            assert moved["query-pair"] != start["query-pair"]
        _press(page, w, "both-down", key="Enter")
        _press(page, w, "both-down")
        _press(page, w, "both-down")
        assert w.texts()["query_position"] == "5"
    w.set_checkbox("sinusoidal", True)
    w.set_range("pair", 0)
    before = w.texts()
    _press(page, w, "both-up")
    after = w.texts()
    check_rotary_numbers(w)
    assert after["offset"] == before["offset"] and after["score"] != before["score"], (before, after)
    exp = [rotary_numbers(w.state["query_vector"], w.state["key_vector"], m, m - 3, sinusoidal=True)["score"]
           for m in (5, 6)]
    assert round(exp[0], 3) != round(exp[1], 3)
    assert log.console_errors == [] and log.page_errors == [] and log.external == []


def test_the_buttons_stop_at_the_ends(chapter) -> None:  # noqa: ANN001
    page, log, w = chapter
    top = int(page.evaluate(f"() => Number({w.root}.querySelector('input[data-name=\"query_position\"]').max)"))
    w.set_range("query_position", top)
    w.set_range("key_position", 3)
    assert page.evaluate(f"() => {w.root}.querySelector('[data-name=\"both-up\"]').disabled")
    w.set_range("query_position", 0)
    assert page.evaluate(f"() => {w.root}.querySelector('[data-name=\"both-down\"]').disabled")
    assert log.page_errors == []
