"""The part "The five documents, checked": one page per document, and every row of a document shown on
its page (attnbook.compare.checked_rows), so that every checked number has a place where it is shown."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from attnbook import compare, errata
from tests._project import ROOT, toc

DATA = ROOT / "book" / "_data"
ROWS = errata.load_rows(DATA / "errata")
DOCUMENTS = ("000", "001", "002", "003", "004")


def _cells(document: str) -> list[dict]:
    return json.loads((ROOT / "book" / f"document_{document}.ipynb").read_text(encoding="utf-8"))["cells"]


def _tabled_labels(document: str) -> set[str]:
    """The labels a page passes to ``compare.checked_rows`` for its own document."""
    found: set[str] = set()
    for cell in _cells(document):
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "checked_rows":
                args = [a.value for a in node.args if isinstance(a, ast.Constant)]
                assert args and args[0] == document, f"document_{document}: checked_rows of another document {args[:1]}"
                found |= set(args[1:])
    return found


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_row_of_a_document_is_tabled_on_its_page(document: str) -> None:
    labels = {r["label"] for r in ROWS if r["document"] == document}
    tabled = _tabled_labels(document)
    assert labels <= tabled, f"document_{document} shows no table for labels {sorted(labels - tabled)}"
    assert tabled <= labels, f"document_{document} tables labels with no row: {sorted(tabled - labels)}"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_a_page_opens_with_its_document(document: str) -> None:
    first = "".join(_cells(document)[0]["source"])
    assert first.startswith(f"# Document {document}, checked")
    assert f"{{cite:p}}`doc{document}`" in first, "the page cites its document in its first cell"
    assert "{doc}`" in first, "the page links to the lessons that teach its parts"


def test_the_pages_are_in_their_part_and_are_not_numbered_chapters() -> None:
    part = next(p for p in toc()["parts"] if p["caption"] == "The five documents, checked")
    pages = [c["file"] for c in part["chapters"]]
    assert pages[:5] == [f"book/document_{d}" for d in DOCUMENTS]
    assert not any(Path(p).name[:2].isdigit() for p in pages)


def test_checked_rows_lists_the_rows_of_the_labels_in_reading_order() -> None:
    table = compare.checked_rows("002", "happy-weights", data=DATA)
    rows = [r for r in ROWS if r["document"] == "002" and r["label"] == "happy-weights"]
    assert len(str(table).splitlines()) == 2 + len(rows)
    assert table._repr_markdown_() == str(table)
    assert "[wrong](errata.ipynb)" in table  # the weights of "am" and "happy"


def test_checked_rows_refuses_a_label_with_no_row() -> None:
    with pytest.raises(ValueError, match="no rows"):
        compare.checked_rows("002", "no-such-label", data=DATA)


def test_document_tally_counts_every_row_of_the_document() -> None:
    tally = compare.document_tally("003", data=DATA)
    assert sum(tally.values()) == sum(r["document"] == "003" for r in ROWS)
