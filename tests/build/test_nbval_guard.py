"""The nbval setup really checks: a changed printed number, a moved line in a figure, a changed widget
number and a stale widget state (the last three compared by tests/nbval_report.py) each fail the cell
or notebook they are in, while an unchanged copy of the same notebook passes beside them, and so do
copies whose figure or widget numbers differ only at rounding level; and a notebook saved without
outputs fails the whole run.

The copies are of one small notebook written here (:data:`GUARD_CELLS`): it prints numbers, draws a
matplotlib figure and shows an anywidget slider, the three kinds of output a chapter stores, and is
executed once, as ``make execute`` executes a chapter (tools.execute), to store its outputs and widget
state. What is guarded is the comparison (nbval with tests/nbval_report.py), which is the same for
any notebook; that every real chapter passes it is ``make test``'s own nbval run, and that the widget
chapters store a state is :func:`test_the_widget_chapters_store_their_state`. (Until session 11 the
copies were of chapters 04 and 05: eight kernels importing torch and running a chapter each, about
85 s of one worker on a loaded machine; see docs/notes/TEST_TIME.md.)

nbval runs in a subprocess on temporary copies. The eight copies of the first kind are checked in ONE
run, on two xdist workers as in ``make test`` (which also shows that the controller, which never
collects a cell itself, counts the cells its workers compared); each test below reads that run's
JUnit report for its own copy. One pytest start and one kernel per copy, instead of a run per case,
is what keeps this guard cheap."""

from __future__ import annotations

import base64
import io
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import matplotlib.image
import nbformat
import numpy as np
import pytest

from tests.nbval_report import stored_widget_state
from tools.execute import execute

ROOT = Path(__file__).resolve().parents[2]

# The notebook every copy is made from: twelve code cells, each with a stored output. Cheap on purpose
# (numpy, matplotlib and anywidget; no torch): a kernel per copy starts and runs it in about a second.
GUARD_CELLS = [
    "import anywidget\nimport matplotlib.pyplot as plt\nimport numpy as np\nimport traitlets\nprint('ready')",
    "x = np.linspace(0.0, 3.0, 7)\nprint(np.round(x, 2))",
    "print(f'{5.0 * 3:.1f} words in all')  # prints 15.0",
    "rng = np.random.default_rng(0)\nprint(np.round(rng.standard_normal(4), 3))",
    "fig, ax = plt.subplots(figsize=(3, 2), dpi=60)\nax.plot(x, np.sin(x), lw=2)\nax.bar([1, 2], [0.5, 0.8])\n"
    "plt.show()",
    "print(sum(range(10)))",
    "print('scores', [round(v, 2) for v in (2.0, 1.0, 0.1, -1.0)])",
    "w = np.exp([2.0, 1.0, 0.1, -1.0])\nprint(np.round(w / w.sum(), 4))",
    "for step in range(3):\n    print(f'step {step}: {step ** 2 / 3:.3f}')",
    "print('the sense is river')",
    "class Slider(anywidget.AnyWidget):\n"
    "    _esm = 'export default { render({ model, el }) { el.textContent = model.get(\"temperature\"); } };'\n"
    "    temperature = traitlets.Float(1.25).tag(sync=True)\n"
    "    scores = traitlets.List([2.0, 1.0, 0.1, -1.0]).tag(sync=True)\n\n\n"
    "slider = Slider()\nslider",
    "print(f'temperature {slider.temperature:.2f}')",
]


def guard_notebook(folder: Path) -> dict:
    """:data:`GUARD_CELLS` executed from a clean kernel with tools.execute, as a chapter is; its JSON."""
    path = folder / "guard_source.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in GUARD_CELLS])
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, path)
    execute(path, timeout=120)
    data = json.loads(path.read_text(encoding="utf-8"))
    path.unlink()  # not one of the copies the guard checks
    return data


@pytest.fixture(scope="module")
def source_notebook(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return guard_notebook(tmp_path_factory.mktemp("nbval-guard-source"))


def _nbval(path: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.nbval_report", "--nbval", "--nbval-current-env",
         "--nbval-sanitize-with", str(ROOT / "tests" / "nbval_sanitize.cfg"), "-p", "no:cacheprovider",
         "--rootdir", str(path if path.is_dir() else path.parent), *extra, str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )


def _chapter(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _edit_a_number(data: dict, new: str = "15.2") -> dict:
    """The first printed 15.0 as ``new``: 15.2 is two units of its last digit away (a real change),
    15.1 one unit (another CPU's rounding on a boundary)."""
    for cell in data["cells"]:
        for out in cell.get("outputs", []):
            text = "".join(out.get("text", ""))
            if "15.0" in text:
                out["text"] = text.replace("15.0", new, 1)
                return data
    raise AssertionError("the guard notebook no longer prints 15.0; update GUARD_CELLS")


def _first_figure(data: dict) -> dict:
    figures = [out for cell in data["cells"] for out in cell.get("outputs", []) if "image/png" in out.get("data", {})]
    assert figures, "the guard notebook draws no figure; update GUARD_CELLS"
    return figures[0]["data"]


def _redraw(data: dict, change) -> dict:  # noqa: ANN001
    """The first figure decoded, changed by ``change(pixels)`` and stored again as PNG."""
    figure = _first_figure(data)
    pixels = matplotlib.image.imread(io.BytesIO(base64.b64decode("".join(figure["image/png"].split()))), format="png")
    out = io.BytesIO()
    matplotlib.image.imsave(out, np.clip(change(pixels.copy()), 0, 1), format="png")
    figure["image/png"] = base64.b64encode(out.getvalue()).decode()
    return data


def _move_a_line(data: dict) -> dict:
    """A real change: the figure's content moved two pixels to the right (as a moved line or bar)."""
    return _redraw(data, lambda px: np.roll(px, 2, axis=1))


def _blur_the_last_digits(data: dict) -> dict:
    """Not a change a reader sees: a few pixels one level (1/255) off, as antialiasing of another
    CPU's last float digits does."""
    def nudge(px: np.ndarray) -> np.ndarray:
        px[::37, ::29, :3] += 1 / 255
        return px
    return _redraw(data, nudge)


def _age_the_widget_state(data: dict) -> dict:
    """A stored state that this execution does not make: a widget's .js changed and the chapter was
    not re-executed."""
    models = stored_widget_state(data)
    anywidget = next(m for m in models.values() if "_esm" in m["state"])
    anywidget["state"]["_esm"] += "\n// an older build of the widget"
    return data


def _scale_a_widget_number(data: dict, factor: float) -> dict:
    """Every float in the first slider's stored numbers times ``factor``."""
    def scale(x):  # noqa: ANN001, ANN202
        if isinstance(x, float):
            return x * factor
        if isinstance(x, list):
            return [scale(y) for y in x]
        if isinstance(x, dict):
            return {k: scale(v) for k, v in x.items()}
        return x
    model = next(m for m in stored_widget_state(data).values() if "_esm" in m["state"])
    floats = {k: v for k, v in model["state"].items() if not k.startswith("_") and scale(v) != v}
    assert floats, "the guard notebook's slider stores no float; update GUARD_CELLS"
    model["state"].update(scale(floats))
    return data


@dataclass
class GuardRun:
    """The one nbval run over the four copies: its output and, per copy, the messages of its failed
    or erroring test reports (``problems["edited"]``), and its number of reports."""

    stdout: str
    problems: dict[str, list[str]]
    reports: dict[str, int]


@pytest.fixture(scope="module")
def guard_run(tmp_path_factory: pytest.TempPathFactory, source_notebook: dict) -> GuardRun:
    folder = tmp_path_factory.mktemp("nbval-guard")

    def copy() -> dict:
        return json.loads(json.dumps(source_notebook))

    copies = {
        "unchanged": copy(),
        "edited": _edit_a_number(copy()),
        "last_digit": _edit_a_number(copy(), "15.1"),
        "figure": _move_a_line(copy()),
        "figure_digits": _blur_the_last_digits(copy()),
        "stale_widget": _age_the_widget_state(copy()),
        "widget_number": _scale_a_widget_number(copy(), 1 + 1e-3),
        "widget_digits": _scale_a_widget_number(copy(), 1 + 1e-9),
    }
    for name, data in copies.items():
        (folder / f"{name}.ipynb").write_text(json.dumps(data), encoding="utf-8")
    junit = folder / "report.xml"
    res = _nbval(folder, "-n", "2", "--dist", "loadscope", f"--junitxml={junit}")
    assert junit.exists(), res.stdout[-3000:] + res.stderr[-2000:]
    problems: dict[str, list[str]] = {name: [] for name in copies}
    reports = dict.fromkeys(copies, 0)
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = case.get("classname", "").rsplit(".ipynb", 1)[0].rsplit(".", 1)[-1]
        assert name in copies, f"a report for an unknown notebook: {case.attrib}"
        reports[name] += 1
        problems[name] += [f"{case.get('name')}: {bad.get('message', '')} {bad.text or ''}"
                           for bad in case if bad.tag in ("failure", "error")]
    return GuardRun(res.stdout, problems, reports)


def test_unchanged_chapter_passes(guard_run: GuardRun) -> None:
    """The control: every cell of the untouched copy passes in the same run as the broken ones."""
    assert guard_run.reports["unchanged"] >= 10, guard_run.stdout[-2000:]
    assert guard_run.problems["unchanged"] == [], guard_run.problems["unchanged"]


@pytest.mark.parametrize("copy", ["figure_digits", "widget_digits", "last_digit"])
def test_differences_at_rounding_level_pass(guard_run: GuardRun, copy: str) -> None:
    """Another CPU's last digits: a figure a few pixels one level off, widget numbers off by 1e-9, a
    printed 15.0 that comes out 15.1 (a rounding on a boundary flipped)."""
    assert guard_run.reports[copy] >= 10 and guard_run.problems[copy] == [], guard_run.problems[copy]


def test_a_changed_widget_number_fails(guard_run: GuardRun) -> None:
    problems = guard_run.problems["widget_number"]
    assert len(problems) == 1 and "widget state stored in the notebook differs" in problems[0], guard_run.problems


def test_cells_are_counted_on_xdist_workers(guard_run: GuardRun) -> None:
    """make test runs nbval on two xdist workers: the controller must still count the compared cells.
    Of the four copies' checkable cells, exactly the two whose output was changed (a number, a
    figure) were not compared successfully; the stale widget state fails after the last cell."""
    counted = re.search(r"compared the stored outputs of (\d+) of (\d+) checkable cells", guard_run.stdout)
    assert counted, guard_run.stdout[-2000:]
    compared, checkable = int(counted.group(1)), int(counted.group(2))
    failed_cells = len(guard_run.problems["edited"]) + len(guard_run.problems["figure"])
    assert compared > 0 and failed_cells == 2 and checkable - compared == failed_cells, (
        compared, checkable, guard_run.problems)


def test_edited_number_fails(guard_run: GuardRun) -> None:
    """15.0 printed as 15.2, two units of its last digit: a change, not a rounding."""
    assert len(guard_run.problems["edited"]) == 1, f"nbval accepted an edited number: {guard_run.problems}"
    assert "15.2" in guard_run.problems["edited"][0]


@pytest.mark.parametrize(("stored", "fresh", "same"), [
    ("training loss 0.0378", "training loss 0.0379", True),      # one unit: a flipped rounding
    ("loss 0.0380, 2.5e-03", "loss 0.0379, 2.6e-03", True),      # one unit each, across a carry
    ("w = -0.000", "w = 0.000", True),                          # the sign of a rounded zero
    ("training loss 0.0378", "training loss 0.0380", False),     # two units
    ("p = 1.00", "p = 0.99", True),
    ("p = 1.00", "p = 0.98", False),
    ("p = 0.50", "p = 0.5", False),                             # printed to another precision
    ("accuracy 0.95 on 40 sentences", "accuracy 0.95 on 41 sentences", False),  # an integer off by one
    ("the sense is river", "the sense is money", False),        # a changed word
    ("scores 0.12 0.88", "scores 0.12", False),                 # a missing number
    ("scores 0.12 0.88", "scores 0.120.88", False),
    ("step 3: 7 of 9", "step 3: 7 of 9", True),
])
def test_printed_numbers_may_differ_by_one_unit_of_their_last_digit(stored: str, fresh: str, same: bool) -> None:
    from tests.nbval_report import PrintedText, same_printed

    assert same_printed(stored, fresh) is same
    assert (PrintedText(stored) != PrintedText(fresh)) is not same  # the comparison nbval makes


def test_changed_figure_fails(guard_run: GuardRun) -> None:
    assert len(guard_run.problems["figure"]) == 1, f"a moved line passed: {guard_run.problems}"
    assert "RMS pixel difference" in guard_run.problems["figure"][0]


def test_the_widget_chapters_store_their_state() -> None:
    with_state = {p.name for p in sorted((ROOT / "book").glob("*.ipynb")) if stored_widget_state(_chapter(p))}
    assert {"05_softmax.ipynb", "06_scaling.ipynb", "17_learning.ipynb"} <= with_state, sorted(with_state)


def test_stale_widget_state_fails(guard_run: GuardRun) -> None:
    """nbval never sees widget state; the plugin compares it, read from nbval's kernel after the last
    cell, and fails that cell's teardown (make test's nbval run shows the unchanged chapters pass)."""
    problems = guard_run.problems["stale_widget"]
    assert len(problems) == 1, f"a stale widget state passed: {guard_run.problems}"
    assert "widget state stored in the notebook differs" in problems[0]


def test_cleared_outputs_fail(tmp_path: Path, source_notebook: dict) -> None:
    """Its own run: nbval passes a cell with no stored output, so only the plugin's count of compared
    cells (zero here) can fail a run of notebooks saved without outputs."""
    data = json.loads(json.dumps(source_notebook))
    for cell in data["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    nb = tmp_path / "cleared.ipynb"
    nb.write_text(json.dumps(data), encoding="utf-8")
    res = _nbval(nb)
    assert res.returncode != 0, "nbval passed a notebook with no stored outputs"
    assert "no cell output was compared" in res.stdout


def test_packed_weights_are_compared_by_the_norm_of_their_difference() -> None:
    """Chapter 20's widget packs its float32 weights into one string: another CPU's training (0.27 %
    away) passes, a model trained differently (10 steps fewer: 2.2 %) or shaped differently fails."""
    from attnlib.widgets.writer import unpack_weights
    from tests.nbval_report import PACKED_RTOL, same_numbers, widget_states_parsed

    nb = json.loads((ROOT / "book" / "19_a_model_that_writes.ipynb").read_text(encoding="utf-8"))
    stored = stored_widget_state(nb)
    mid, model = next((k, m) for k, m in stored.items() if "shapes" in m["state"])
    arrays = unpack_weights(model["state"]["weights"], model["state"]["shapes"])
    rng = np.random.default_rng(0)

    def moved(share: float, shapes: list | None = None) -> dict:
        flat = np.concatenate([a.ravel() for a in arrays.values()])
        noise = rng.standard_normal(flat.shape)
        flat = flat + share * np.linalg.norm(flat) * noise / np.linalg.norm(noise)
        blob = base64.b64encode(flat.astype("<f4").tobytes()).decode("ascii")
        state = {**model["state"], "weights": blob, "shapes": shapes or model["state"]["shapes"]}
        return {**stored, mid: {**model, "state": state}}

    same = widget_states_parsed(stored)
    assert same_numbers(widget_states_parsed(moved(0.3 * PACKED_RTOL)), same)
    assert not same_numbers(widget_states_parsed(moved(2 * PACKED_RTOL)), same)
    reshaped = [[n, list(reversed(s))] for n, s in model["state"]["shapes"]]
    assert not same_numbers(widget_states_parsed(moved(0.0, reshaped)), same)

