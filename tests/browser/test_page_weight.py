"""Page weight on a first visit (tools/page_weight.py): the bytes a browser transfers, gzip as a static
host serves them, for every chapter. Ordinary chapters stay within 600 kB, chapters with sliders
within 1.2 MB (their widget manager is built without the ipywidgets controls: benchmarks/PAGE_WEIGHT.md).
"""

from __future__ import annotations

import pytest

from bookdev.browser import SITE
from tools import page_weight as pw

pytestmark = pytest.mark.browser

CHAPTERS = [p for p in pw.pages_of(SITE) if pw.page_kind(SITE, p) != "other"] if SITE.is_dir() else []


@pytest.fixture(scope="module")
def weights(browser, site_url):  # noqa: ANN001, ANN201
    return {page: pw.measure(browser, site_url, SITE, page) for page in CHAPTERS}


def test_there_are_both_kinds_of_chapter() -> None:
    kinds = {pw.page_kind(SITE, p) for p in CHAPTERS}
    assert kinds == {"chapter", "sliders"}, kinds


def test_first_visit_loads_nothing_from_elsewhere(weights) -> None:  # noqa: ANN001
    assert {p: w.external for p, w in weights.items() if w.external} == {}


def test_ordinary_chapters_within_600_kb(weights) -> None:  # noqa: ANN001
    over = {p: f"{w.total / pw.KB:.0f} kB: {pw.human_groups(w)}" for p, w in weights.items()
            if w.kind == "chapter" and w.total > pw.BUDGET["chapter"]}
    assert over == {}, f"over {pw.BUDGET['chapter'] / pw.KB:.0f} kB on a first visit: {over}"


def test_search_index_only_on_the_search_page(weights) -> None:  # noqa: ANN001
    assert not [p for p, w in weights.items() if "searchindex.js" in w.files]


def test_slider_chapters_within_1_2_mb(weights) -> None:  # noqa: ANN001
    over = {p: f"{w.total / pw.KB:.0f} kB: {pw.human_groups(w)}" for p, w in weights.items()
            if w.kind == "sliders" and w.total > pw.BUDGET["sliders"]}
    assert over == {}, f"over {pw.BUDGET['sliders'] / pw.KB:.0f} kB on a first visit: {over}"
