"""Boolean attention masks (True = may attend).

Chapters: "Multi-head attention and the causal mask", "Attention in PyTorch".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from ._checks import check_positive_int


def causal_mask(n: int) -> torch.Tensor:
    """``(n, n)`` lower-triangular bool mask: position i may attend to positions 0..i.

    Used in: "Multi-head attention and the causal mask".
    """
    n = check_positive_int(n, "n")
    return torch.ones(n, n, dtype=torch.bool).tril()  # (n, n)


def padding_mask(lengths: Sequence[int] | torch.Tensor | np.ndarray, n: int) -> torch.Tensor:
    """``(batch, 1, n)`` bool mask: in sequence b, keys ``0..lengths[b]-1`` are real tokens.

    The middle axis broadcasts over queries, so the mask fits ``(batch, n_q, n)`` scores; add
    ``.unsqueeze(1)`` for ``(batch, heads, n_q, n)``. A length of 0 masks every key, which gives
    the documented all-zero rows. Lengths must satisfy ``0 <= length <= n``.

    Used in: "Attention in PyTorch".
    """
    n = check_positive_int(n, "n")
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
