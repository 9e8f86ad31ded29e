"""The float64 NumPy twin of ``scaled_dot_product_attention``: the reference in the tests.

Chapters: "From scratch in NumPy" and the worked examples (through ``scaled_dot_product_attention``).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from ._validate import Alignment, require_causal, require_dropout, validate_qkv
from .masks import causal_allowed
from .softmax import softmax_unchecked


def scaled_dot_product_attention_np(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, *, mask: np.ndarray | None = None, is_causal: bool = False,
    causal_alignment: Literal["top_left", "bottom_right"] = "top_left", scale: float | None = None, dropout_p: float = 0.0,
    generator: np.random.Generator | None = None, enable_gqa: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Same contract as ``attnlib.scaled_dot_product_attention``, NumPy only, always float64."""
    for name, x in (("q", q), ("k", k), ("v", v)):
        if not isinstance(x, np.ndarray):
            raise TypeError(f"{name} must be a numpy.ndarray, got {type(x).__name__}")
    _, s, mask = validate_qkv(q, k, v, mask=mask, scale=scale, enable_gqa=enable_gqa)
    causal = require_causal(is_causal, causal_alignment)
    p = require_dropout(dropout_p, generator, "numpy")
    return attention_numpy(q, k, v, mask=mask, causal=causal, scale=s, dropout_p=p, generator=generator,
                           enable_gqa=enable_gqa)


def attention_numpy(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, *, mask: np.ndarray | None, causal: Alignment | None,
    scale: float, dropout_p: float = 0.0, generator: np.random.Generator | None = None, enable_gqa: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The arithmetic of the twin in float64, without its checks (for inputs already validated)."""
    q, k, v = (np.asarray(x, dtype=np.float64) for x in (q, k, v))
    if enable_gqa:  # validate_qkv checked that k's and v's heads divide q's
        groups = q.shape[-3] // k.shape[-3]
        k, v = np.repeat(k, groups, axis=-3), np.repeat(v, groups, axis=-3)  # (..., h_q, n_k, d)
    scores = (q @ np.swapaxes(k, -1, -2)) * scale  # (..., n_q, n_k)
    if mask is not None and mask.dtype != np.bool_:
        scores = scores + mask.astype(np.float64)  # an additive bias; -inf entries exclude keys
    elif mask is not None:
        scores = np.where(mask, scores, -np.inf)  # excluded keys get weight exactly 0
    if causal is not None:
        allowed = causal_allowed(q.shape[-2], k.shape[-2], causal).numpy()  # (n_q, n_k)
        scores = np.where(allowed, scores, -np.inf)
    # (..., n_q, n_k); an all -inf row gives zeros, and so does a query with no keys at all (n_k = 0)
    weights = scores if scores.shape[-1] == 0 else softmax_unchecked(scores, dim=-1)
    if dropout_p > 0:
        keep = generator.random(weights.shape) >= dropout_p
        weights = weights * keep / (1.0 - dropout_p)  # (..., n_q, n_k)
    output = weights @ v  # (..., n_q, d_v)
    return output, weights
