"""Drive the "Train it yourself" widget of "Attention that learns" on a built page as a reader does
(fill the fields, press Train, Stop, Continue, Reset) and read what the page trained (its losses,
held-out accuracies, attention rows and weights), to compare with ``attnlib.companions.trainer``.
Used by tests/browser/test_trainer_widget.py and benchmarks/bench_trainer.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from attnlib.companions import trainer
from bookdev import widgets as wd

PAGE = "book/17_learning.html"
FIELDS = ("senses", "sentences", "n_train", "n_test", "d_model", "lr", "weight_decay", "steps", "seed", "watch")
ENDED = ("done", "diverged", "stopped", "error", "idle")


def find(page: Any, site_url: str) -> wd.Widget:
    """Open chapter 17 and return its one TrainItYourself widget."""
    return wd.the_one(wd.load_widget_page(page, site_url, PAGE), "TrainItYourself", PAGE)


def fields_of(settings: dict[str, Any]) -> dict[str, str]:
    """The page's fields for ``settings`` (the twin of ``fieldsOf`` in trainer.js)."""
    s = {**trainer.DEFAULTS, **settings}
    out = {"senses": "\n".join(f"{x['word']} {x['sense']}: {' '.join(x['cues'])}" for x in s["senses"]),
           "sentences": "\n".join(f"{r['sense']} | {r['text']}" for r in s["sentences"]), "watch": s["watch"]}
    for k in ("n_train", "n_test", "d_model", "lr", "weight_decay", "steps", "seed"):
        out[k] = repr(s[k]) if isinstance(s[k], float) else str(s[k])
    return out


def set_fields(w: wd.Widget, values: dict[str, str]) -> None:
    """Write each field and fire its input event, as typing does."""
    w.page.evaluate(
        f"""(values) => {{
          const root = {w.root};
          for (const [name, value] of Object.entries(values)) {{
            const el = root.querySelector(`[data-name="${{name}}"]`);
            el.value = value;
            el.dispatchEvent(new Event("input", {{ bubbles: true }}));
          }}
        }}""",
        values,
    )


def click(w: wd.Widget, name: str) -> None:
    w.page.evaluate(f"() => {w.root}.querySelector('button[data-name=\"{name}\"]').click()")


def state(w: wd.Widget) -> str:
    return w.page.evaluate(f"() => {w.root}.dataset.state")


def wait_until_ended(w: wd.Widget, timeout_ms: float = 60_000) -> str:
    """Wait until the page is not training any more; its state (done, diverged, stopped, error)."""
    w.page.wait_for_function(f"() => {list(ENDED)}.includes({w.root}.dataset.state)", timeout=timeout_ms)
    return state(w)


def message(w: wd.Widget) -> str:
    return w.page.evaluate(f"() => {w.root}.querySelector('[data-name=\"message\"]').textContent")


def read_trainer(w: wd.Widget, series: tuple[str, ...], extra: str = "") -> dict[str, Any] | None:
    """What a training widget's page trained (this one's or "Watch an induction head form"'s): the run's
    ``series`` (its lists by name), why it stopped, its weights (float64 lists), its timings and whether a
    worker trained it; ``extra`` adds entries (JavaScript, ``, name: value`` on ``t``, the run)."""
    return w.page.evaluate(
        f"""(series) => {{
          const t = {w.root}.trainer();
          if (!t) return null;
          return {{ ...Object.fromEntries(series.map((k) => [k, t[k]])), stopped: t.stopped,
                   weights: Object.fromEntries(Object.entries(t.weights).map(([k, v]) => [k, Array.from(v)])),
                   sliceMs: t.sliceMs || [], ms: (t.finishedAt || NaN) - t.startedAt, worker: Boolean(t.worker){extra} }};
        }}""",
        list(series),
    )


def read_run(w: wd.Widget) -> dict[str, Any] | None:
    """What the page trained: losses, accuracies, rows, why it stopped, weights (float64 lists), timings."""
    return read_trainer(w, ("losses", "accuracies", "rows"), ", vocab: t.corpus.vocab")


def train_fields(w: wd.Widget, values: dict[str, str], read: Callable[[wd.Widget], dict[str, Any] | None],
                 timeout_ms: float = 60_000) -> dict[str, Any] | None:
    """Fill the fields with ``values``, press Train, wait for the end and ``read`` the run."""
    set_fields(w, values)
    click(w, "train")
    wait_until_ended(w, timeout_ms)
    return read(w)


def train(w: wd.Widget, settings: dict[str, Any], timeout_ms: float = 60_000) -> dict[str, Any] | None:
    """Fill the fields for ``settings``, press Train, wait for the end and read the run."""
    return train_fields(w, fields_of(settings), read_run, timeout_ms)


def check_losses(page: dict[str, Any] | None, ref: Any, what: str, loss_rtol: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The page's run (``read_trainer``) has the steps and the stop of Python's run ``ref``, and its loss at each
    of the first 20 steps to ``loss_rtol`` relative. Returns both losses and the largest relative gap."""
    assert page is not None, f"{what}: the page trained nothing"
    assert len(page["losses"]) == len(ref.losses), f"{what}: page {len(page['losses'])} losses, Python {len(ref.losses)}"
    assert (page["stopped"] is None) == (ref.stopped is None), (what, page["stopped"], ref.stopped)
    lp, lr = np.array(page["losses"]), np.array(ref.losses)
    loss_gap = float(np.max(np.abs(lp[:21] - lr[:21]) / np.abs(lr[:21])))
    assert loss_gap <= loss_rtol, f"{what}: loss differs by {loss_gap:.2e} relative in the first 20 steps"
    return lp, lr, loss_gap


def check_weights(page: dict[str, Any], weights: Mapping[str, np.ndarray], what: str, weight_rtol: float) -> float:
    """Every final weight of the page's run equals Python's ``weights`` to ``weight_rtol`` relative; the largest gap."""
    weight_gap = 0.0
    for name, b in weights.items():
        a = np.array(page["weights"][name]).reshape(b.shape)
        gap = np.abs(a - b) / np.where(b == 0, 1.0, np.abs(b))
        weight_gap = max(weight_gap, float(gap.max()))
        assert np.all(gap <= weight_rtol), f"{what}: {name} differs by {gap.max():.2e} relative"
    return weight_gap


def compare(page: dict[str, Any], ref: trainer.Trainer, what: str, *, loss_rtol: float = 1e-9,
            weight_rtol: float = 1e-6) -> dict[str, float]:
    """The page's run equals Python's: the same number of steps and stop; the loss at each of the first 20
    steps to ``loss_rtol`` relative; every final weight to ``weight_rtol`` relative; the same held-out
    accuracy at every step. Returns the largest relative gaps seen."""
    lp, lr, loss_gap = check_losses(page, ref, what, loss_rtol)
    assert page["accuracies"] == ref.accuracies, f"{what}: held-out accuracies differ"
    assert page["vocab"] == list(ref.corpus.vocab), what
    weight_gap = check_weights(page, {name: ref.weights[name] for name in trainer.PARAMS}, what, weight_rtol)
    return {"loss": loss_gap, "weights": weight_gap, "all_losses": float(np.max(np.abs(lp - lr) / np.abs(lr)))}


def field_values(w: wd.Widget, names: Sequence[str]) -> dict[str, str]:
    """The fields ``names`` as the page shows them now (textareas and inputs: their value)."""
    return w.page.evaluate(f"(names) => Object.fromEntries(names.map((n) => [n, {w.root}.querySelector(`[data-name=\"${{n}}\"]`).value]))",
                           list(names))


def fields(w: wd.Widget) -> dict[str, str]:
    """The fields as the page shows them now (textareas and inputs: their value)."""
    return field_values(w, FIELDS)


def check_trainer(w: wd.Widget) -> None:
    """The shared check of every widget page: the page opens idle with the chapter's settings, and a small
    run trained in it equals ``attnlib.companions.trainer``'s (the full comparison is test_trainer_widget.py)."""
    assert state(w) == "idle" and fields(w) == fields_of(w.state["settings"]), fields(w)
    small = {"n_train": 100, "n_test": 50, "steps": 10, "seed": 4}
    compare(train(w, small), trainer.train(small), "a small run")
    text = w.all_text()
    assert "NaN" not in text and "undefined" not in text, text[:300]
