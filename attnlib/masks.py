"""Boolean attention masks (True = may attend).

Chapters: "Multi-head attention and the causal mask", "Attention in PyTorch".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import torch

from ._validate import require_alignment, require_positive_int


def causal_mask(
    n_q: int, n_k: int | None = None, *, alignment: Literal["top_left", "bottom_right"] = "top_left",
    device: torch.device | str | None = None,
) -> torch.Tensor:
    """``(n_q, n_k)`` bool mask, True = may attend: no query sees a key "in its future".

    ``n_k`` defaults to ``n_q`` (the square mask of self-attention: query i sees keys 0..i).
    When ``n_q != n_k`` the two alignments differ:

    * ``"top_left"`` (the default, torch's ``is_causal=True``): query i sees keys ``0..i``. The
      first query is lined up with the first key.
    * ``"bottom_right"`` (decoding with a KV cache): query i sees keys ``0..i + n_k - n_q``. The
      *last* query is lined up with the *last* key, so the newest token sees the whole cache
      (torch's ``causal_lower_right``). With ``n_q > n_k`` the first ``n_q - n_k`` rows are all
      False; attention gives them zero weights and output.

    Used in: "Attention in PyTorch", "Multi-head attention and the causal mask", "Decoding".
    """
    n_q = require_positive_int(n_q, "n_q")
    n_k = n_q if n_k is None else require_positive_int(n_k, "n_k")
    return causal_allowed(n_q, n_k, require_alignment(alignment), device=device)


def causal_allowed(n_q: int, n_k: int, alignment: Literal["top_left", "bottom_right"],
                   device: torch.device | str | None = None) -> torch.Tensor:
    """The mask of :func:`causal_mask` without its checks, for callers that checked the sizes
    already (the attention functions); ``n_q`` or ``n_k`` may be 0. Returns ``(n_q, n_k)`` bool."""
    offset = 0 if alignment == "top_left" else n_k - n_q
    return torch.ones(n_q, n_k, dtype=torch.bool, device=device).tril(diagonal=offset)  # (n_q, n_k)


def padding_mask(lengths: Sequence[int] | torch.Tensor | np.ndarray, n: int) -> torch.Tensor:
    """``(batch, 1, n)`` bool mask: in sequence b, keys ``0..lengths[b]-1`` are real tokens.

    The middle axis broadcasts over queries, so the mask fits ``(batch, n_q, n)`` scores; add
    ``.unsqueeze(1)`` for ``(batch, heads, n_q, n)``. A length of 0 masks every key, which gives
    the documented all-zero rows. Lengths must satisfy ``0 <= length <= n``.

    Used in: "Attention in PyTorch", "Multi-head attention and the causal mask".
    """
    n = require_positive_int(n, "n")
    if isinstance(lengths, (str, bytes)) or not hasattr(lengths, "__len__"):
        raise TypeError(f"lengths must be a sequence of ints, got {type(lengths).__name__}")
    arr = torch.as_tensor(np.asarray(lengths))
    if arr.ndim != 1 or arr.numel() == 0:
        raise ValueError(f"lengths must be a non-empty 1-d sequence, got shape {tuple(arr.shape)}")
    if arr.dtype == torch.bool or arr.is_floating_point() or arr.is_complex():
        raise ValueError(f"lengths must be integers, got dtype {arr.dtype}")
    if bool((arr < 0).any()) or bool((arr > n).any()):
        raise ValueError(f"every length must be between 0 and n={n}, got {arr.tolist()}")
    positions = torch.arange(n)  # (n,)
    return (positions[None, :] < arr[:, None])[:, None, :]  # (batch, 1, n)
