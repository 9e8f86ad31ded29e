"""Drive the "Watch an induction head form" widget of "Two layers that compose" on a built page as a reader
does (fill the fields, press Train, Stop, Continue, Reset, switch heads off, type tokens) and read what the
page trained, to compare with ``attnlib.companions.induction``. Used by tests/browser/test_induction_widget.py
and benchmarks/bench_induction.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attnlib.companions import induction
from bookdev import trainer_driver as td
from bookdev import widgets as wd

PAGE = "book/20_induction_heads.html"
FIELDS = tuple(induction.DEFAULTS)
click, state, message, wait_until_ended, set_fields = td.click, td.state, td.message, td.wait_until_ended, td.set_fields


def find(page: Any, site_url: str) -> wd.Widget:
    """Open chapter 20 and return its one WatchInduction widget."""
    return wd.the_one(wd.load_widget_page(page, site_url, PAGE), "WatchInduction", PAGE)


def fields_of(settings: dict[str, Any]) -> dict[str, str]:
    """The page's fields for ``settings``."""
    s = {**induction.DEFAULTS, **settings}
    return {k: repr(s[k]) if isinstance(s[k], float) else str(s[k]) for k in FIELDS}


def fields(w: wd.Widget) -> dict[str, str]:
    return td.field_values(w, FIELDS)


def read_run(w: wd.Widget) -> dict[str, Any] | None:
    """What the page trained: losses, scores, why it stopped, weights (float64 lists), timings."""
    return td.read_trainer(w, ("losses", "second", "first", "previous", "prefix"), ", crossedMs: (t.crossedAt || NaN) - t.startedAt")


def train(w: wd.Widget, settings: dict[str, Any], timeout_ms: float = 60_000) -> dict[str, Any] | None:
    """Fill the fields for ``settings``, press Train, wait for the end and read the run."""
    return td.train_fields(w, fields_of(settings), read_run, timeout_ms)


def compare(page: dict[str, Any] | None, ref: induction.Trainer, what: str, *, loss_rtol: float = 1e-9,
            weight_rtol: float = 1e-6, score_atol: float = 1e-6) -> dict[str, float]:
    """The page's run equals Python's: the same steps and stop; the loss at each of the first 20 steps to
    ``loss_rtol`` relative; every final weight to ``weight_rtol`` relative; every prefix-matching and
    previous-token score at every step to ``score_atol``. Returns the largest gaps seen."""
    _, lr, loss_gap = td.check_losses(page, ref, what, loss_rtol)
    score_gap = 0.0
    for name in ("prefix", "previous"):
        a, b = np.array(page[name]), np.array(getattr(ref, name)).reshape(len(lr), -1)
        score_gap = max(score_gap, float(np.abs(a - b).max()))
    assert score_gap <= score_atol, f"{what}: a head score differs by {score_gap:.2e}"
    weight_gap = td.check_weights(page, ref.weights, what, weight_rtol)
    return {"loss": loss_gap, "weights": weight_gap, "scores": score_gap}


def check_induction(w: wd.Widget) -> None:
    """The shared check of every widget page: the page opens idle with the chapter's settings, and a short run
    trained in it equals ``attnlib.companions.induction``'s (the full comparison is test_induction_widget.py)."""
    assert state(w) == "idle" and fields(w) == fields_of(w.state["settings"]), fields(w)
    small = {"steps": 5, "batch": 4, "seed": 4}
    compare(train(w, small), induction.train(small), "a short run")
    text = w.all_text()
    assert "NaN" not in text and "undefined" not in text, text[:300]
