"""Every chapter is committed executed: nbval compares only cells with stored outputs, so a
notebook saved without outputs would silently check nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[2] / "book"
NOTEBOOKS = sorted(BOOK.rglob("*.ipynb"))
NOTEBOOKS = [p for p in NOTEBOOKS if ".ipynb_checkpoints" not in p.parts and "_build" not in p.parts]


def _code_cells(path: Path) -> list[dict]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS, f"no notebooks found under {BOOK}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_code_cell_has_stored_output(path: Path) -> None:
    cells = _code_cells(path)
    assert cells, f"{path.name} has no code cells"
    unexecuted = [i for i, c in enumerate(cells) if c.get("execution_count") is None]
    assert not unexecuted, f"{path.name}: code cells {unexecuted} were never executed (no stored output)"
    assert any(c.get("outputs") for c in cells), f"{path.name}: no code cell has any stored output"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_executed_in_order_from_a_clean_kernel(path: Path) -> None:
    counts = [c.get("execution_count") for c in _code_cells(path)]
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: execution counts {counts} are not 1..n — re-run it with 'make execute NB=book/{path.name}'"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_error_outputs(path: Path) -> None:
    errors = [o.get("ename") for c in _code_cells(path) for o in c.get("outputs", []) if o["output_type"] == "error"]
    assert not errors, f"{path.name} has stored errors: {errors}"


CHAPTERS = [p for p in NOTEBOOKS if p.parent == BOOK and p.name[:2].isdigit()]
GUARANTEES = "## What this page guarantees"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_guarantees_are_named_and_folded(path: Path) -> None:
    """The cell of asserts that proves a chapter's claims checks the book, not the reader: it is
    headed "What this page guarantees" (never "Check yourself", which the exercises are), and its
    code is folded on the page."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    heads = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and GUARANTEES in "".join(c["source"])]
    assert len(heads) == 1, f"{path.name}: {len(heads)} sections headed {GUARANTEES!r}"
    old = [c for c in cells if c["cell_type"] == "markdown" and re.search(r"^#+ *check yourself", "".join(c["source"]), re.I | re.M)]
    assert not old, f"{path.name} still has a 'Check yourself' heading"
    code = cells[heads[0] + 1]
    assert code["cell_type"] == "code" and "assert " in "".join(code["source"]), f"{path.name}: no asserts after {GUARANTEES!r}"
    assert "hide-input" in code.get("metadata", {}).get("tags", []), f"{path.name}: the guarantees cell is not folded"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_solutions_show_their_reasoning(path: Path) -> None:
    """A solution cell is labelled with its exercise's id and shows its reasoning (at least two lines
    of code or comment) before the ``check(...)`` call, never a bare call."""
    for cell in _code_cells(path):
        lines = [line for line in "".join(cell["source"]).splitlines() if line.strip()]
        at = [i for i, line in enumerate(lines) if re.match(r'check\("([0-9.]+)"', line)]
        if not at:
            continue
        eid = re.match(r'check\("([0-9.]+)"', lines[at[0]]).group(1)
        assert lines[0] == f"# Solution {eid}", f"{path.name}: the solution to {eid} is labelled {lines[0]!r}"
        assert at[0] >= 3, f"{path.name}: the solution to {eid} shows no reasoning before check(...)"
