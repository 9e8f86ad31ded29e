"""A step-through of generation with a KV cache, as an anywidget that works on the static page.

Each step adds one token: its key and value are appended to the cache, and its query attends over
every cached position (the bottom-right causal rule: the newest token sees the whole cache). The ES
module (``decoding.js``) recomputes the scores, weights and output in the browser from the synced
queries, keys and values; ``decoding_numbers`` computes the same numbers in Python with
``attnlib.KVCache`` and ``attnlib.scaled_dot_product_attention``, for the browser tests.

Chapter: "Decoding: cross-attention and the KV cache".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
import traitlets

from ..attention import scaled_dot_product_attention
from ..cache import KVCache
from . import slider_math
from .sliders import _HERE, _es_module, _Slider

DEFAULT_TOKENS = ("<s>", "the", "cat", "sat", "on", "the", "mat")
D_K = 2  # narrow vectors, so the cache table fits a phone screen


def decoding_vectors(n: int, *, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seeded queries, keys and values ``(n, 2)`` each: a random embedding per position times random
    query/key/value projections (``torch.manual_seed(seed)``; the global RNG is restored), rounded to
    2 decimals so that the page and Python start from the same numbers."""
    n = slider_math.clamp_int(n, 2, slider_math.MAX_SCORES, "n")
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(slider_math.check_seed(seed))
        x = torch.randn(n, 4, dtype=torch.float64)  # (n, d_model)
        w = torch.randn(3, 4, D_K, dtype=torch.float64) / 2  # W_q, W_k, W_v: (d_model, d_k) each
    q, k, v = (torch.round(x @ w[i], decimals=2).numpy() for i in range(3))  # (n, d_k) each
    return q, k, v


def decoding_numbers(queries: Any, keys: Any, values: Any, step: int) -> dict[str, Any]:
    """What the widget shows after ``step`` tokens (1..n): the cache holds keys and values
    ``0..step-1``; token ``step-1``'s query attends over them.

    Returns ``scores`` (scaled, ``(step,)``), ``weights`` ``(step,)``, ``output`` ``(d_v,)``,
    ``cache_length`` and ``cache_numbers`` (``2 · step · d_k`` numbers held).
    """
    q = torch.as_tensor(slider_math.as_points(queries, "queries"))  # (n, 2)
    k = torch.as_tensor(slider_math.as_points(keys, "keys", n=q.shape[0]))  # (n, 2)
    v = torch.as_tensor(slider_math.as_points(values, "values", n=q.shape[0]))  # (n, 2)
    step = slider_math.clamp_int(step, 1, q.shape[0], "step")
    cache = KVCache(1, 1, k.shape[1], v.shape[1], capacity=q.shape[0], dtype=torch.float64)
    for i in range(step):  # one token per step, as in generation
        cached_k, cached_v = cache.append(k[None, None, i:i + 1], v[None, None, i:i + 1])  # (1, 1, i + 1, 2)
    q_new = q[None, None, step - 1:step]  # (1, 1, 1, d_k): the newest token's query
    out, w = scaled_dot_product_attention(q_new, cached_k, cached_v, is_causal=True, causal_alignment="bottom_right")
    scores = (q_new @ cached_k.transpose(-2, -1))[0, 0, 0] / np.sqrt(k.shape[1])  # (step,)
    return {"scores": scores.numpy(), "weights": w[0, 0, 0].numpy(), "output": out[0, 0, 0].numpy(),
            "cache_length": step, "cache_numbers": 2 * step * k.shape[1]}


class DecodingStepper(_Slider):
    """Step through generation one token at a time: the KV cache grows by one row per step, and the
    newest token's attention row over the cache is shown as weights and bars.

    ``DecodingStepper(tokens=None, *, step=1, seed=0)``: ``tokens`` (2 to 16 strings) label the
    positions; their queries, keys and values come from ``decoding_vectors``. ``step`` (synced; the
    range input and the previous/next buttons move it) is the number of tokens generated so far.
    ``numbers()`` is ``decoding_numbers`` for the current state.
    Used in: "Decoding: cross-attention and the KV cache".
    """

    _esm = _es_module("decoding.js")
    _css = _Slider._css + "\n" + (_HERE / "decoding.css").read_text(encoding="utf-8")
    step = traitlets.Int(1).tag(sync=True)
    tokens = traitlets.List(traitlets.Unicode()).tag(sync=True)
    query_vectors = traitlets.List(traitlets.List(traitlets.Float())).tag(sync=True)
    key_vectors = traitlets.List(traitlets.List(traitlets.Float())).tag(sync=True)
    value_vectors = traitlets.List(traitlets.List(traitlets.Float())).tag(sync=True)
    _repr_traits = ("step", "tokens")

    def __init__(self, tokens: Sequence[str] | None = None, *, step: int = 1, seed: int = 0) -> None:
        tokens = list(DEFAULT_TOKENS) if tokens is None else tokens
        if (isinstance(tokens, str) or not 2 <= len(tokens) <= slider_math.MAX_SCORES
                or not all(isinstance(t, str) for t in tokens)):
            raise ValueError(f"tokens must be 2 to {slider_math.MAX_SCORES} strings, got {tokens!r}")
        q, k, v = decoding_vectors(len(tokens), seed=seed)
        super().__init__(
            tokens=list(tokens), query_vectors=q.tolist(), key_vectors=k.tolist(), value_vectors=v.tolist(),
            step=slider_math.clamp_int(step, 1, len(tokens), "step"), _limits={"step": [1, len(tokens)]},
        )

    @traitlets.validate("step")
    def _clamp_step(self, proposal: dict[str, Any]) -> int:
        return slider_math.clamp_int(proposal["value"], 1, len(self.tokens) or 1, "step")

    def numbers(self) -> dict[str, Any]:
        """What the widget shows now (``decoding_numbers`` for the current step)."""
        return decoding_numbers(self.query_vectors, self.key_vectors, self.value_vectors, self.step)
