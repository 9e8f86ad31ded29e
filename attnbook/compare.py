"""Side-by-side comparison of a document's printed values with what attnlib computes.

Each row compares the document's printed value with the exact one (``attnbook.errata.classify``):
``same``, ``last digit`` (only the last printed digit is off by one) or ``differs``. A difference is not
yet a verdict: the errata (``attnbook.errata.judge``) also recompute the document's own route from the
numbers it printed for a step's inputs, and a value that differs from the exact one can be right on those.
Used in: "Worked example: 'I am happy'", "Worked example: 'it' attends", "Attention maps".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from attnlib._validate import as_finite_array

from .errata import classify, printed_numbers

VERDICT_TEXT = {"correct": "same", "rounding": "last digit", "wrong": "differs"}


def _as_list(value: Any) -> list[float]:
    return as_finite_array(value, "computed value").ravel().tolist()


def compare_row(document_value: str, computed: Any) -> str:
    """``"same"``, ``"last digit"`` or ``"differs"``: the document's printed string against ``computed``
    (a number, list, array or tensor with as many numbers as the string prints).

    Used in: the "what this page guarantees" cells of the worked-example chapters and "Attention maps"."""
    if not isinstance(document_value, str):
        raise TypeError(f"document_value must be the printed string, got {type(document_value).__name__}")
    numbers = _as_list(computed)
    printed, _ = printed_numbers(document_value)
    if len(printed) != len(numbers):
        raise ValueError(
            f"document value {document_value!r} prints {len(printed)} numbers but the computed value "
            f"has {len(numbers)} (shape {np.shape(np.asarray(numbers))})"
        )
    return VERDICT_TEXT[classify(document_value, numbers)]


def side_by_side(rows: Sequence[tuple[str, str, Any]], *, decimals: int = 4) -> str:
    """A plain-text table: quantity | document (as printed) | attnlib (``decimals`` places) | vs exact.

    ``rows`` holds ``(quantity, document_value, computed)`` triples. The last column is ``same`` when
    the document's value equals attnlib's rounded to the document's digits, ``last digit`` when only
    its last digit is off by one, ``differs`` otherwise.
    Used in: "Worked example: 'I am happy'", "Worked example: 'it' attends", "Attention maps".
    """
    if not rows:
        raise ValueError("rows must hold at least one (quantity, document_value, computed) triple")
    if isinstance(decimals, bool) or not isinstance(decimals, int) or decimals < 0:
        raise ValueError(f"decimals must be an int >= 0, got {decimals!r}")
    table = []
    for row in rows:
        if len(row) != 3:
            raise ValueError(f"each row must be (quantity, document_value, computed), got {len(row)} items: {row!r}")
        quantity, doc, computed = row
        verdict = compare_row(doc, computed)
        ours = ", ".join(f"{x:.{decimals}f}" for x in _as_list(computed))
        ours = f"[{ours}]" if len(_as_list(computed)) > 1 else ours
        table.append((str(quantity), doc, ours, verdict))
    head = ("quantity", "document", "attnlib", "vs exact")
    widths = [max(len(r[i]) for r in [head, *table]) for i in range(4)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(head, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in table]
    return "\n".join(lines)


def document_tensor(printed: Sequence[str]) -> torch.Tensor:
    """The numbers of a document's printed rows as a float64 tensor ``(len(printed), n)`` —
    e.g. ``("[0.30, 0.33, 0.37]", "[0.26, 0.37, 0.37]")`` → a ``(2, 3)`` tensor. Every row must
    print the same count of numbers. Used to recompute a document's own (rounded) route, in
    "Worked example: 'I am happy'" and "Worked example: 'it' attends"."""
    if isinstance(printed, str) or not printed:
        raise TypeError(f"printed must be a non-empty sequence of strings, got {printed!r}")
    rows = [printed_numbers(r)[0] for r in printed]
    lengths = sorted({len(r) for r in rows})
    if lengths[0] == 0 or len(lengths) != 1:
        raise ValueError(f"printed rows must each hold the same number (> 0) of values, got counts {lengths}")
    return torch.tensor(rows, dtype=torch.float64)  # (rows, n)


def format_rows(
    matrix: Any,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    *,
    decimals: int = 4,
) -> str:
    """A 1-d or 2-d array/tensor as aligned text with optional row and column labels, every value
    printed with ``decimals`` places (stable across library versions, unlike a tensor repr).
    Used in: "Worked example: 'I am happy'", "Worked example: 'it' attends", "Attention maps"."""
    arr = np.asarray(matrix.detach().cpu() if hasattr(matrix, "detach") else matrix, dtype=float)
    if arr.ndim == 1:
        arr = arr[None, :]  # (1, n)
    if arr.ndim != 2 or 0 in arr.shape:
        raise ValueError(f"format_rows needs a non-empty 1-d or 2-d array, got shape {arr.shape}")
    n_rows, n_cols = arr.shape
    for name, labels, n in (("row_labels", row_labels, n_rows), ("col_labels", col_labels, n_cols)):
        if labels is not None and len(labels) != n:
            raise ValueError(f"{name} has {len(labels)} entries, the matrix has {n} (shape {arr.shape})")
    cells = [[f"{x:.{decimals}f}" for x in row] for row in arr.tolist()]
    width = max([len(c) for row in cells for c in row] + [len(str(c)) for c in (col_labels or [])])
    lead = max([len(str(r)) for r in (row_labels or [])], default=0)
    lines = []
    if col_labels is not None:
        lines.append(" " * (lead + 2 if row_labels is not None else 0)
                     + "  ".join(str(c).rjust(width) for c in col_labels))
    for i, row in enumerate(cells):
        prefix = f"{str(row_labels[i]).rjust(lead)}: " if row_labels is not None else ""
        lines.append(prefix + "  ".join(c.rjust(width) for c in row))
    return "\n".join(lines)
