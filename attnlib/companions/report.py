"""Small printing helpers the chapters use to show shapes and differences as stable, rounded text.

Chapters: "Attention in PyTorch", "Multi-head attention and the causal mask", "Attention at scale",
"Decoding: cross-attention and the KV cache".
"""

from __future__ import annotations

import numpy as np
import torch

from .._validate import backend_of, require_positive_int


def max_diff(a: torch.Tensor | np.ndarray, b: torch.Tensor | np.ndarray, *, digits: int = 6) -> str:
    """The largest absolute difference ``max |a - b|`` as text with ``digits`` decimals (e.g. ``"0.000000"``).

    ``a`` and ``b`` must have the same shape (no broadcasting, so a shape slip is not hidden).
    Rounded text, not a float, so that a chapter's stored output does not change with the last bits.
    Used in: "Multi-head attention and the causal mask", "Attention at scale", "Decoding".
    """
    if backend_of(a, "a") != backend_of(b, "b"):
        raise TypeError(f"a and b must both be torch tensors or both numpy arrays, got {type(a).__name__} "
                        f"and {type(b).__name__}")
    digits = require_positive_int(digits, "digits")
    if tuple(a.shape) != tuple(b.shape):
        raise ValueError(f"a and b must have the same shape, got {tuple(a.shape)} and {tuple(b.shape)}")
    diff = (a - b).abs().max().item() if isinstance(a, torch.Tensor) else float(np.abs(np.asarray(a) - b).max())
    return f"{diff:.{digits}f}"


def show_shape(label: str, t: torch.Tensor | np.ndarray, meaning: str, *, width: int = 27) -> None:
    """Print one line: ``label`` padded to ``width``, the shape as a list, and what the axes mean.

    Used in: "Attention in PyTorch" and "Multi-head attention and the causal mask" (shape walk-throughs).
    """
    backend_of(t, "t")
    width = require_positive_int(width, "width")
    print(f"{label:{width}s} {str(list(t.shape)):14s} {meaning}")
