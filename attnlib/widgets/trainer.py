"""The widget "Train it yourself" of "Attention that learns": the reader changes the data (senses, cue
words, ambiguous words, training sentences, sentences of their own) and the model and training (d_model,
learning rate, weight decay, steps, seed), and the page trains the bank/river model in float64 with
full-batch Adam, drawing the loss, the held-out accuracy and the watched sentence's attention row as it
learns. Its ES module (``trainer_core.js`` + ``trainer_page.js`` + ``trainer.js``) repeats :mod:`attnlib.companions.trainer` line for line,
so the page's numbers are Python's: ``numbers()`` is that Python run for the widget's settings.

Chapter: "Attention that learns" (book/17_learning.ipynb).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import traitlets

from ..companions import learning, trainer
from .learned import _LearnedWidget
from .sliders import _HERE, _es_module


def _worker_source() -> str:
    """``TRAINER_CORE_SOURCE``: the text of trainer_core.js, from which the page makes its Web Worker."""
    return f"const TRAINER_CORE_SOURCE = {json.dumps((_HERE / 'trainer_core.js').read_text(encoding='utf-8'))};"


class TrainItYourself(_LearnedWidget):
    """Train the sense model in the page. ``settings`` (synced) are the reader's data and settings
    (``attnlib.companions.trainer.DEFAULTS`` completed by the given ones; the page writes them back when it trains);
    ``result`` (synced) is what the page trained last (steps, losses, held-out accuracies, why it stopped);
    ``numbers()`` trains the same run in Python (``attnlib.companions.trainer.train``). ``ask`` is the sentence in the
    box that questions the trained model. Used in: "Attention that learns".
    """

    _esm = "\n".join((_es_module("trainer_core.js"), _worker_source(),
                      *((_HERE / f).read_text(encoding="utf-8") for f in ("trainer_page.js", "line_chart.js", "trainer.js"))))
    _css = _LearnedWidget._css + "\n" + (_HERE / "trainer.css").read_text(encoding="utf-8")
    settings = traitlets.Dict().tag(sync=True)
    defaults = traitlets.Dict().tag(sync=True)
    limits = traitlets.Dict().tag(sync=True)
    fillers = traitlets.List(traitlets.Unicode()).tag(sync=True)
    ask = traitlets.Unicode("").tag(sync=True)
    result = traitlets.Dict().tag(sync=True)

    def __init__(self, settings: Mapping[str, Any] | None = None, *, ask: str = "the fish near the bank") -> None:
        checked = trainer.check_settings(dict(settings or {}))
        trainer.make_corpus(checked)  # a clear ValueError now rather than a message in the page later
        if not isinstance(ask, str):
            raise TypeError(f"ask must be a str, got {type(ask).__name__}")
        super().__init__(settings=checked, defaults=trainer.check_settings({}),
                         limits={k: list(v) for k, v in trainer.LIMITS.items()}, fillers=list(learning.FILLERS), ask=ask)

    @traitlets.validate("settings")
    def _check(self, proposal: dict[str, Any]) -> dict[str, Any]:
        return trainer.check_settings(proposal["value"])

    def __repr__(self) -> str:
        s = self.settings
        return (f"TrainItYourself(n_train={s['n_train']}, d_model={s['d_model']}, lr={s['lr']}, "
                f"weight_decay={s['weight_decay']}, steps={s['steps']}, seed={s['seed']})")

    def numbers(self) -> dict[str, Any]:
        """The run the page trains for these settings, in Python: losses, held-out accuracies, the watched
        attention row at every step, the final weights, and why it stopped early (``None`` if it did not)."""
        run = trainer.train(self.settings)
        return {"losses": run.losses, "accuracies": run.accuracies, "rows": run.rows, "weights": run.weights,
                "stopped": run.stopped, "step": run.step, "words": learning.words_of(self.settings["watch"]),
                "senses": list(run.corpus.senses)}
