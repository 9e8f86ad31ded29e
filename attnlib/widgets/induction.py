"""The widget "Watch an induction head form" of "Two layers that compose": the reader sets the layers, the
heads, d_model, the vocabulary, the context, the range of repeat lengths, the batch, the learning rate, the
steps and the seed, and the page trains the chapter's attention-only model in float64 with Adam, drawing the
losses on the two copies, each head's scores and its attention pattern as it learns. Its ES module
(``trainer_core.js`` + ``induction_core.js`` + ``trainer_page.js`` + ``induction.js``) repeats :mod:`attnlib.companions.induction`
line for line, so the page's numbers are Python's: ``numbers()`` is that Python run for the widget's settings.

Chapter: "Two layers that compose" (book/20_induction_heads.ipynb).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import traitlets

from ..companions import induction
from .learned import _LearnedWidget
from .sliders import _HERE, _es_module
from .trainer import _worker_source


def _induction_source() -> str:
    """``INDUCTION_CORE_SOURCE``: the text of induction_core.js, which the page's Web Worker runs after trainer_core.js."""
    return f"const INDUCTION_CORE_SOURCE = {json.dumps((_HERE / 'induction_core.js').read_text(encoding='utf-8'))};"


class WatchInduction(_LearnedWidget):
    """Train the chapter's induction model in the page. ``settings`` (synced) are the reader's settings
    (``attnlib.companions.induction.DEFAULTS`` completed by the given ones; the page writes them back when it
    trains); ``result`` (synced) is what the page trained last; ``numbers()`` trains the same run in Python
    (``attnlib.companions.induction.train``). Used in: "Two layers that compose".
    """

    _esm = "\n".join((_es_module("trainer_core.js"), (_HERE / "induction_core.js").read_text(encoding="utf-8"),
                      _worker_source(), _induction_source(),
                      *((_HERE / f).read_text(encoding="utf-8") for f in ("trainer_page.js", "line_chart.js", "induction.js"))))
    _css = "\n".join((_LearnedWidget._css, *((_HERE / f).read_text(encoding="utf-8") for f in ("trainer.css", "induction.css"))))
    settings = traitlets.Dict().tag(sync=True)
    defaults = traitlets.Dict().tag(sync=True)
    limits = traitlets.Dict().tag(sync=True)
    result = traitlets.Dict().tag(sync=True)

    def __init__(self, settings: Mapping[str, Any] | None = None) -> None:
        super().__init__(settings=induction.check_settings(dict(settings or {})), defaults=induction.check_settings({}),
                         limits={k: list(v) for k, v in induction.LIMITS.items()})

    @traitlets.validate("settings")
    def _check(self, proposal: dict[str, Any]) -> dict[str, Any]:
        return induction.check_settings(proposal["value"])

    def __repr__(self) -> str:
        s = self.settings
        return f"WatchInduction(layers={s['layers']}, heads={s['heads']}, d_model={s['d_model']}, lr={s['lr']}, steps={s['steps']}, seed={s['seed']})"

    def numbers(self) -> dict[str, Any]:
        """The run the page trains for these settings, in Python: the losses and scores at every step, the
        final weights, and why it stopped early (``None`` if it did not)."""
        run = induction.train(self.settings)
        return {"losses": run.losses, "second": run.second, "first": run.first, "prefix": [p.tolist() for p in run.prefix],
                "previous": [p.tolist() for p in run.previous], "weights": run.weights, "stopped": run.stopped, "step": run.step}
