"""The errata: every document value or claim the book checks, judged by one written rule.

Rows live as YAML in ``book/_data/errata/<chapter>.yml`` (one file per chapter, a list of rows).
Each row has these keys:

==================  ======================================================================================
key                 meaning
==================  ======================================================================================
``id``              short unique slug; it also names the row's derivation in ``attnbook.derivations``
``document``        "000" … "004" (the file in shared/seeds)
``section``         where in the document
``quantity``        what is printed or claimed
``document_value``  the document's value, as a string exactly as printed
``verdict``         one of ``VERDICTS``; the test suite asserts it equals the verdict :func:`judge`
                    computes (``correct`` rows are audit-only: a document value reproduced)
``why``             (errata only) one sentence on why the document differs; its numbers must be
                    the document's own or values the page prints (``tests/test_typed_numbers.py``)
``cause``           (errata only) one of ``CAUSES``
``chapter``         the book page that shows the right value, e.g. ``book/04_magnitude``
``label``           the MyST target (``(label)=``) in that chapter, next to the example
``decimals``        (optional) how many decimals to show for the computed value
``consequences``    (optional) rows for values that carry this erratum into later steps (verdict
                    ``carried``); they inherit ``INHERITED`` keys and are not counted as errata
==================  ======================================================================================

There is no code in the YAML. Each row is checked by the function registered under its ``id`` in
``attnbook.derivations``; it returns the named values the verdict rests on (``attnbook.evidence``):
the exact value, the document's own route from its printed inputs, or a finding about a claim.
:func:`judge` applies the rule (``RULE``, written on the Errata page and in CONTRIBUTING) to them.
Used in: "Errata", "Number audit".
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from .derivations import DERIVATIONS, plain
from .evidence import Exact, Finding, MadeUp

VERDICTS = ("correct", "rounding", "carried", "wrong", "illustrative", "imprecise", "false claim")
#: the verdicts of rows that are errata of their own (``carried`` rows sit inside their erratum)
ERRATA_VERDICTS = ("rounding", "wrong", "illustrative", "imprecise", "false claim")
CAUSES = ("arithmetic slip", "rounded constant", "unseeded run", "made-up number", "false claim", "imprecise claim", "toy data")
REQUIRED = ("id", "document", "section", "quantity", "document_value", "verdict", "chapter", "label")
#: the keys that a consequence (a carried value inside its erratum) may leave out, since it inherits them
INHERITED = ("document", "section", "chapter", "label", "cause")
_RANK = {"correct": 0, "rounding": 1, "carried": 2, "wrong": 3}
_NUMBER = re.compile(r"-?\d+(?:\.(\d+))?")

RULE = (
    "1. **Judge the document's arithmetic on the document's own inputs.** A step is *wrong* only if it does not "
    "follow from the numbers the document itself feeds into it, at the precision it shows.",
    "2. **One slip is one erratum.** A value that differs only because an earlier erratum fed it is *carried*: it "
    "is listed inside that erratum as a consequence, with its corrected value, and is not counted again.",
    "3. **Rounding** is a value that follows from the document's own correctly rounded intermediates, or is off "
    "by at most one unit in its last printed digit. The entry names the intermediate and gives both the exact "
    "value and the value of the document's own route.",
    "4. **Illustrative** is a number or claim the document made up or did not derive (hand-picked, an unseeded "
    "run, or a claim that holds only for toy data). Checking it on our own toy data does not make it correct.",
    "5. A **false claim** is false as stated, for every reasonable reading. A statement that holds in the cases "
    "it describes and fails only at an edge is **imprecise**, and the entry shows that edge.",
    "6. Every verdict is computed by code (`attnbook.errata.judge`) from named inputs: the document's printed "
    "inputs, the value of the document's own route, and the exact value. The values are printed, none typed.",
)


def load_rows(folder: str | Path) -> list[dict[str, Any]]:
    """All errata rows under ``folder`` (``*.yml``), sorted by document then file order.

    A row's ``consequences`` (carried values, rule 2) are returned as rows of their own, right
    after it, with ``carried_from`` set to its id and the keys of ``INHERITED`` taken from it."""
    rows: list[dict[str, Any]] = []
    for path in sorted(Path(folder).glob("*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        if not isinstance(data, list):
            raise ValueError(f"{path}: expected a YAML list of rows, got {type(data).__name__}")
        for row in data:
            _require(path, row)
            rows.append({**{k: v for k, v in row.items() if k != "consequences"}, "source_file": path.name})
            for sub in row.get("consequences") or []:
                full = {**{k: row[k] for k in INHERITED if k in row}, **sub}
                _require(path, full)
                if full["verdict"] != "carried":
                    raise ValueError(f"{path}: consequence {full['id']!r} of {row['id']!r} must have verdict 'carried'")
                rows.append({**full, "carried_from": row["id"], "source_file": path.name})
    return sorted(rows, key=lambda r: str(r["document"]))


def _require(path: Path, row: dict[str, Any]) -> None:
    missing = [k for k in REQUIRED if k not in row]
    if missing:
        raise ValueError(f"{path}: row {row.get('id', '?')!r} lacks keys {missing}")
    if row["verdict"] not in VERDICTS:
        raise ValueError(f"{path}: row {row['id']!r} has verdict {row['verdict']!r}, not one of {VERDICTS}")
    if row["verdict"] in ERRATA_VERDICTS and not row.get("why"):
        raise ValueError(f"{path}: row {row['id']!r} is an erratum but has no 'why'")


def run_check(row_id: str) -> Any:
    """The raw result of the check registered for ``row_id`` in ``attnbook.derivations``."""
    if row_id not in DERIVATIONS:
        raise ValueError(f"row {row_id!r} has no derivation: register one with @derives({row_id!r}) in attnbook.derivations")
    return DERIVATIONS[row_id]()


def evaluate(row: dict[str, Any]) -> Any:
    """The book's value for a row: the exact value of a numeric row (lists for arrays/tensors), or
    whether the computation confirms what the page says about a claim or made-up value (a bool)."""
    result = run_check(row["id"])
    if isinstance(result, Exact):
        return plain(result.exact)
    if isinstance(result, Finding):
        return result.holds
    if isinstance(result, MadeUp):
        return result.confirmed
    return plain(result)


@dataclass(frozen=True)
class Judgement:
    """A row's verdict and the named values it rests on (all printed on the Errata page)."""

    verdict: str
    exact: Any = None  # numeric rows: the exact value
    route: Any = None  # numeric rows with a route: the value the document's own route gives
    inputs: dict[str, str] = field(default_factory=dict)  # route input row id -> the document's printed value
    note: str = ""  # which intermediate the route differs by
    edge: str = ""  # imprecise claims: where the claim fails
    shown: dict[str, Any] = field(default_factory=dict)  # claims and made-up values: the values behind the verdict


def numeric_verdict(printed: str, exact: Any, route: Any = None, fed_by_erratum: bool = False) -> str:
    """The rule for a printed number (or list of numbers), element by element, worst one wins.

    ``correct`` if it equals the exact value at the printed precision; else, if it follows (to one
    unit in its last digit) from the document's own route, ``carried`` when an input of that route
    is itself an erratum and ``rounding`` when its inputs are correct; else ``rounding`` if within
    one unit of the exact value; else ``wrong``."""
    printed_values, decimals = printed_numbers(printed)
    exact_numbers = _flatten(exact)
    route_numbers = _flatten(route) if route is not None else None
    for name, values in (("exact", exact_numbers), ("route", route_numbers)):
        if values is not None and len(values) != len(printed_values):
            raise ValueError(f"{printed!r} prints {len(printed_values)} numbers, the {name} value has {len(values)}")
    worst = "correct"
    for i, (p, d) in enumerate(zip(printed_values, decimals)):
        off_exact = _units_off(p, d, exact_numbers[i])
        if off_exact == 0:
            verdict = "correct"
        elif route_numbers is not None and _units_off(p, d, route_numbers[i]) <= 1:
            verdict = "carried" if fed_by_erratum else "rounding"
        elif off_exact <= 1:
            verdict = "rounding"
        else:
            verdict = "wrong"
        worst = max(worst, verdict, key=_RANK.__getitem__)
    return worst


def _units_off(printed: float, decimals: int, value: float) -> int:
    """0 if ``printed`` is ``value`` rounded to ``decimals`` places, 1 if one unit off, 2 if more."""
    unit = 10.0**-decimals
    diff = abs(printed - round(value, decimals))
    return 0 if diff <= unit / 1000 else 1 if diff <= unit * 1.0001 else 2


def claim_verdict(result: Finding | MadeUp) -> str:
    """illustrative (not derived), false claim (does not hold), imprecise (holds, fails at an edge), correct."""
    if isinstance(result, MadeUp):
        return "illustrative" if result.confirmed else "check failed"
    if not result.holds:
        return "false claim"
    return "imprecise" if result.edge else "correct"


def judge(row: dict[str, Any], by_id: dict[str, dict[str, Any]], _cache: dict[str, Judgement] | None = None) -> Judgement:
    """The verdict of ``row`` by the rule (``RULE``), computed from its check; ``by_id`` maps row ids
    to rows (for the document's printed inputs of a route and their own verdicts)."""
    cache = {} if _cache is None else _cache
    if row["id"] in cache:
        return cache[row["id"]]
    result = run_check(row["id"])
    if isinstance(result, bool):
        result = Finding(holds=result)
    if isinstance(result, (Finding, MadeUp)):
        out = Judgement(
            verdict=claim_verdict(result),
            edge=getattr(result, "edge", ""),
            shown={k: plain(v) for k, v in result.shown.items()},
        )
    else:
        numeric = result if isinstance(result, Exact) else Exact(exact=result)
        exact = plain(numeric.exact)
        route_value, inputs, fed = None, {}, False
        if numeric.route is not None:
            unknown = [i for i in numeric.route.inputs if i not in by_id]
            if unknown:
                raise ValueError(f"row {row['id']!r}: route inputs {unknown} are not rows")
            inputs = {i: str(by_id[i]["document_value"]) for i in numeric.route.inputs}
            arrays = [np.array(printed_numbers(v)[0], dtype=np.float64) for v in inputs.values()]
            route_value = plain(numeric.route.compute(*arrays))
            fed = any(judge(by_id[i], by_id, cache).verdict not in ("correct",) for i in numeric.route.inputs)
        verdict = numeric_verdict(str(row["document_value"]), exact, route_value, fed)
        out = Judgement(verdict=verdict, exact=exact, route=route_value, inputs=inputs,
                        note=numeric.route.note if numeric.route else "")
    cache[row["id"]] = out
    return out


def judge_all(rows: list[dict[str, Any]]) -> dict[str, Judgement]:
    """Row id -> :class:`Judgement` for every row."""
    by_id = {r["id"]: r for r in rows}
    cache: dict[str, Judgement] = {}
    return {r["id"]: judge(r, by_id, cache) for r in rows}


def counts(rows: list[dict[str, Any]], judgements: dict[str, Judgement]) -> dict[str, int]:
    """How many rows have each verdict (computed, not declared)."""
    return {v: sum(judgements[r["id"]].verdict == v for r in rows) for v in VERDICTS}


def printed_numbers(text: str) -> tuple[list[float], list[int]]:
    """Numbers in a printed string, with the count of decimals each was printed with."""
    found = list(_NUMBER.finditer(str(text)))
    return [float(m.group(0)) for m in found], [len(m.group(1) or "") for m in found]


def _flatten(value: Any) -> list[float]:
    return [float(x) for x in np.asarray(value, dtype=float).ravel()]


def classify(document_value: str, correct: Any) -> str:
    """'correct', 'rounding' (only the last printed digit is off by one) or 'wrong'."""
    printed, decimals = printed_numbers(document_value)
    computed = _flatten(correct)
    if len(printed) != len(computed):
        raise ValueError(
            f"document value {document_value!r} has {len(printed)} numbers, computed value has {len(computed)}"
        )
    worst = "correct"
    for p, d, c in zip(printed, decimals, computed):
        unit = 10.0**-d
        r = round(c, d)
        if math.isclose(p, r, abs_tol=unit / 1000):
            continue
        if abs(p - r) <= unit * 1.0001:
            worst = "rounding" if worst == "correct" else worst
        else:
            worst = "wrong"
    return worst


#: The most significant digits a displayed number keeps. Beyond them the float64 arithmetic of
#: another CPU (its BLAS and SIMD kernels) may give other digits, and a page must not depend on them.
SIGNIFICANT = 8


def format_value(value: Any, decimals: int | None) -> str:
    """Display a computed value with ``decimals`` places (lists keep their nesting), and never with
    more than ``SIGNIFICANT`` significant digits: a large value (a diverging training's loss, say)
    gets fewer places, and from 1e8 on it is shown in scientific notation."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    d = 4 if decimals is None else decimals
    if isinstance(value, (int, float)):
        whole = len(str(int(abs(value)))) if math.isfinite(value) else 0
        if whole > SIGNIFICANT:
            return f"{value:.{SIGNIFICANT - 1}e}"
        return f"{value:.{min(d, SIGNIFICANT - whole) if abs(value) >= 1 else d}f}"
    return "[" + ", ".join(format_value(v, d) for v in value) + "]"


# --- rendering (Markdown for the "Errata" page) ------------------------------------------------


def render_value(value: Any, decimals: int | None = None) -> str:
    """A value as the page prints it: numbers with ``decimals`` places (4 by default), lists keep
    their nesting, strings and bools as words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format_value(value, decimals)
    return "[" + ", ".join(render_value(v, decimals) for v in value) + "]"


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def _values_line(row: dict[str, Any], j: Judgement) -> str:
    """The values the verdict rests on, in one Markdown list item."""
    if j.exact is not None:
        parts = [f"exact: `{render_value(j.exact, row.get('decimals'))}`"]
        if j.route is not None:
            inputs = "; ".join(f"{i} `{_cell(v)}`" for i, v in j.inputs.items())
            parts.append(f"document's own route ({_cell(j.note)}; from its printed {inputs}): `{render_value(j.route, row.get('decimals'))}`")
        return "- values: " + ", ".join(parts)
    items = [f"{_cell(k)}: `{render_value(v)}`" for k, v in j.shown.items()]
    line = "- values: " + ("; ".join(items) if items else "none")
    if j.edge:
        line += f"\n- edge: {_cell(j.edge)}"
    return line


def render_errata(rows: list[dict[str, Any]], judgements: dict[str, Judgement], order: dict[str, int] | None = None,
                  titles: dict[str, str] | None = None) -> str:
    """The Errata page body: per document, one block per erratum (rows whose computed verdict is not
    ``correct`` or ``carried``), in the document's order when ``order`` is given, each with the values
    its verdict rests on and its consequences (carried values) inside it."""
    order, titles = order or {}, titles or {}
    errata = sorted((r for r in rows if judgements[r["id"]].verdict in ERRATA_VERDICTS),
                    key=lambda r: (str(r["document"]), order.get(r["id"], 10**9)))
    out: list[str] = []
    for doc in sorted({str(r["document"]) for r in errata}):
        out.append(f"## Document {doc}: {titles.get(doc, '')}\n")
        for r in (r for r in errata if str(r["document"]) == doc):
            j = judgements[r["id"]]
            out.append(
                f"**{_cell(r['section'])}** — {_cell(r['quantity'])}\n\n"
                f"- document: `{_cell(r['document_value'])}` ({{ref}}`{r['chapter'].split('/')[-1]} <{r['label']}>`)\n"
                f"{_values_line(r, j)}\n"
                f"- verdict: **{j.verdict}** ({_cell(r.get('cause', '?'))}). {_cell(r['why'])}"
            )
            kids = [c for c in rows if c.get("carried_from") == r["id"]]
            for c in kids:
                jc = judgements[c["id"]]
                out.append(f"  - consequence, {_cell(c['quantity'])}: document `{_cell(c['document_value'])}`, "
                           f"corrected `{render_value(jc.exact, c.get('decimals'))}`, its own route "
                           f"`{render_value(jc.route, c.get('decimals'))}` (**{jc.verdict}**). {_cell(c.get('why', ''))}")
            out.append("")
    return "\n".join(out)
