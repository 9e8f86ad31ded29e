"""One reading order: every chapter's "What's next" links first to the page that comes next in
_toc.yml, so that renumbering or moving a chapter cannot leave a stale pointer behind.

The part "The five documents, checked" is a side path: a lesson links to a document's page where
it needs to (one line), and the lessons' reading order skips the part. Its own pages read in order:
each page's "Next" links first to the next page of the part."""

from __future__ import annotations

import json
import re

import pytest

from tests._project import ROOT, toc

DOCUMENTS_PART = "The five documents, checked"
PARTS = toc()["parts"]
DOCUMENT_PAGES = [c["file"] for part in PARTS if part["caption"] == DOCUMENTS_PART for c in part["chapters"]]
ORDER = [toc()["root"]] + [c["file"] for part in PARTS if part["caption"] != DOCUMENTS_PART for c in part["chapters"]]
CHAPTERS = [f for f in ORDER if re.fullmatch(r"book/\d\d_\w+", f)]
LINK = re.compile(r"\{doc\}`(?:[^`<]*<)?([\w./]+?)>?`|\]\(([\w./]+?)\.(?:ipynb|md)(?:#[\w-]*)?\)")


def _section(path, heading: str) -> str:  # noqa: ANN001
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = next("".join(c["source"]) for c in cells if c["cell_type"] == "markdown" and heading in "".join(c["source"]))
    return text.split(heading, 1)[1]


@pytest.mark.parametrize("page", CHAPTERS)
def test_whats_next_points_to_the_next_page_of_the_toc(page: str) -> None:
    following = ORDER[ORDER.index(page) + 1]
    links = [a or b for a, b in LINK.findall(_section(ROOT / f"{page}.ipynb", "## What's next"))]
    assert links, f"{page}: its What's next links to no page; the next page is {following}"
    assert "book/" + links[0].removeprefix("book/") == following, (page, links, following)


def test_the_documents_part_holds_the_five_pages_then_errata_and_audit() -> None:
    assert DOCUMENT_PAGES == [f"book/document_00{n}" for n in range(5)] + ["book/errata", "book/audit"]


@pytest.mark.parametrize("page", [p for p in DOCUMENT_PAGES if "/document_" in p])
def test_a_document_page_points_to_the_next_page_of_its_part(page: str) -> None:
    following = DOCUMENT_PAGES[DOCUMENT_PAGES.index(page) + 1]
    links = [a or b for a, b in LINK.findall(_section(ROOT / f"{page}.ipynb", "## Next"))]
    assert links and "book/" + links[0].removeprefix("book/") == following, (page, links, following)


def test_the_rule_finds_a_stale_pointer() -> None:
    assert [a or b for a, b in LINK.findall("Next: {doc}`11_pytorch`, then [x](10_numpy_scratch.ipynb).")] == [
        "11_pytorch", "10_numpy_scratch"]
