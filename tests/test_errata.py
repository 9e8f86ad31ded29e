"""The errata cannot drift from the code: every row is recomputed with attnlib and its verdict
re-derived from the numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from attnbook import errata
from attnbook.checks import CHECKS

ROOT = Path(__file__).resolve().parents[1]
ROWS = errata.load_rows(ROOT / "book" / "_data" / "errata")


def test_rows_exist_and_ids_are_unique() -> None:
    assert ROWS
    ids = [r["id"] for r in ROWS]
    assert len(ids) == len(set(ids)), f"duplicate errata ids: {sorted(i for i in ids if ids.count(i) > 1)}"


def test_every_row_has_a_check_and_every_check_a_row() -> None:
    ids = {r["id"] for r in ROWS}
    assert not ids - set(CHECKS), f"rows with no check function in attnbook.checks: {sorted(ids - set(CHECKS))}"
    assert not set(CHECKS) - ids, f"check functions with no row in book/_data/errata: {sorted(set(CHECKS) - ids)}"


def test_no_code_in_the_data() -> None:
    assert not [r["id"] for r in ROWS if "check" in r], "rows name their check by id; no 'check:' expressions"
    sources = [*(ROOT / "attnbook").rglob("*.py")]
    assert not [p.name for p in sources if re.search(r"\beval\(", p.read_text(encoding="utf-8"))], "no eval in attnbook"


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_verdict_matches_recomputation(row: dict) -> None:
    value = errata.evaluate(row)
    numeric = row["verdict"] in ("rounding", "wrong") or (row["verdict"] == "correct" and not isinstance(value, bool))
    if numeric:
        assert not isinstance(value, bool), f"{row['id']}: numeric rows must compute a value, got {value!r}"
        assert errata.classify(str(row["document_value"]), value) == row["verdict"], (
            f"{row['id']}: document says {row['document_value']!r}, attnlib computes {value!r}"
        )
    else:
        assert value is True, f"{row['id']}: its check should demonstrate the {row['verdict']} verdict, got {value!r}"


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_row_links_to_a_label_in_its_chapter(row: dict) -> None:
    path = ROOT / (row["chapter"] + ".ipynb")
    if not path.exists():
        path = ROOT / (row["chapter"] + ".md")
    assert path.exists(), f"{row['id']}: chapter {row['chapter']} not found"
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"])
    assert re.search(rf"^\({re.escape(row['label'])}\)=", text, re.M), (
        f"{row['id']}: no target ({row['label']})= in {path.name}"
    )


@pytest.mark.parametrize(
    ("printed", "computed", "verdict"),
    [("0.30", 0.3004, "correct"), ("0.30", 0.2949, "rounding"), ("[0.26, 0.37]", [0.2622, 0.3323], "wrong"),
     ("1.12", 1.1201, "correct"), ("7.09", 7.0711, "wrong")],
)
def test_classify(printed: str, computed: object, verdict: str) -> None:
    assert errata.classify(printed, computed) == verdict


@pytest.mark.parametrize("row", [r for r in ROWS if r["verdict"] != "correct"], ids=lambda r: r["id"])
def test_every_erratum_names_its_cause(row: dict) -> None:
    assert row.get("cause") in errata.CAUSES, f"{row['id']}: cause {row.get('cause')!r} is not one of {errata.CAUSES}"
    assert len(row["why"]) <= 300, f"{row['id']}: the why should be one short sentence"
