"""The errata: every place where a source document differs from what attnlib computes.

Rows live as YAML in ``book/_data/errata/<chapter>.yml`` (one file per chapter, a list of rows).
Each row has these keys:

==================  ======================================================================================
key                 meaning
==================  ======================================================================================
``id``              short unique slug
``document``        "000" … "004" (the file in shared/seeds)
``section``         where in the document
``quantity``        what is printed or claimed
``document_value``  the document's value, as a string exactly as printed
``verdict``         correct | rounding | wrong | illustrative | conceptual (``correct`` rows are
                    audit-only: they prove a document value is reproduced and are not errata)
``why``             (not needed for correct rows) one sentence on why the document differs
``cause``           (not needed for correct rows) one of ``CAUSES``: arithmetic slip, rounded constant,
                    unseeded run, made-up number, false claim
``chapter``         the book page that shows the right value, e.g. ``book/04_magnitude``
``label``           the MyST target (``(label)=``) in that chapter, next to the example
``decimals``        (optional) how many decimals to show for the correct value (default: as printed)
==================  ======================================================================================

Each row is checked by the function registered under its ``id`` in ``attnbook.checks`` (one
module per YAML file). For numeric rows (correct/rounding/wrong) it returns the book's value
(number or nested list); for illustrative/conceptual rows, and for correct claims, it returns
True when the book's computation shows the document's number is not computed from anything /
the claim is false / the claim holds. There is no code in the YAML.

``classify`` decides from the numbers alone whether a numeric row is correct, rounding or wrong,
and the test suite asserts that it agrees with the row's verdict, so the errata cannot drift from
the code. Used in: "Errata".
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from .checks import CHECKS, plain

VERDICTS = ("correct", "rounding", "wrong", "illustrative", "conceptual")
ERRATA_VERDICTS = VERDICTS[1:]
CAUSES = ("arithmetic slip", "rounded constant", "unseeded run", "made-up number", "false claim")
REQUIRED = ("id", "document", "section", "quantity", "document_value", "verdict", "chapter", "label")
_NUMBER = re.compile(r"-?\d+(?:\.(\d+))?")


def load_rows(folder: str | Path) -> list[dict[str, Any]]:
    """All errata rows under ``folder`` (``*.yml``), sorted by document then file order."""
    rows: list[dict[str, Any]] = []
    for path in sorted(Path(folder).glob("*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        if not isinstance(data, list):
            raise ValueError(f"{path}: expected a YAML list of rows, got {type(data).__name__}")
        for row in data:
            missing = [k for k in REQUIRED if k not in row]
            if missing:
                raise ValueError(f"{path}: row {row.get('id', '?')!r} lacks keys {missing}")
            if row.get("verdict") in ERRATA_VERDICTS and not row.get("why"):
                raise ValueError(f"{path}: row {row['id']!r} is an erratum but has no 'why'")
            if row["verdict"] not in VERDICTS:
                raise ValueError(f"{path}: row {row['id']!r} has verdict {row['verdict']!r}, not one of {VERDICTS}")
            rows.append({**row, "source_file": path.name})
    return sorted(rows, key=lambda r: str(r["document"]))


def evaluate(row: dict[str, Any]) -> Any:
    """Run the check registered for the row's id and return its value (lists for arrays/tensors)."""
    if row["id"] not in CHECKS:
        raise ValueError(f"row {row['id']!r} has no check: register one with @check({row['id']!r}) in attnbook.checks")
    return plain(CHECKS[row["id"]]())


def parse_numbers(text: str) -> tuple[list[float], list[int]]:
    """Numbers in a printed string, with the count of decimals each was printed with."""
    found = list(_NUMBER.finditer(str(text)))
    return [float(m.group(0)) for m in found], [len(m.group(1) or "") for m in found]


def _flatten(value: Any) -> list[float]:
    return [float(x) for x in np.asarray(value, dtype=float).ravel()]


def classify(document_value: str, correct: Any) -> str:
    """'correct', 'rounding' (only the last printed digit is off by one) or 'wrong'."""
    printed, decimals = parse_numbers(document_value)
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


def format_value(value: Any, decimals: int | None) -> str:
    """Display a computed value with ``decimals`` places (lists keep their nesting)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    d = 4 if decimals is None else decimals
    if isinstance(value, (int, float)):
        return f"{value:.{d}f}"
    return "[" + ", ".join(format_value(v, d) for v in value) + "]"
