"""pytest plugin for the nbval run: counts the notebook cells whose stored outputs were really
compared, prints the count, and fails the session when it is zero (nbval silently passes a cell
that has no stored output, so "all passed" alone proves nothing).

It also compares what nbval leaves out: the figures. nbval skips ``image/png``; here every figure a
checked cell draws must look like the stored one (the site shows the stored figures, and a figure is
as much a result as a printed number): same size, and an RMS pixel difference of at most
``FIGURE_RMS`` (matplotlib.testing.compare's measure, 0-255 scale), so that a line moved by a pixel
fails while the antialiasing of another CPU's last float digits does not. And the widget state: a
chapter that stores one in its metadata (every slider's numbers and its ES module, what the static
page runs) must store what its execution now makes; after its last cell, the widgets' state is read
from nbval's kernel and compared, model ids aside, numbers to ``STATE_RTOL`` relative or ``STATE_ATOL`` absolute
(weights packed as base64 float32 are unpacked and compared by the norm of their difference, ``PACKED_RTOL``). Both are
done on nbval's own execution, so no chapter is executed a second time for them.

Printed text is compared as nbval does, word for word, with one allowance: a number printed with a
decimal point or an exponent (``0.0378``, ``2.5e-03``) may differ by one unit in its last printed
digit (``0.0379``), because another CPU's last float digits can flip a rounding that lies on a
boundary. Integers, counts, words and the number of numbers must match exactly, and a number must be
printed to the same precision (:func:`same_printed`).

Works with pytest-xdist (``make test`` runs unit tests and nbval on two workers): a worker tags the
report of each checkable cell, and the controller, which sees every report, counts the tags.
"""

from __future__ import annotations

import base64
import io
import json
import math
import os
import re
from decimal import Decimal
from queue import Empty

import matplotlib.image
import numpy as np
import pytest
from matplotlib.testing.compare import calculate_rms
from nbval.kernel import NbvalKernelspecManager
from nbval.plugin import IPyNbCell

from bookdev import kernel_fork

#: Largest RMS difference of two figures' pixels (0-255) that still counts as the same figure.
FIGURE_RMS = 1.0
#: Packed weights (base64 float32, chapter 19's language model) agree when the norm of their difference
#: is at most this share of their norm: trained again with generic kernels (make test-portable), the
#: 400 AdamW steps end 0.27 % away from the AVX2 run (largest weight difference 3.5e-3), while training
#: 10 steps fewer ends 2.2 % away. Anything that changes the model more than a CPU does is caught.
PACKED_RTOL = 0.01
#: Numbers in the widget state agree to this relative tolerance, or to ``STATE_ATOL`` absolute: the
#: float32 weights of a model the book trains differ by up to 2.3e-5 between CPUs (generic kernels
#: against AVX-512, measured on chapter 17's 150 Adam steps), far below what a reader sees (the
#: widgets show probabilities and weights to 2 or 3 decimals).
STATE_RTOL = 1e-6
STATE_ATOL = 1e-4

_TAG = "nbval_checkable"
_compared: set[str] = set()
_comparable: set[str] = set()


#: A number printed with a decimal point or an exponent; an integer is left in the words around it.
_DECIMAL = re.compile(r"([-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+)")


def _within_last_digit(stored: str, fresh: str) -> bool:
    """Two printed decimals of the same precision that differ by at most one unit in the last digit."""
    a, b = Decimal(stored), Decimal(fresh)
    if a.as_tuple().exponent != b.as_tuple().exponent:
        return False
    return abs(a - b) <= Decimal(1).scaleb(a.as_tuple().exponent)


def same_printed(stored: str, fresh: str) -> bool:
    """``stored == fresh``, except that each number printed with a decimal point or an exponent may
    differ by one unit in its last printed digit. The words between the numbers, the integers among
    them, how many numbers there are and the precision each is printed to must all be the same."""
    if stored == fresh:
        return True
    a, b = _DECIMAL.split(stored), _DECIMAL.split(fresh)
    if len(a) != len(b):
        return False
    # re.split with one group: words at even places, the decimals between them at odd ones.
    return all(x == y if i % 2 == 0 else _within_last_digit(x, y) for i, (x, y) in enumerate(zip(a, b)))


class PrintedText(str):
    """A cell's sanitized printed text as nbval compares it (``ref != test``), equal by :func:`same_printed`."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and same_printed(str(self), str(other))

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = str.__hash__


_nbval_sanitize = IPyNbCell.sanitize


def _sanitize(self: IPyNbCell, s: object) -> object:
    s = _nbval_sanitize(self, s)
    return PrintedText(s) if isinstance(s, str) else s


# nbval compares each output's sanitized text with ``!=``; its text now compares by same_printed.
IPyNbCell.sanitize = _sanitize


def _checkable(item: pytest.Item) -> bool:
    cell = getattr(item, "cell", None)
    options = getattr(item, "options", {})
    return cell is not None and bool(cell.get("outputs")) and bool(options.get("check")) and not options.get("skip")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    outcome = yield
    if _checkable(item):
        outcome.get_result().user_properties.append((_TAG, True))


def _figures(outputs: list) -> list[str]:
    """The base64 PNG of every figure in ``outputs``, whitespace removed (nbformat may wrap it)."""
    return ["".join(out["data"]["image/png"].split()) for out in outputs
            if out.get("output_type") in ("display_data", "execute_result") and "image/png" in out.get("data", {})]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    result = yield
    if _checkable(item) and getattr(item, "test_outputs", None) is not None:
        stored, fresh = _figures(item.cell["outputs"]), _figures(item.test_outputs)
        problems = [f"{len(stored)} stored, {len(fresh)} drawn now"] if len(stored) != len(fresh) else []
        problems += [p for i, (a, b) in enumerate(zip(stored, fresh)) if (p := figure_difference(a, b, i + 1))]
        if problems:
            raise AssertionError(
                f"{item.name}: figures differ from the stored ones ({'; '.join(problems)}); "
                f"re-execute the chapter (make execute NB=...) if the change is meant")
    return result


def figure_difference(stored: str, fresh: str, number: int = 1) -> str | None:
    """Why two base64 PNGs are not the same figure (size, or RMS above ``FIGURE_RMS``), or None."""
    if stored == fresh:
        return None
    a, b = (matplotlib.image.imread(io.BytesIO(base64.b64decode(png)), format="png") for png in (stored, fresh))
    if a.shape != b.shape:
        return f"figure {number}: size {a.shape[1]}x{a.shape[0]} stored, {b.shape[1]}x{b.shape[0]} now"
    rms = calculate_rms((a * 255).round(), (b * 255).round())
    return None if rms <= FIGURE_RMS else f"figure {number}: RMS pixel difference {rms:.2f} > {FIGURE_RMS}"


STATE_MIME = "application/vnd.jupyter.widget-state+json"
# Run in the chapter's kernel after its last cell: the state of every widget it made, as a
# notebook stores it (ipywidgets' own record of its live widgets).
_READ_STATE = "import ipywidgets as _w, json as _j; print(_j.dumps(_w.Widget.get_manager_state()['state']))"


def widget_states(state: dict) -> list[str]:
    """Widget models (``model_id -> model``) as sorted JSON with the model ids blanked out (they are
    random in each execution)."""
    return sorted(re.sub(r"IPY_MODEL_[0-9a-f]+", "IPY_MODEL_*", json.dumps(m, sort_keys=True)) for m in state.values())


class _Packed:
    """Weights packed as base64 float32 (``weights`` with its ``shapes``, attnlib.widgets.writer), equal
    to other packed weights of the same shapes whose difference has a norm of at most ``PACKED_RTOL``
    of theirs."""

    def __init__(self, blob: str, shapes: list) -> None:
        from attnlib.widgets.writer import unpack_weights

        self.shapes = shapes
        self.flat = np.concatenate([a.ravel() for a in unpack_weights(blob, shapes).values()]).astype(np.float64)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Packed) or self.shapes != other.shapes:
            return False
        return bool(np.linalg.norm(self.flat - other.flat) <= PACKED_RTOL * np.linalg.norm(other.flat))

    __hash__ = None  # type: ignore[assignment]


def _unpacked(model: dict) -> dict:
    """``model`` with its packed weights, if it has any, as :class:`_Packed` (compared as numbers)."""
    st = model.get("state", {})
    if isinstance(st.get("weights"), str) and isinstance(st.get("shapes"), list):
        model = {**model, "state": {**st, "weights": _Packed(st["weights"], st["shapes"])}}
    return model


def widget_states_parsed(state: dict) -> list:
    """The models of :func:`widget_states`, parsed back, ordered by their text with every number
    blanked (so that a last-digit difference cannot reorder them), then by their full text; packed
    weights unpacked (:class:`_Packed`)."""
    models = [json.loads(m) for m in widget_states(state)]
    models = sorted(models, key=lambda m: (re.sub(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", "0", json.dumps(m, sort_keys=True)),
                                           json.dumps(m, sort_keys=True)))
    return [_unpacked(m) for m in models]


def same_numbers(a: object, b: object) -> bool:
    """``a == b`` for JSON data, except that numbers need only agree to ``STATE_RTOL`` or ``STATE_ATOL``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=STATE_RTOL, abs_tol=STATE_ATOL)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_numbers(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_numbers(x, y) for x, y in zip(a, b))
    return a == b


def stored_widget_state(nb: dict) -> dict:
    """The widget models stored in a notebook's metadata (``{}`` when it stores none)."""
    return nb.get("metadata", {}).get("widgets", {}).get(STATE_MIME, {}).get("state", {})


def _kernel_widget_state(kernel, timeout: float = 60) -> dict:  # noqa: ANN001
    """The widget models alive in nbval's kernel (``nbval.kernel.RunningKernel``)."""
    msg_id = kernel.execute_cell_input(_READ_STATE, allow_stdin=False)
    text, error = "", None
    while True:
        msg = kernel.get_message(stream="iopub", timeout=timeout)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "stream":
            text += msg["content"]["text"]
        elif msg["msg_type"] == "error":
            error = f"{msg['content']['ename']}: {msg['content']['evalue']}"
        elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    if error:
        raise AssertionError(f"reading the widget state from the kernel failed: {error}")
    return json.loads(text)


def _widget_state_problem(name: str, stored: dict, kernel) -> str | None:  # noqa: ANN001
    """Why the widget state alive in ``kernel`` is not the ``stored`` one of notebook ``name``, or
    None when it is."""
    try:
        fresh = _kernel_widget_state(kernel)
    except Empty:
        return f"{name}: the kernel did not report its widget state"
    except AssertionError as err:
        return f"{name}: {err}"
    if same_numbers(widget_states_parsed(stored), widget_states_parsed(fresh)):
        return None
    return (f"{name}: the widget state stored in the notebook differs from this execution's "
            f"({len(stored)} stored models, {len(fresh)} now); the site would publish the stale one: "
            f"re-execute it (make execute NB=book/{name})")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """After a notebook's last cell, before nbval stops its kernel: its widgets' state must equal the
    stored one. The state is read before the teardown (which stops the kernel), and any problem is
    raised after it, so that the teardown still runs and the next notebook starts clean."""
    notebook = item.parent
    kernel = getattr(notebook, "kernel", None)
    last = nextitem is None or nextitem.parent is not notebook
    stored = stored_widget_state(getattr(notebook, "nb", {})) if last and kernel is not None else {}
    problem = _widget_state_problem(notebook.name, stored, kernel) if stored and kernel.is_alive() else None
    result = yield
    if problem is not None:
        raise AssertionError(problem)
    return result


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not any(prop[0] == _TAG for prop in report.user_properties):
        return
    _comparable.add(report.nodeid)
    if report.when == "call" and report.passed:
        _compared.add(report.nodeid)


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ANN001
    terminalreporter.write_line(
        f"nbval: compared the stored outputs of {len(_compared)} of {len(_comparable)} checkable cells"
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _is_worker(session.config):  # a worker sees only its share; the controller decides
        return
    if exitstatus == 0 and not _compared:
        session.exitstatus = 1
        print("\nnbval: no cell output was compared; failing (execute the notebooks and commit outputs)")


def pytest_configure(config: pytest.Config) -> None:
    """nbval's kernels are forked from a process that imported the chapters' libraries once
    (bookdev/kernel_fork.py), unless ``BOOK_FORKED_KERNELS=0`` (make test-portable: ordinary kernels)."""
    if os.environ.get("BOOK_FORKED_KERNELS", "1") != "0":
        spec_of = NbvalKernelspecManager.get_kernel_spec
        NbvalKernelspecManager.get_kernel_spec = lambda self, name: kernel_fork.forked(spec_of(self, name))
