"""Reproducible outputs: re-executing every chapter from a clean kernel gives byte-identical text
outputs and figures to the committed ones (the committed notebook is the first build, this run the
second). Unlike nbval this compares raw bytes with no sanitizer, and PNG figures too.

Cells marked ``# NBVAL_IGNORE_OUTPUT`` (timings) and widget model ids are excluded.

The widget state stored in a notebook's metadata is compared too: the site is built from the committed
notebooks without executing them, and that state (every slider's numbers and its ES module) is what
the static page runs. A stale state (say, a widget's .js changed and the chapter was not re-executed)
fails here.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

BOOK = Path(__file__).resolve().parents[1] / "book"
NOTEBOOKS = sorted(p for p in BOOK.glob("*.ipynb"))
COMPARED = ("text/plain", "text/markdown", "text/html", "text/latex", "image/png")
STATE_MIME = "application/vnd.jupyter.widget-state+json"


def _outputs(cell: dict) -> list[tuple[str, str]]:
    found = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            key = f"stream:{out['name']}"
            if found and found[-1][0] == key:
                # the kernel splits one cell's prints into several stream messages at timing-dependent
                # points (its flush interval); like nbval, compare the joined text
                found[-1] = (key, found[-1][1] + out["text"])
            else:
                found.append((key, out["text"]))
        elif out["output_type"] in ("display_data", "execute_result"):
            for mime in COMPARED:
                if mime in out.get("data", {}) and "application/vnd.jupyter.widget-view+json" not in out["data"]:
                    found.append((mime, out["data"][mime]))
        elif out["output_type"] == "error":
            found.append(("error", out["ename"]))
    return found


def _widget_states(nb: nbformat.NotebookNode) -> list[str]:
    """Every widget model stored in the notebook's metadata, as sorted JSON with model ids blanked."""
    state = nb.metadata.get("widgets", {}).get(STATE_MIME, {}).get("state", {})
    return sorted(re.sub(r"IPY_MODEL_[0-9a-f]+", "IPY_MODEL_*", json.dumps(m, sort_keys=True)) for m in state.values())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_second_execution_is_byte_identical(path: Path) -> None:
    committed = nbformat.read(path, as_version=4)
    fresh = copy.deepcopy(committed)
    NotebookClient(fresh, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(BOOK)}}).execute()
    for i, (a, b) in enumerate(zip(committed.cells, fresh.cells, strict=True)):
        if a.cell_type != "code" or a.source.lstrip().startswith("# NBVAL_IGNORE_OUTPUT"):
            continue
        assert _outputs(a) == _outputs(b), f"{path.name}, cell {i}: outputs differ between two executions"
    assert _widget_states(committed) == _widget_states(fresh), (
        f"{path.name}: the widget state stored in the notebook differs from a fresh execution's; the site "
        f"would publish the stale one: re-execute it (make execute NB=book/{path.name})")
