"""Where words are: position vectors added to the inputs, and rotary positions (RoPE) that turn the
queries and keys.

- ``sinusoidal_table(n, d)``: the sinusoidal encoding of Vaswani et al. (2017), one row per position,
  ``PE[p, 2i] = sin(p θ_i)`` and ``PE[p, 2i + 1] = cos(p θ_i)`` with ``θ_i = base^(-2i/d)``.
- ``apply_rope(x, positions, layout=...)``: rotary position embedding (Su et al. 2021). Each pair of
  features of a query or key at position ``m`` is turned by the angle ``m θ_i``, so that the score
  ``q_m · k_n`` depends on the positions only through ``m - n``. ``layout="interleaved"`` pairs
  features ``(2i, 2i + 1)`` (the paper); ``"halves"`` pairs ``(i, i + d/2)`` (GPT-NeoX, LLaMA).

``MultiHeadAttention(rope=True)`` applies ``apply_rope`` to every head's queries and keys;
``attnlib.companions.order`` holds the chapter's measured comparison of the schemes.

Chapter: "Where words are: positions" (book/14_positions.ipynb).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import torch

from ._validate import (
    as_positions,
    require_even_width,
    require_finite,
    require_floating,
    require_min_ndim,
    require_positive,
    require_positive_int,
)

Layout = Literal["interleaved", "halves"]
LAYOUTS: tuple[str, ...] = ("interleaved", "halves")
BASE = 10000.0  # the base of both papers: pair i turns base^(-2i/d) radians per position


def frequencies(d: int, *, base: float = BASE, dtype: torch.dtype = torch.float64) -> torch.Tensor:
    """``θ_i = base^(-2i/d)`` for ``i = 0 .. d/2 - 1`` ``(d/2,)``: the angle, in radians, that pair ``i``
    turns from one position to the next. Pair 0 turns one radian; the last pair barely moves."""
    d = require_even_width(d, "d")
    base = require_positive(base, "base")
    return base ** (-torch.arange(0, d, 2, dtype=dtype) / d)  # (d/2,)


def sinusoidal_table(n: int, d: int, *, base: float = BASE, dtype: torch.dtype = torch.float64) -> torch.Tensor:
    """The sinusoidal position vectors of positions ``0 .. n-1``, ``(n, d)``: even columns
    ``sin(p θ_i)``, odd columns ``cos(p θ_i)`` (Vaswani et al. 2017, section 3.5)."""
    n = require_positive_int(n, "n")
    angles = torch.arange(n, dtype=dtype)[:, None] * frequencies(d, base=base, dtype=dtype)  # (n, d/2)
    table = torch.empty(n, 2 * angles.shape[1], dtype=dtype)  # (n, d)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)
    return table


def _pairs(x: torch.Tensor, layout: str) -> tuple[torch.Tensor, torch.Tensor]:
    """The first and second member of every pair, ``(..., n, d/2)`` each."""
    if layout == "interleaved":
        return x[..., 0::2], x[..., 1::2]
    half = x.shape[-1] // 2
    return x[..., :half], x[..., half:]


def _unpairs(a: torch.Tensor, b: torch.Tensor, layout: str) -> torch.Tensor:
    """Put the pairs back in ``layout``'s order, ``(..., n, d)``."""
    if layout == "interleaved":
        return torch.stack((a, b), dim=-1).flatten(-2)  # (..., n, d/2, 2) -> (..., n, d)
    return torch.cat((a, b), dim=-1)  # (..., n, d)


def rope_unchecked(x: torch.Tensor, positions: torch.Tensor, layout: str, base: float) -> torch.Tensor:
    """The rotation itself, on checked inputs: pair ``i`` of the vector at position ``m`` turned by ``m θ_i``."""
    angle = positions.to(x.dtype)[..., None] * frequencies(x.shape[-1], base=base, dtype=x.dtype)  # (..., n, d/2)
    cos, sin = torch.cos(angle), torch.sin(angle)
    a, b = _pairs(x, layout)  # (..., n, d/2) each
    return _unpairs(a * cos - b * sin, a * sin + b * cos, layout)  # (..., n, d)


def apply_rope(x: Any, positions: Any = None, *, layout: Layout = "interleaved", base: float = BASE) -> Any:
    """Rotary positions: ``x`` ``(..., n, d)`` (queries or keys; a tensor or a NumPy array) with each
    pair of features of the vector at position ``m`` turned by ``m θ_i``. ``positions``: ``(n,)`` or
    ``x.shape[:-1]``, whole numbers >= 0 (default ``0 .. n-1``). ``layout``: ``"interleaved"``
    (pairs ``2i, 2i+1``) or ``"halves"`` (pairs ``i, i + d/2``). Returns the same type and shape."""
    is_numpy = isinstance(x, np.ndarray)
    t = torch.from_numpy(x) if is_numpy else x
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor or a numpy.ndarray, got {type(x).__name__}")
    require_min_ndim(t, "x")
    require_floating(t, "x")
    require_even_width(t.shape[-1], "d")
    require_finite(t, "x")
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be 'interleaved' or 'halves', got {layout!r}")
    pos = as_positions(positions, t.shape[-2], lead=tuple(t.shape[:-2])).to(t.device)  # (n,) or (..., n)
    out = rope_unchecked(t, pos, layout, require_positive(base, "base"))  # (..., n, d)
    return out.numpy() if is_numpy else out


__all__ = ["BASE", "LAYOUTS", "apply_rope", "frequencies", "rope_unchecked", "sinusoidal_table"]
