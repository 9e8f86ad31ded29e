"""Judging a row: its derivation's values against the document's printed value, by the rule."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..derivations import DERIVATIONS, plain
from ..evidence import Exact, Finding, MadeUp
from ._rule import _NUMBER, _RANK, VERDICTS


def derive(row_id: str) -> Any:
    """The raw result of the derivation registered for ``row_id`` in ``attnbook.derivations``."""
    if row_id not in DERIVATIONS:
        raise ValueError(f"row {row_id!r} has no derivation: register one with @derives({row_id!r}) in attnbook.derivations")
    return DERIVATIONS[row_id]()


def evaluate(row: dict[str, Any]) -> Any:
    """The book's value for a row: the exact value of a numeric row (lists for arrays/tensors), or
    whether the computation confirms what the page says about a claim or made-up value (a bool)."""
    result = derive(row["id"])
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
    result = derive(row["id"])
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
