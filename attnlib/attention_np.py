"""The float64 NumPy twin of ``scaled_dot_product_attention``: the reference in the tests.

Chapters: "From scratch in NumPy" and the worked examples (through ``scaled_dot_product_attention``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .softmax import softmax


def scaled_dot_product_attention_np(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, *, mask: Any = None, scale: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Same contract as ``attnlib.scaled_dot_product_attention``, NumPy only, always float64."""
    from .attention import validate_qkv

    for name, x in (("q", q), ("k", k), ("v", v)):
        if not isinstance(x, np.ndarray):
            raise TypeError(f"{name} must be a numpy.ndarray, got {type(x).__name__}")
    _, s, mask = validate_qkv(q, k, v, mask=mask, scale=scale)
    return _attention_numpy(q, k, v, mask, s)


def _attention_numpy(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None, scale: float
) -> tuple[np.ndarray, np.ndarray]:
    q, k, v = (np.asarray(x, dtype=np.float64) for x in (q, k, v))
    scores = (q @ np.swapaxes(k, -1, -2)) * scale  # (..., n_q, n_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)  # excluded keys get weight exactly 0
    weights = softmax(scores, dim=-1)  # (..., n_q, n_k); an all -inf row gives zeros
    output = weights @ v  # (..., n_q, d_v)
    return output, weights
