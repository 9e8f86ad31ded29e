"""Rotary positions one pair at a time, as an anywidget that works on the static page.

The reader sets a query's position ``m`` and a key's position ``n``. The widget draws one pair of
features of each, turned by position × the pair's speed, and shows the score ``q_m · k_n`` of the
whole vectors: moving both positions together leaves it unchanged. A check box switches to added
sinusoidal positions (``q + PE(m)``, ``k + PE(n)``), where the same move changes the score, and a
slider picks the pair, from the fastest to the slowest. The ES module (``rotary.js``) computes in the
browser; ``rotary_numbers`` computes the same numbers in Python with ``attnlib.positions``, for the
browser tests.

Chapter: "Where words are: positions".
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch
import traitlets

from ..companions.checks import as_finite_array
from ..positions import apply_rope, frequencies, require_even_width, sinusoidal_table
from . import slider_math
from .sliders import _es_module, _Slider

D = 8  # four pairs: one fast, one slow and two between
MAX_POSITION = 24


def rotary_vectors(*, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A seeded query and key of width ``D`` (``torch.manual_seed(seed)``; the global RNG is
    restored), rounded to 2 decimals so that the page and Python start from the same numbers."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(slider_math.check_seed(seed))
        q, k = torch.randn(2, D, dtype=torch.float64)  # (D,) each
    return torch.round(q, decimals=2).numpy(), torch.round(k, decimals=2).numpy()


def rotary_numbers(query: Any, key: Any, query_position: int, key_position: int, pair: int = 0,
                   *, sinusoidal: bool = False) -> dict[str, Any]:
    """What the widget shows: ``score`` (the dot product of the whole turned, or position-added,
    query and key), ``query_pair`` and ``key_pair`` (pair ``pair`` of each, ``(2,)``), ``offset``
    ``m - n`` and ``turn`` (the pair's angle per position, in degrees)."""
    q = as_finite_array(query, "query", ndim=1, non_empty=True)
    k = as_finite_array(key, "key", shape=(q.shape[0],))
    d = require_even_width(q.shape[0], "d")
    m = slider_math.clamp_int(query_position, 0, MAX_POSITION, "query_position")
    n = slider_math.clamp_int(key_position, 0, MAX_POSITION, "key_position")
    i = slider_math.clamp_int(pair, 0, d // 2 - 1, "pair")
    if sinusoidal:
        pe = sinusoidal_table(MAX_POSITION + 1, d).numpy()  # (positions, d)
        q2, k2 = q + pe[m], k + pe[n]  # (d,) each
    else:
        q2 = apply_rope(q[None], [m])[0]  # (d,)
        k2 = apply_rope(k[None], [n])[0]  # (d,)
    return {"score": float(q2 @ k2), "query_pair": q2[2 * i:2 * i + 2], "key_pair": k2[2 * i:2 * i + 2],
            "offset": m - n, "turn": math.degrees(float(frequencies(d)[i]))}


class RotaryPositions(_Slider):
    """Two position sliders (query ``m``, key ``n``), a "both" button pair, a pair slider and a check
    box for added sinusoids; shows pair ``pair`` of the turned query and key as arrows and the score.

    ``RotaryPositions(query_position=5, key_position=2, *, pair=0, sinusoidal=False, seed=0)``; the
    vectors come from ``rotary_vectors(seed=seed)``. ``numbers()`` is ``rotary_numbers`` for the
    current state. Used in: "Where words are: positions".
    """

    _esm = _es_module("rotary.js")
    query_position = traitlets.Int(5).tag(sync=True)
    key_position = traitlets.Int(2).tag(sync=True)
    pair = traitlets.Int(0).tag(sync=True)
    sinusoidal = traitlets.Bool(False).tag(sync=True)
    query_vector = traitlets.List(traitlets.Float()).tag(sync=True)
    key_vector = traitlets.List(traitlets.Float()).tag(sync=True)
    _repr_traits = ("query_position", "key_position", "pair", "sinusoidal")

    def __init__(self, query_position: int = 5, key_position: int = 2, *, pair: int = 0, sinusoidal: bool = False,
                 seed: int = 0) -> None:
        q, k = rotary_vectors(seed=seed)
        super().__init__(
            query_vector=q.tolist(), key_vector=k.tolist(),
            query_position=slider_math.clamp_int(query_position, 0, MAX_POSITION, "query_position"),
            key_position=slider_math.clamp_int(key_position, 0, MAX_POSITION, "key_position"),
            pair=slider_math.clamp_int(pair, 0, D // 2 - 1, "pair"), sinusoidal=bool(sinusoidal),
            _limits={"position": [0, MAX_POSITION], "pair": [0, D // 2 - 1]},
        )

    @traitlets.validate("query_position", "key_position")
    def _clamp_position(self, proposal: dict[str, Any]) -> int:
        return slider_math.clamp_int(proposal["value"], 0, MAX_POSITION, proposal["trait"].name)

    @traitlets.validate("pair")
    def _clamp_pair(self, proposal: dict[str, Any]) -> int:
        return slider_math.clamp_int(proposal["value"], 0, D // 2 - 1, "pair")

    def numbers(self) -> dict[str, Any]:
        """What the widget shows now (``rotary_numbers`` for the current state)."""
        return rotary_numbers(self.query_vector, self.key_vector, self.query_position, self.key_position, self.pair,
                              sinusoidal=self.sinusoidal)
