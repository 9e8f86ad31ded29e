"""The book's four sliders as anywidgets: each ES module (``*.js`` next to this file) redraws in the
browser, so a slider works in a live kernel (JupyterLab, Notebook 7, VS Code, Colab) and on the
static site where no kernel runs (myst-nb embeds the widget state in the page).

The Python side gives the initial data and the seed; the state is synced (``d_k``, ``temperature``,
``dim``, ``query``, the toggles), so in a live kernel ``widget.d_k`` reads the slider back and
assigning it moves the slider. ``widget.numbers()`` computes what the widget shows with attnlib
(``attnlib.widgets.slider_math``). Out-of-range values are clamped to the slider's range; invalid
arguments raise ``ValueError`` (or ``TypeError`` for a wrong type) naming what was given.

Chapters: "Softmax" (``TemperatureSlider``), "Why divide by √d_k" (``SoftmaxSharpening``,
``DotProductSpread``), "Worked example: 'it'" (``GeometricAttention``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anywidget
import numpy as np
import traitlets

from ..companions import examples
from . import slider_math

_HERE = Path(__file__).resolve().parent


def _es_module(name: str) -> str:
    """One widget's ES module: the shared helpers (``_dom.js``, ``_common.js``) followed by the widget's file."""
    return "\n".join((_HERE / f).read_text(encoding="utf-8") for f in ("_dom.js", "_common.js", name))


def dom_helpers_js() -> str:
    """The DOM helper every page script of the book shares (``_dom.js``); attnbook's exercises put it
    before their own module."""
    return (_HERE / "_dom.js").read_text(encoding="utf-8")


def _labels(labels: Sequence[str] | None, n: int, prefix: str) -> list[str]:
    if labels is None:
        return [f"{prefix}{i + 1}" for i in range(n)]
    if isinstance(labels, str) or len(labels) != n or not all(isinstance(x, str) for x in labels):
        raise ValueError(f"labels must be {n} strings (one per score), got {labels!r}")
    return list(labels)


class _Slider(anywidget.AnyWidget):
    """Common base: the card style and a short, stable text repr (the notebook's text/plain)."""

    _css = (_HERE / "widgets.css").read_text(encoding="utf-8")
    _limits = traitlets.Dict().tag(sync=True)  # slider ranges, read by the ES module
    _repr_traits: tuple[str, ...] = ()

    def __repr__(self) -> str:
        args = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._repr_traits)
        return f"{type(self).__name__}({args})"


class SoftmaxSharpening(_Slider):
    """A d_k slider (log scale, 1 to 1024) over the softmax of raw scores ``q·k``: bars of the weights
    without and (toggle) with the division by ``√d_k``, with the largest weight and the entropy.

    The scores are those of a seeded random query against ``n_keys`` seeded random keys of dimension
    ``d_k`` (``slider_math.sharpening_scores``), or the given ``scores`` (then fixed; only the division
    by ``√d_k`` changes). Used in: "Why divide by √d_k".
    """

    _esm = _es_module("sharpening.js")
    d_k = traitlets.Int(64).tag(sync=True)
    seed = traitlets.Int(0).tag(sync=True)
    n_keys = traitlets.Int(8).tag(sync=True)
    scores = traitlets.List(traitlets.Float()).tag(sync=True)
    labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    show_scaled = traitlets.Bool(True).tag(sync=True)
    _repr_traits = ("d_k", "seed", "n_keys", "show_scaled")

    def __init__(
        self,
        d_k: int = 64,
        *,
        seed: int = 0,
        n_keys: int = 8,
        scores: Sequence[float] | None = None,
        labels: Sequence[str] | None = None,
        show_scaled: bool = True,
    ) -> None:
        d_k = slider_math.clamp_int(d_k, *slider_math.D_K_RANGE, "d_k")
        seed = slider_math.check_seed(seed)
        raw: list[float] = []
        if scores is not None:
            raw = slider_math.as_float_vector(scores, "scores", min_len=2, max_len=slider_math.MAX_SCORES).tolist()
            n_keys = len(raw)
        elif isinstance(n_keys, bool) or not isinstance(n_keys, int) or not 2 <= n_keys <= slider_math.MAX_SCORES:
            raise ValueError(f"n_keys must be an int from 2 to {slider_math.MAX_SCORES}, got {n_keys!r}")
        super().__init__(
            d_k=d_k, seed=seed, n_keys=n_keys, scores=raw, labels=_labels(labels, n_keys, "k"),
            show_scaled=bool(show_scaled),
            _limits={"d_k": [*slider_math.D_K_RANGE, slider_math.D_K_STEPS]},
        )

    @traitlets.validate("d_k")
    def _clamp_d_k(self, proposal: dict[str, Any]) -> int:
        return slider_math.clamp_int(proposal["value"], *slider_math.D_K_RANGE, "d_k")

    def numbers(self) -> dict[str, Any]:
        """What the widget shows now (``slider_math.sharpening_numbers`` for the current state)."""
        return slider_math.sharpening_numbers(
            self.d_k, seed=self.seed, n_keys=self.n_keys, scores=self.scores or None
        )


def _it_scores() -> tuple[list[float], list[str]]:
    """Document 004's "it" example: the scaled scores ``K q / √2`` of the three keys."""
    k = examples.IT_KEYS.double().numpy()  # (3, 2)
    q = examples.IT_QUERY.double().numpy()  # (2,)
    return (k @ q / math.sqrt(k.shape[1])).tolist(), list(examples.IT_WORDS)  # (3,)


class TemperatureSlider(_Slider):
    """A temperature slider (log scale, 0.1 to 10) over ``softmax(scores / T)``: bars of the weights,
    the largest weight and the entropy. The default scores are document 004's "it" example after
    the division by √2, so ``T = 1`` shows the weights of that example.
    Used in: "Softmax".
    """

    _esm = _es_module("temperature.js")
    temperature = traitlets.Float(1.0).tag(sync=True)
    scores = traitlets.List(traitlets.Float()).tag(sync=True)
    labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _repr_traits = ("temperature",)

    def __init__(
        self,
        scores: Sequence[float] | None = None,
        *,
        temperature: float = 1.0,
        labels: Sequence[str] | None = None,
    ) -> None:
        if scores is None:
            scores, default_labels = _it_scores()
            labels = default_labels if labels is None else labels
        raw = slider_math.as_float_vector(scores, "scores", min_len=2, max_len=slider_math.MAX_SCORES)
        super().__init__(
            scores=raw.tolist(), labels=_labels(labels, raw.shape[0], "s"),
            temperature=slider_math.clamp_temperature(temperature),
            _limits={"temperature": [*slider_math.TEMPERATURE_RANGE, slider_math.TEMPERATURE_STEPS]},
        )

    @traitlets.validate("temperature")
    def _clamp_temperature(self, proposal: dict[str, Any]) -> float:
        return slider_math.clamp_temperature(proposal["value"])

    def __repr__(self) -> str:
        return f"TemperatureSlider(temperature={self.temperature:.3f}, n_scores={len(self.scores)})"

    def numbers(self) -> dict[str, Any]:
        """What the widget shows now (``slider_math.temperature_numbers``)."""
        return slider_math.temperature_numbers(self.scores, self.temperature)


class DotProductSpread(_Slider):
    """A dimension slider (log scale, 1 to 1000) over the histogram of 1000 dot products of seeded
    random Gaussian pairs, with their mean and variance; a toggle divides them by ``√d``.
    Used in: "Why divide by √d_k".
    """

    _esm = _es_module("spread.js")
    dim = traitlets.Int(100).tag(sync=True)
    seed = traitlets.Int(0).tag(sync=True)
    scaled = traitlets.Bool(False).tag(sync=True)
    _repr_traits = ("dim", "seed", "scaled")

    def __init__(self, dim: int = 100, *, seed: int = 0, scaled: bool = False) -> None:
        super().__init__(
            dim=slider_math.clamp_int(dim, *slider_math.DIM_RANGE, "dim"), seed=slider_math.check_seed(seed),
            scaled=bool(scaled),
            _limits={
                "dim": [*slider_math.DIM_RANGE, slider_math.DIM_STEPS], "n_pairs": slider_math.N_PAIRS, "bins": slider_math.HIST_BINS,
                "half_width": slider_math.HIST_HALF_WIDTH[False], "half_width_scaled": slider_math.HIST_HALF_WIDTH[True],
            },
        )

    @traitlets.validate("dim")
    def _clamp_dim(self, proposal: dict[str, Any]) -> int:
        return slider_math.clamp_int(proposal["value"], *slider_math.DIM_RANGE, "dim")

    def numbers(self) -> dict[str, Any]:
        """What the widget shows now (``slider_math.spread_numbers``)."""
        return slider_math.spread_numbers(self.dim, seed=self.seed, scaled=self.scaled)


class GeometricAttention(_Slider):
    """Drag a 2-d query against fixed keys and values (default: document 004's "it" example,
    ``attnlib.companions.examples.IT_KEYS``/``IT_VALUES``/``IT_WORDS``). The scores, the weights
    ``softmax(q·k / √2)`` and the context vector update live; the context is drawn in value space.
    Two labelled sliders move the query too (keyboard access).
    Used in: "Worked example: 'it'".
    """

    _esm = _es_module("geometric.js")
    query = traitlets.List(traitlets.Float(), minlen=2, maxlen=2).tag(sync=True)
    # not "keys"/"values": ipywidgets.Widget already has a trait named "keys"
    key_vectors = traitlets.List(traitlets.List(traitlets.Float())).tag(sync=True)
    value_vectors = traitlets.List(traitlets.List(traitlets.Float())).tag(sync=True)
    words = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(
        self,
        query: Any = None,
        keys: Any = None,
        values: Any = None,
        words: Sequence[str] | None = None,
    ) -> None:
        k = slider_math.as_points(examples.IT_KEYS if keys is None else keys, "keys")
        v = slider_math.as_points(examples.IT_VALUES if values is None else values, "values", n=k.shape[0])
        q = slider_math.as_float_vector(examples.IT_QUERY if query is None else query, "query")
        if q.shape[0] != k.shape[1]:
            raise ValueError(f"query has {q.shape[0]} coordinates but the keys have {k.shape[1]} "
                             f"(query shape {q.shape}, keys shape {k.shape})")
        if words is None:
            words = list(examples.IT_WORDS) if keys is None else [f"k{i + 1}" for i in range(k.shape[0])]
        super().__init__(
            query=slider_math.clamp_query(q), key_vectors=k.tolist(), value_vectors=v.tolist(),
            words=_labels(words, k.shape[0], "k"),
            _limits={"query": [*slider_math.QUERY_RANGE, slider_math.QUERY_STEP]},
        )

    @traitlets.validate("query")
    def _clamp_query(self, proposal: dict[str, Any]) -> list[float]:
        return slider_math.clamp_query(proposal["value"])

    def __repr__(self) -> str:
        q = ", ".join(f"{x:.1f}" for x in self.query)
        return f"GeometricAttention(query=[{q}], words={self.words!r})"

    def numbers(self) -> dict[str, Any]:
        """What the widget shows now (``slider_math.geometric_numbers``)."""
        return slider_math.geometric_numbers(self.query, np.asarray(self.key_vectors), np.asarray(self.value_vectors))
