"""The lessons teach; the documents are checked in their own part (issue 34 §3).

A numbered chapter imports nothing from the book's checking tooling and uses none of the documents'
printed values (``attnbook.printed``); the document pages do, so the scan is not vacuous.
"""

from __future__ import annotations

import json
import re

import pytest

from attnbook import printed
from tests._project import ROOT

CHECKING = re.compile(r"\battnbook\.(compare|errata|derivations|printed|audit)\b"
                      r"|\bfrom attnbook import [^\n]*\b(compare|errata|derivations|printed|audit)\b")
PRINTED_NAMES = sorted(n for n in vars(printed) if n.isupper() and not n.startswith("_"))
LESSONS = sorted(ROOT.glob("book/[0-9][0-9]_*.ipynb"))
DOCUMENT_PAGES = sorted(ROOT.glob("book/document_*.ipynb"))


def _code(path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_a_lesson_uses_no_checking_tool_and_no_printed_value(path) -> None:
    code = _code(path)
    assert not CHECKING.search(code), CHECKING.search(code).group(0)
    used = [n for n in PRINTED_NAMES if re.search(rf"\b{n}\b", code)]
    assert not used, f"{path.name} uses the documents' printed values {used}"


def test_the_document_pages_do_use_them() -> None:
    assert len(LESSONS) >= 19 and len(DOCUMENT_PAGES) == 5
    assert len(PRINTED_NAMES) >= 10, PRINTED_NAMES
    code = "\n".join(_code(p) for p in DOCUMENT_PAGES)
    assert CHECKING.search(code)
    assert sum(bool(re.search(rf"\b{n}\b", code)) for n in PRINTED_NAMES) >= len(PRINTED_NAMES) // 2
