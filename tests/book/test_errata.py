"""The errata cannot drift from the code: every row is recomputed with attnlib and its verdict
re-derived by the written rule (attnbook.errata.judge); the rule itself is tested on constructed rows."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from attnbook import errata
from attnbook.derivations import DERIVATIONS
from attnbook.evidence import Exact, Finding, MadeUp, Route
from tests._errata import rows, verdicts

ROOT = Path(__file__).resolve().parents[2]
ROWS = rows()


def test_rows_exist_and_ids_are_unique() -> None:
    assert ROWS
    ids = [r["id"] for r in ROWS]
    assert len(ids) == len(set(ids)), f"duplicate errata ids: {sorted(i for i in ids if ids.count(i) > 1)}"


def test_every_row_has_a_check_and_every_check_a_row() -> None:
    ids = {r["id"] for r in ROWS}
    assert not ids - set(DERIVATIONS), f"rows with no derivation in attnbook.derivations: {sorted(ids - set(DERIVATIONS))}"
    assert not set(DERIVATIONS) - ids, f"derivations with no row in book/_data/errata: {sorted(set(DERIVATIONS) - ids)}"


def test_no_code_in_the_data() -> None:
    assert not [r["id"] for r in ROWS if "check" in r], "rows name their check by id; no 'check:' expressions"
    sources = [*(ROOT / "attnbook").rglob("*.py")]
    assert not [p.name for p in sources if re.search(r"\beval\(", p.read_text(encoding="utf-8"))], "no eval in attnbook"


BY_ID = {r["id"]: r for r in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_verdict_follows_the_rule(row: dict) -> None:
    j = verdicts()[row["id"]]
    assert j.verdict == row["verdict"], (
        f"{row['id']}: the rule gives {j.verdict!r}, the row says {row['verdict']!r} "
        f"(document {row['document_value']!r}, exact {j.exact!r}, route {j.route!r}, shown {j.shown!r})"
    )


def _slip_behind(row_id: str) -> str:
    """The first erratum a carried value comes from, following its route inputs."""
    row = BY_ID[row_id]
    if verdicts()[row_id].verdict != "carried":
        return row_id
    fed = [i for i in verdicts()[row_id].inputs if verdicts()[i].verdict != "correct"]
    assert fed, f"{row_id}: carried, but no input of its route is an erratum"
    return _slip_behind(fed[0]) if row else row_id


@pytest.mark.parametrize("row", [r for r in ROWS if r["verdict"] == "carried"], ids=lambda r: r["id"])
def test_a_carried_value_sits_inside_the_erratum_it_comes_from(row: dict) -> None:
    assert row.get("carried_from") == _slip_behind(row["id"]), (
        f"{row['id']}: list it under consequences of {_slip_behind(row['id'])!r}, not {row.get('carried_from')!r}"
    )


def test_only_carried_values_are_consequences() -> None:
    assert all((r["verdict"] == "carried") == ("carried_from" in r) for r in ROWS)


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


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_row_points_to_the_page_of_its_document(row: dict) -> None:
    """Every check lives on its document's page (part "The five documents, checked"), not in a lesson."""
    assert row["chapter"] == f"book/document_{row['document']}", (
        f"{row['id']}: document {row['document']} is checked on book/document_{row['document']}, not {row['chapter']}"
    )


def test_a_label_is_defined_on_one_page_only() -> None:
    pages: dict[str, set[str]] = {}
    for r in ROWS:
        pages.setdefault(r["label"], set()).add(r["chapter"])
    assert not {k: v for k, v in pages.items() if len(v) > 1}, "a MyST target can live on one page only"


@pytest.mark.parametrize(
    ("printed", "computed", "verdict"),
    [("0.30", 0.3004, "correct"), ("0.30", 0.2949, "rounding"), ("[0.26, 0.37]", [0.2622, 0.3323], "wrong"),
     ("1.12", 1.1201, "correct"), ("7.09", 7.0711, "wrong")],
)
def test_classify(printed: str, computed: object, verdict: str) -> None:
    assert errata.classify(printed, computed) == verdict


@pytest.mark.parametrize("row", [r for r in ROWS if r["verdict"] in errata.ERRATA_VERDICTS], ids=lambda r: r["id"])
def test_every_erratum_names_its_cause(row: dict) -> None:
    assert row.get("cause") in errata.CAUSES, f"{row['id']}: cause {row.get('cause')!r} is not one of {errata.CAUSES}"
    assert len(row["why"]) <= 300, f"{row['id']}: the why should be one short sentence"


# --- the rule on constructed mini-document rows, one per verdict kind -------------------------


def _mini(monkeypatch: pytest.MonkeyPatch, checks: dict, rows: list[dict]) -> dict:
    for rid, fn in checks.items():
        monkeypatch.setitem(DERIVATIONS, rid, fn)
    return errata.judge_all(rows)


def _row(rid: str, printed: str) -> dict:
    return {"id": f"mini-{rid}", "document": "009", "document_value": printed}


def test_rule_right_rounding_carried_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    # logits printed correctly rounded; exp of the printed logit is right on the document's own input
    logit = 0.2849  # printed as 0.28; exp(0.28) = 1.3231, exp(0.2849) = 1.3296
    rows = [_row("logit", "0.28"), _row("exp", "1.323"), _row("exp-exact", "1.323"), _row("slip", "1.50"),
            _row("carried", "3.00"), _row("cut", "1.11"), _row("wrong-on-inputs", "2.00")]
    judged = _mini(monkeypatch, {
        "mini-logit": lambda: logit,
        "mini-exp": lambda: Exact(math.exp(logit), Route(("mini-logit",), lambda x: np.exp(x[0]))),
        "mini-exp-exact": lambda: math.exp(logit),
        "mini-slip": lambda: Exact(math.exp(logit), Route(("mini-logit",), lambda x: np.exp(x[0]))),
        "mini-carried": lambda: Exact(2 * math.exp(logit), Route(("mini-slip",), lambda x: 2 * x[0])),
        "mini-cut": lambda: 1.1198,
        "mini-wrong-on-inputs": lambda: Exact(2 * math.exp(logit), Route(("mini-slip",), lambda x: 2 * x[0])),
    }, rows)
    verdicts = {k.removeprefix("mini-"): v.verdict for k, v in judged.items()}
    assert verdicts == {"logit": "correct", "exp": "rounding", "exp-exact": "wrong", "slip": "wrong",
                        "carried": "carried", "cut": "rounding", "wrong-on-inputs": "wrong"}
    assert judged["mini-exp"].route == pytest.approx(math.exp(0.28)) and judged["mini-exp"].inputs == {"mini-logit": "0.28"}


def test_rule_claims(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [_row(k, "claim") for k in ("holds", "false", "edge", "made-up", "unconfirmed")]
    judged = _mini(monkeypatch, {
        "mini-holds": lambda: True,
        "mini-false": lambda: Finding(holds=False, shown={"largest weight": 0.4}),
        "mini-edge": lambda: Finding(holds=True, edge="a fully masked row", shown={"weights": [0.25] * 4}),
        "mini-made-up": lambda: MadeUp(confirmed=True, shown={"sum": 1.2}),
        "mini-unconfirmed": lambda: MadeUp(confirmed=False),
    }, rows)
    assert [judged[r["id"]].verdict for r in rows] == ["correct", "false claim", "imprecise", "illustrative", "check failed"]
    assert judged["mini-edge"].edge == "a fully masked row" and judged["mini-false"].shown == {"largest weight": 0.4}


def test_errata_page_shows_the_values_and_the_consequences(monkeypatch: pytest.MonkeyPatch) -> None:
    base = {"section": "§1", "quantity": "q", "chapter": "book/x", "label": "lx", "cause": "arithmetic slip"}
    rows = [{**_row("in", "0.10"), **base, "verdict": "correct"},
            {**_row("slip", "0.50"), **base, "verdict": "wrong", "why": "a slip"},
            {**_row("next", "1.00"), **base, "verdict": "carried", "why": "doubled", "carried_from": "mini-slip"}]
    judged = _mini(monkeypatch, {
        "mini-in": lambda: 0.1,
        "mini-slip": lambda: Exact(0.2, Route(("mini-in",), lambda x: 2 * x[0], "the doubled input")),
        "mini-next": lambda: Exact(0.4, Route(("mini-slip",), lambda x: 2 * x[0], "twice the slip")),
    }, rows)
    page = errata.render_errata(rows, judged)
    assert "exact: `0.2000`" in page and "mini-in `0.10`" in page and ": `0.2000`" in page
    assert "consequence, q: document `1.00`, corrected `0.4000`, its own route `1.0000` (**carried**)" in page
    assert page.count("**wrong**") == 1 and "§1" in page


def test_the_rule_is_written_in_contributing() -> None:
    text = " ".join((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8").split())
    missing = [line[:40] for line in errata.RULE if " ".join(line.split()) not in text]
    assert not missing, f"CONTRIBUTING.md lacks these points of errata.RULE: {missing}"
