"""Side-by-side comparison of a document's printed values with what attnlib computes.

Each row compares the document's printed value with the exact one (``attnbook.errata.classify``):
``same``, ``last digit`` (only the last printed digit is off by one) or ``differs``. A difference is not
yet a verdict: the errata (``attnbook.errata.judge``) also recompute the document's own route from the
numbers it printed for a step's inputs, and a value that differs from the exact one can be right on those.
Used in: the pages of "The five documents, checked" ("Document 000" ... "Document 004").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from attnlib.companions.checks import as_finite_array

from .audit import load_inventory, row_order
from .errata import Judgement, classify, judge, load_rows, markdown_cell, printed_numbers, render_value

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


# --- a document's checked rows, on its page of "The five documents, checked" -----------------------

class _Verdicts(Mapping[str, Judgement]):
    """Row id -> the row's :class:`~attnbook.errata.Judgement`, judged when first asked for (with the rows
    its route rests on, as :func:`~attnbook.errata.judge` does) and kept: a document's page runs the
    derivations of its own rows, not of all of them (about 2 s)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self._by_id = {r["id"]: r for r in rows}
        self._cache: dict[str, Judgement] = {}

    def __getitem__(self, row_id: str) -> Judgement:
        return judge(self._by_id[row_id], self._by_id, self._cache)

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)


_ROWS_CACHE: dict[str, tuple[list[dict[str, Any]], _Verdicts, dict[str, int]]] = {}


def _judged_rows(data: str | Path) -> tuple[list[dict[str, Any]], _Verdicts, dict[str, int]]:
    """Every errata/audit row under ``data`` (``errata/`` and ``audit/``), each judged once per process
    when first asked for, and each row's first document line (its reading order)."""
    key = str(Path(data).resolve())
    if key not in _ROWS_CACHE:
        rows = load_rows(Path(data) / "errata")
        _ROWS_CACHE[key] = (rows, _Verdicts(rows), row_order(load_inventory(Path(data) / "audit")))
    return _ROWS_CACHE[key]


def _shown(row: dict[str, Any], judgement: Any) -> str:
    """attnlib's value for a row: the exact value of a numeric row, else the values its verdict rests on."""
    if judgement.exact is not None:
        return render_value(judgement.exact, row.get("decimals"))
    items = [f"{k}: {render_value(v, row.get('decimals'))}" for k, v in judgement.shown.items()]
    if items:
        return "; ".join(items)
    return "holds, computed" if judgement.verdict == "correct" else "fails, computed"


class MarkdownTable(str):
    """A Markdown table that a notebook renders as a table (and stores as this text, which is compared)."""

    def _repr_markdown_(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return str(self)


def checked_rows(document: str, *labels: str, data: str | Path = "_data") -> MarkdownTable:
    """A Markdown table of the rows of ``document`` whose ``label`` is one of ``labels``, in the
    document's reading order: what it prints, attnlib's value (computed now) and the verdict of
    ``attnbook.errata.judge``, an erratum linked to the Errata page. ``data`` is ``book/_data``.
    Used in: the pages "Document 000" ... "Document 004"."""
    rows, judged, order = _judged_rows(data)
    mine = [r for r in rows if str(r["document"]) == document and (not labels or r["label"] in labels)]
    if not mine:
        raise ValueError(f"document {document!r} has no rows with labels {labels!r} under {data}")
    mine.sort(key=lambda r: order.get(r["id"], order.get(r.get("carried_from", ""), 10**9)))
    lines = ["| what the document prints | document | attnlib | verdict |", "|---|---|---|---|"]
    for r in mine:
        j = judged[r["id"]]
        verdict = j.verdict if j.verdict in ("correct", "carried") else f"[{j.verdict}](errata.ipynb)"
        lines.append(f"| {markdown_cell(r['quantity'])} | `{markdown_cell(r['document_value'])}` | {markdown_cell(_shown(r, j))} | {verdict} |")
    return MarkdownTable("\n".join(lines))


def document_tally(document: str, data: str | Path = "_data") -> dict[str, int]:
    """How many rows of ``document`` get each verdict (every row, carried values included).
    Used in: the pages "Document 000" ... "Document 004"."""
    rows, judged, _ = _judged_rows(data)
    out: dict[str, int] = {}
    for r in rows:
        if str(r["document"]) == document:
            out[judged[r["id"]].verdict] = out.get(judged[r["id"]].verdict, 0) + 1
    return out


