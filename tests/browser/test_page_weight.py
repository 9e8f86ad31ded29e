"""Page weight on a first visit (tools/page_weight.py): the bytes a browser transfers, gzip as a static
host serves them, for every chapter. Ordinary chapters stay within 600 kB, chapters with sliders
within 1.2 MB (their widget manager is built without the ipywidgets controls: docs/notes/PAGE_WEIGHT.md).
"""

from __future__ import annotations

import pytest

from bookdev.browser import SITE
from bookdev.site import PAGES
from tools import page_weight as pw

pytestmark = pytest.mark.browser

CHAPTERS = [p for p in PAGES if pw.page_kind(SITE, p) != "other"]


def _weight(page_visit, site_url: str, page: str) -> pw.Weight:  # noqa: ANN001
    """What the page's visit (a first visit: fresh context, empty cache) fetched, at gzip size."""
    return pw.weight_of(SITE, site_url, page, page_visit(page).log.fetched)


def test_there_are_both_kinds_of_chapter() -> None:
    kinds = {pw.page_kind(SITE, p) for p in CHAPTERS}
    assert kinds == {"chapter", "sliders"}, kinds


@pytest.mark.parametrize("page", CHAPTERS)
def test_first_visit_within_budget(page_visit, site_url, page: str) -> None:  # noqa: ANN001
    """An ordinary chapter within 600 kB, a chapter with sliders within 1.2 MB. The search index is
    for the search page only."""
    w = _weight(page_visit, site_url, page)
    assert w.files, f"{page}: the visit recorded no file fetched from the site"
    assert "searchindex.js" not in w.files, f"{page} loads the search index"
    limit = pw.BUDGET[w.kind]
    assert w.total <= limit, f"{page}: {w.total / pw.KB:.0f} kB on a first visit, over {limit / pw.KB:.0f} kB: {pw.human_groups(w)}"

