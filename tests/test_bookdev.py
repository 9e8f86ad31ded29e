"""The dev helpers' own logic that needs no browser: how browser tests are grouped per page."""

from __future__ import annotations

from bookdev.site import page_scope


def test_tests_of_one_page_share_a_scope() -> None:
    ids = ["tests/browser/test_site.py::test_page_loads_offline_with_math_typeset_and_no_errors[book/05_softmax.html]",
           "tests/browser/test_accessibility.py::test_no_serious_or_critical_axe_violations[book/05_softmax.html]",
           "tests/browser/test_widgets.py::test_widgets_pass_axe[book/05_softmax.html-dark]"]
    assert {page_scope(i) for i in ids} == {"book/05_softmax.html"}
    assert page_scope("tests/browser/test_site.py::test_x[index.html]") == "index.html"


def test_tests_without_a_page_share_their_modules_scope() -> None:
    for nodeid in ("tests/browser/test_site.py::test_search_finds_a_chapter_offline",
                   "tests/browser/test_site.py::test_figures_read_in_both_themes[dark]"):
        assert page_scope(nodeid) == "tests/browser/test_site.py"
    assert page_scope("tests/browser/test_page_weight.py::test_ordinary_chapters_within_600_kb") != page_scope(
        "tests/browser/test_site.py::test_search_finds_a_chapter_offline")
