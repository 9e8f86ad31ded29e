"""The nbval setup really checks: a changed printed number, or a notebook saved without outputs,
makes the run fail, and so do a changed figure and a stale widget state (compared by
tests/nbval_report.py). Runs nbval in a subprocess on a temporary copy of a chapter."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.nbval_report import stored_widget_state

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "book" / "04_magnitude.ipynb"


def _nbval(nb: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.nbval_report", "--nbval", "--nbval-current-env",
         "--nbval-sanitize-with", str(ROOT / "tests" / "nbval_sanitize.cfg"), "-p", "no:cacheprovider",
         "--rootdir", str(nb.parent), *extra, str(nb)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )


def _copy(tmp_path: Path) -> tuple[Path, dict]:
    dst = tmp_path / CHAPTER.name
    shutil.copy(CHAPTER, dst)
    return dst, json.loads(dst.read_text(encoding="utf-8"))


def test_unchanged_chapter_passes(tmp_path: Path) -> None:
    nb, _ = _copy(tmp_path)
    res = _nbval(nb)
    assert res.returncode == 0, res.stdout[-2000:]
    assert "compared the stored outputs of" in res.stdout


def test_cells_are_counted_on_xdist_workers(tmp_path: Path) -> None:
    """make test runs nbval on two xdist workers: the controller, which never collects a cell,
    must still count the compared ones (and a cleared notebook must still fail there)."""
    nb, _ = _copy(tmp_path)
    res = _nbval(nb, "-n", "2", "--dist", "loadscope")
    assert res.returncode == 0, res.stdout[-2000:]
    counted = re.search(r"compared the stored outputs of (\d+) of (\d+) checkable cells", res.stdout)
    assert counted and 0 < int(counted.group(1)) == int(counted.group(2)), res.stdout[-2000:]


def test_edited_number_fails(tmp_path: Path) -> None:
    nb, data = _copy(tmp_path)
    for cell in data["cells"]:
        for out in cell.get("outputs", []):
            text = "".join(out.get("text", ""))
            if "15.0" in text:
                out["text"] = text.replace("15.0", "16.0", 1)
                break
        else:
            continue
        break
    else:
        raise AssertionError("the chapter no longer prints 15.0; update this test")
    nb.write_text(json.dumps(data), encoding="utf-8")
    res = _nbval(nb)
    assert res.returncode != 0, "nbval accepted an edited number"


def test_cleared_outputs_fail(tmp_path: Path) -> None:
    nb, data = _copy(tmp_path)
    for cell in data["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    nb.write_text(json.dumps(data), encoding="utf-8")
    res = _nbval(nb)
    assert res.returncode != 0, "nbval passed a notebook with no stored outputs"
    assert "no cell output was compared" in res.stdout


def test_changed_figure_fails(tmp_path: Path) -> None:
    """nbval skips image/png; the plugin compares every figure byte for byte."""
    nb, data = _copy(tmp_path)
    figures = [out for cell in data["cells"] for out in cell.get("outputs", []) if "image/png" in out.get("data", {})]
    assert figures, "the chapter draws no figure; pick another chapter for this test"
    png = "".join(figures[0]["data"]["image/png"].split())
    figures[0]["data"]["image/png"] = png[:-8] + ("A" * 8 if png[-8:] != "A" * 8 else "B" * 8)
    nb.write_text(json.dumps(data), encoding="utf-8")
    res = _nbval(nb)
    assert res.returncode != 0, "a changed figure passed"
    assert "figure(s) differ from the stored ones" in res.stdout, res.stdout[-2000:]


WIDGET_CHAPTER = ROOT / "book" / "05_softmax.ipynb"


def test_the_widget_chapters_store_their_state() -> None:
    with_state = {p.name for p in sorted((ROOT / "book").glob("*.ipynb"))
                  if stored_widget_state(json.loads(p.read_text(encoding="utf-8")))}
    assert {"05_softmax.ipynb", "15_playground.ipynb", "17_learning.ipynb"} <= with_state, sorted(with_state)


def test_stale_widget_state_fails(tmp_path: Path) -> None:
    """nbval never sees widget state; the plugin compares it, read from nbval's kernel after the last
    cell. A stored state that this execution does not make (a widget's .js or numbers changed and the
    chapter was not re-executed) fails; the unchanged chapter passes (test_unchanged_chapter_passes
    and make test's nbval run)."""
    nb = tmp_path / WIDGET_CHAPTER.name
    data = json.loads(WIDGET_CHAPTER.read_text(encoding="utf-8"))
    models = stored_widget_state(data)
    anywidget = next(m for m in models.values() if "_esm" in m["state"])
    anywidget["state"]["_esm"] += "\n// an older build of the widget"
    nb.write_text(json.dumps(data), encoding="utf-8")
    res = _nbval(nb)
    assert res.returncode != 0, "a stale widget state passed"
    assert "widget state stored in the notebook differs" in res.stdout, res.stdout[-2000:]
