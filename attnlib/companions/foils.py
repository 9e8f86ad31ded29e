"""The teaching foils: code the chapters run to show what goes wrong, or what a first version looks like,
beside the core's own. Nothing in the core uses them.

- ``naive_softmax``: ``exp(x) / sum(exp(x))`` without the max subtraction ("Softmax", "Why divide by √d_k").
- ``masked_fill_softmax``: document 004's masking convention ("Attention in PyTorch").
- ``SelfAttentionV1``: self-attention with raw ``torch.rand`` parameters ("Queries, keys and values",
  "Attention in PyTorch"; the documents' journey example).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from .._validate import backend_of, require_floating, require_positive_int
from ..attention import scaled_dot_product_attention
from ..modules import _validate_input


def naive_softmax(x: np.ndarray, dim: int = -1) -> np.ndarray:
    """The textbook ``exp(x) / sum(exp(x))`` with no max subtraction.

    Kept only to show, in the "Softmax" chapter, how it overflows for large logits.
    NumPy warnings about the overflow are silenced; the NaN it returns is the lesson.
    """
    backend_of(x, "x")
    require_floating(x, "x")
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x)
        return e / np.sum(e, axis=dim, keepdims=True)


def masked_fill_softmax(scores: torch.Tensor, mask: torch.Tensor, *, fill_value: float = -1e9) -> torch.Tensor:
    """Softmax of ``scores`` after ``scores.masked_fill(mask == 0, fill_value)``, with plain ``torch.softmax``.

    This is the masking convention of document 004, Part 7 (a 0/1 or boolean ``mask``, 1/True =
    may attend, masked scores replaced by a large negative number), kept to compare it with
    attnlib's. On a partly masked row both give masked keys weight exactly 0. On a **fully masked
    row** they differ: with ``fill_value=-1e9`` every score in the row is equal, so the row becomes
    the uniform ``1/n_k`` over keys it was told to ignore; with ``fill_value=-inf`` plain softmax
    computes 0/0 and returns NaN. ``attnlib.softmax`` (used by ``scaled_dot_product_attention``)
    returns zeros instead. Use this function only to show those differences.

    ``scores`` is ``(..., n_q, n_k)`` floating; ``mask`` (bool or integer 0/1) broadcasts to it.
    Used in: "Attention in PyTorch".
    """
    if not isinstance(scores, torch.Tensor) or not isinstance(mask, torch.Tensor):
        raise TypeError(
            f"scores and mask must be torch tensors, got {type(scores).__name__} and {type(mask).__name__}"
        )
    if not scores.is_floating_point() or scores.ndim < 1:
        raise ValueError(f"scores must be a floating tensor of shape (..., n_k), got {scores.dtype} {tuple(scores.shape)}")
    if mask.is_floating_point() or mask.is_complex():
        raise ValueError(f"mask must be boolean or integer 0/1, got dtype {mask.dtype}")
    try:
        torch.broadcast_shapes(mask.shape, scores.shape)
    except RuntimeError:
        raise ValueError(
            f"mask of shape {tuple(mask.shape)} does not broadcast to scores of shape {tuple(scores.shape)}"
        ) from None
    filled = scores.masked_fill(mask == 0, fill_value)  # (..., n_q, n_k)
    return torch.softmax(filled, dim=-1)  # (..., n_q, n_k); NaN on all -inf rows, by design


class SelfAttentionV1(nn.Module):
    """Self-attention with raw ``nn.Parameter`` projections drawn as ``torch.rand(d_in, d_out)``.

    The three matrices are drawn in the order query, key, value, so ``torch.manual_seed(s)``
    followed by this constructor reproduces ``torch.rand(d_in, d_out)`` drawn three times.
    ``forward(x)`` returns the context vectors ``(..., n, d_out)``; ``return_weights=True``
    also returns the ``(..., n, n)`` weights. Used in: "Queries, keys and values", "Attention in PyTorch"
    (its ``torch.rand`` initialisation set against ``SelfAttentionV2``'s).
    """

    def __init__(self, d_in: int, d_out: int) -> None:
        super().__init__()
        self.d_in = require_positive_int(d_in, "d_in")
        self.d_out = require_positive_int(d_out, "d_out")
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x: torch.Tensor, *, mask: Any = None, return_weights: bool = False) -> Any:
        _validate_input(x, self.d_in)
        q = x @ self.W_query  # (..., n, d_out)
        k = x @ self.W_key  # (..., n, d_out)
        v = x @ self.W_value  # (..., n, d_out)
        out, w = scaled_dot_product_attention(q, k, v, mask=mask)
        return (out, w) if return_weights else out
