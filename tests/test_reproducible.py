"""The widget state stored in a chapter is what a fresh execution stores.

The site is built from the committed notebooks without executing them, and the widget state in a
notebook's metadata (every slider's numbers and its ES module) is what the static page runs. nbval
re-executes every chapter in ``make test`` and compares its printed outputs, and ``tests/nbval_report.py``
its figures byte for byte; but nbval never sees widget state. So the chapters that store one are
executed once more here, from a clean kernel, and their stored state must equal the fresh one (model
ids aside). A stale state (say, a widget's .js changed and the chapter was not re-executed) fails.
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
STATE_MIME = "application/vnd.jupyter.widget-state+json"


def _widget_states(nb: nbformat.NotebookNode) -> list[str]:
    """Every widget model stored in the notebook's metadata, as sorted JSON with model ids blanked."""
    state = nb.metadata.get("widgets", {}).get(STATE_MIME, {}).get("state", {})
    return sorted(re.sub(r"IPY_MODEL_[0-9a-f]+", "IPY_MODEL_*", json.dumps(m, sort_keys=True)) for m in state.values())


WITH_WIDGETS = [p for p in sorted(BOOK.glob("*.ipynb")) if _widget_states(nbformat.read(p, as_version=4))]


def test_the_widget_chapters_store_their_state() -> None:
    names = {p.name for p in WITH_WIDGETS}
    assert {"05_softmax.ipynb", "15_playground.ipynb", "17_learning.ipynb"} <= names, sorted(names)


@pytest.mark.parametrize("path", WITH_WIDGETS, ids=lambda p: p.name)
def test_stored_widget_state_equals_a_fresh_execution(path: Path) -> None:
    committed = nbformat.read(path, as_version=4)
    fresh = copy.deepcopy(committed)
    NotebookClient(fresh, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(BOOK)}}).execute()
    assert _widget_states(committed) == _widget_states(fresh), (
        f"{path.name}: the widget state stored in the notebook differs from a fresh execution's; the site "
        f"would publish the stale one: re-execute it (make execute NB=book/{path.name})")
