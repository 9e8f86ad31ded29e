"""The number audit is complete: every numeric token of the five documents is reproduced by an
errata/audit row, explained as not a quantity, or waits for a chapter that is not in the book yet.
When the documents are present (ATTN_SEEDS_DIR, see CONTRIBUTING.md, "The five source documents"), the
committed inventory must match them exactly."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest

from attnbook import audit, errata

ROOT = Path(__file__).resolve().parents[2]
ROWS = errata.load_rows(ROOT / "book" / "_data" / "errata")
DOCS = audit.load_inventory(ROOT / "book" / "_data" / "audit")


def _chapter_exists(chapter: str) -> bool:
    return (ROOT / f"{chapter}.ipynb").exists() or (ROOT / f"{chapter}.md").exists()


def _seeds_dir() -> Path | None:
    candidates = [os.environ.get("ATTN_SEEDS_DIR", ""), ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds"]
    for c in candidates:
        if c and Path(c).is_dir():
            return Path(c)
    return None


def test_one_inventory_per_document() -> None:
    assert [d["document"] for d in DOCS] == ["000", "001", "002", "003", "004"]


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d["document"])
def test_every_token_is_accounted_for(doc: dict) -> None:
    problems = audit.coverage_problems(doc, ROWS, _chapter_exists)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d["document"])
def test_inventory_matches_the_document(doc: dict) -> None:
    seeds = _seeds_dir()
    if seeds is None:
        pytest.skip("the five source documents are not in a clone: set ATTN_SEEDS_DIR to the folder that holds "
                    "them (CONTRIBUTING.md, 'The five source documents'); nothing else needs them")
    path = seeds / doc["file"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == doc["sha256"], f"{doc['file']} changed since its inventory was made"
    assert audit.document_tokens(path.read_text(encoding="utf-8")) == doc["tokens"]


def test_every_row_is_in_the_inventory() -> None:
    mapped = {row for doc in DOCS for entry in doc["entries"] for row in entry.get("rows") or []}
    missing = sorted(r["id"] for r in ROWS if r["id"] not in mapped)
    assert not missing, f"rows not mapped to document lines in book/_data/audit/*.yml: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d["document"])
def test_decimals_are_never_waved_through(doc: dict) -> None:
    # a number with a decimal point is a worked value unless it is a section number ("### 1.2")
    # a garbled copy of a formula or an exponent in code (** 0.5); metadata, prose and facts are integers
    for entry in doc["entries"]:
        if entry.get("skip") in (None, "numbering", "garbled", "code-syntax"):
            continue
        decimals = [t for line in entry["lines"] for t in doc["tokens"].get(line, [])
                    if "." in t and (entry.get("tokens") is None or t in entry["tokens"])]
        assert not decimals, f"document {doc['document']}, lines {entry['lines']}: {decimals} skipped as {entry['skip']}"
    t = audit.tally(doc)
    assert t["reproduced"] + t["pending"] + sum(v for k, v in t.items() if k.startswith("skipped")) == t["tokens"]


# --- the checker itself ---------------------------------------------------------------------


def test_document_tokens() -> None:
    text = "W_q has 3 rows\nx1 = 0.50 and 0.50, L02, √2 ≈ 1.41, -7.0\nnothing"
    assert audit.document_tokens(text) == {1: ["3"], 2: ["0.50", "2", "1.41", "7.0"]}


def _doc(entries: list[dict]) -> dict:
    return {"document": "009", "tokens": {1: ["3", "0.5"], 2: ["7"]}, "entries": entries}


_ROW = {"id": "r", "document": "009", "quantity": "three", "document_value": "3 and 0.50"}


@pytest.mark.parametrize(
    ("entries", "fragment"),
    [
        ([{"section": "s", "lines": [1], "rows": ["r"]}], "line 2: tokens ['7']"),
        ([{"section": "s", "lines": [1, 2], "rows": ["r"]}], "tokens ['7'] appear in none"),
        ([{"section": "s", "lines": [1, 2], "rows": ["nope"]}], "unknown row ids"),
        ([{"section": "s", "lines": [1, 2], "skip": "because"}], "unknown skip reason"),
        ([{"section": "s", "lines": [1, 2], "pending": "book/here"}], "which is in the book now"),
        ([{"section": "s", "lines": [1, 2], "skip": "numbering", "rows": ["r"]}], "exactly one of"),
        ([{"section": "s", "lines": [1], "tokens": ["9"], "skip": "numbering"}], "not on those lines"),
    ],
)
def test_coverage_finds_problems(entries: list[dict], fragment: str) -> None:
    problems = audit.coverage_problems(_doc(entries), [_ROW], lambda ch: ch == "book/here")
    assert any(fragment in p for p in problems), problems


def test_coverage_accepts_a_complete_inventory() -> None:
    entries = [{"section": "s", "lines": [1], "rows": ["r"]}, {"section": "s", "lines": [2], "pending": "book/later"}]
    assert audit.coverage_problems(_doc(entries), [_ROW], lambda ch: False) == []
    assert audit.tally(_doc(entries)) == {"tokens": 3, "reproduced": 2, "pending": 1, "claims": 0}


def test_rendered_pages() -> None:
    rows = [
        {**_ROW, "section": "§1", "verdict": "correct", "chapter": "book/x", "label": "lx"},
        {"id": "w", "document": "009", "section": "§2", "quantity": "q", "document_value": "7",
         "verdict": "wrong", "why": "an arithmetic slip", "chapter": "book/y", "label": "ly"},
    ]
    judged = {"r": errata.Judgement("correct", exact=[3.0, 0.5]), "w": errata.Judgement("wrong", exact=8.0)}
    page = errata.render_errata(rows, judged)
    assert "an arithmetic slip" in page and "{ref}`its check <ly>`" in page and "§1" not in page
    doc = _doc([{"section": "first", "lines": [1], "rows": ["r"]}, {"section": "later", "lines": [2], "pending": "book/z"}])
    page = audit.render_audit([doc], rows, judged)
    assert "`3 and 0.50` | `[3.0000, 0.5000]` | reproduced" in page
    assert "waits for book/z" in page and page.index("### first") < page.index("### later")


def test_errata_follow_the_document_order() -> None:
    rows = [
        {"id": a, "document": "009", "section": a, "quantity": "q", "document_value": "1", "verdict": "wrong",
         "why": "slip", "chapter": "book/x", "label": "l"}
        for a in ("late", "early")
    ]
    judged = {r["id"]: errata.Judgement("wrong", exact=2.0) for r in rows}
    page = errata.render_errata(rows, judged, {"early": 3, "late": 40})
    assert page.index("**early**") < page.index("**late**")
    docs = [_doc([{"section": "s", "lines": [2], "rows": ["r"]}, {"section": "s", "lines": [1], "rows": ["r"]}])]
    assert audit.row_order(docs) == {"r": 1}


def test_audit_page_lists_numbers_it_does_not_compute() -> None:
    doc = _doc([{"section": "s", "lines": [1], "rows": ["r"]}, {"section": "hardware", "lines": [2], "skip": "fact"}])
    page = audit.render_audit([doc], [{**_ROW, "section": "§1", "verdict": "correct", "chapter": "book/x", "label": "l"}],
                              {"r": errata.Judgement("correct", exact=[3.0, 0.5])})
    assert "Numbers stated but not computed" in page and "- hardware, line 2: 7 (fact:" in page


def test_each_document_has_one_title_everywhere() -> None:
    """The Errata and Audit pages name each document by its bibliography entry's title."""
    bib = (Path(__file__).resolve().parents[2] / "book" / "references.bib").read_text(encoding="utf-8")
    for number, title in audit.DOCUMENT_TITLES.items():
        entry = re.search(r"@misc\{doc" + number + r",(.*?)\n\}", bib, re.S)
        assert entry, f"no bibliography entry doc{number}"
        bib_title = re.search(r"title\s*=\s*\{\{(.*)\}\},", entry.group(1)).group(1)
        assert bib_title == title, f"document {number}: {title!r} on the Errata and Audit pages, {bib_title!r} in the bibliography"
