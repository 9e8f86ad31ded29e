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
    require_finite,
    require_floating,
    require_min_ndim,
    require_positive,
    require_positive_int,
)

_INT_DTYPES = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def require_even_width(d: Any, name: str = "d") -> int:
    """Return ``d``; raise unless it is an even ``int`` > 0 (rotary and sinusoidal positions work on
    pairs of features, so an odd width leaves one feature without a partner)."""
    d = require_positive_int(d, name)
    if d % 2:
        raise ValueError(f"{name} must be even (the features are used in pairs), got {name}={d}")
    return d


def as_positions(positions: Any, n: int, *, lead: tuple[int, ...] = (), name: str = "positions") -> torch.Tensor:
    """``positions`` as an int64 tensor of shape ``(n,)`` or ``(*lead, n)`` (one position per vector;
    ``None`` gives ``0, 1, ..., n - 1``). Accepts a tensor, an array or a list of whole numbers >= 0;
    raises ``TypeError`` for something that is not numbers and ``ValueError`` naming the shape or the
    value for a wrong shape, a negative position or one that is not a whole number."""
    if positions is None:
        return torch.arange(n)
    if isinstance(positions, torch.Tensor):
        p = positions.detach().cpu()
    else:
        try:
            p = torch.as_tensor(np.asarray(positions))
        except (TypeError, ValueError, RuntimeError):
            raise TypeError(f"{name} must be whole numbers (a tensor, an array or a list), got {type(positions).__name__}") from None
    if not (p.is_floating_point() or p.dtype in _INT_DTYPES):
        raise TypeError(f"{name} must hold whole numbers, got dtype {p.dtype}")
    shapes = [(n,), (*lead, n)]
    if tuple(p.shape) not in shapes:
        want = " or ".join(str(s).replace(",)", ")") for s in dict.fromkeys(shapes))
        raise ValueError(f"{name} must have shape {want} (one position per vector), got {tuple(p.shape)}")
    if p.is_floating_point():
        if not bool(torch.isfinite(p).all()) or not bool((p == p.round()).all()):
            bad = p[~torch.isfinite(p) | (p != p.round())][0].item()
            raise ValueError(f"{name} must be whole numbers, got {bad} (shape {tuple(p.shape)})")
    if p.numel() and int(p.min()) < 0:
        raise ValueError(f"{name} must be >= 0, got {int(p.min())} (shape {tuple(p.shape)})")
    return p.to(torch.int64)


Layout = Literal["interleaved", "halves"]
LAYOUTS: tuple[str, ...] = ("interleaved", "halves")
BASE = 10000.0  # the base of both papers: pair i turns base^(-2i/d) radians per position


def _work_dtype(dtype: Any, name: str = "dtype") -> torch.dtype:
    """The dtype the angles are computed in: float64 for float64, float32 for every narrower floating
    dtype (as Hugging Face's and Meta's rotary code do); an integer, bool or complex dtype is refused."""
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise TypeError(f"{name} must be a floating torch.dtype (positions are sines and cosines), got {dtype!r}")
    return torch.float64 if dtype == torch.float64 else torch.float32


def frequencies(d: int, *, base: float = BASE, dtype: torch.dtype = torch.float64,
                device: torch.device | str | None = None) -> torch.Tensor:
    """``θ_i = base^(-2i/d)`` for ``i = 0 .. d/2 - 1`` ``(d/2,)``: the angle, in radians, that pair ``i``
    turns from one position to the next. Pair 0 turns one radian; the last pair barely moves.
    Computed in float32 at least (float64 for float64) and cast to ``dtype`` once, on ``device``."""
    d = require_even_width(d, "d")
    base = require_positive(base, "base")
    work = _work_dtype(dtype)
    return (base ** (-torch.arange(0, d, 2, dtype=work, device=device) / d)).to(dtype)  # (d/2,)


def sinusoidal_table(n: int, d: int, *, base: float = BASE, dtype: torch.dtype = torch.float64,
                     device: torch.device | str | None = None) -> torch.Tensor:
    """The sinusoidal position vectors of positions ``0 .. n-1``, ``(n, d)``: even columns
    ``sin(p θ_i)``, odd columns ``cos(p θ_i)`` (Vaswani et al. 2017, section 3.5). The angles are
    computed in float32 at least (float64 for float64) and the table is cast to ``dtype`` once, at the
    end, so a bfloat16 or float16 table is the exact one rounded once. Integer and bool dtypes are refused."""
    n = require_positive_int(n, "n")
    work = _work_dtype(dtype)
    angles = torch.arange(n, dtype=work, device=device)[:, None] * frequencies(d, base=base, dtype=work, device=device)
    table = torch.empty(n, 2 * angles.shape[1], dtype=work, device=device)  # (n, d)
    table[:, 0::2] = torch.sin(angles)  # angles: (n, d/2)
    table[:, 1::2] = torch.cos(angles)
    return table.to(dtype)


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
    """The rotation itself, on checked inputs: pair ``i`` of the vector at position ``m`` turned by ``m θ_i``.
    The angles and the rotation are computed in float32 at least (float64 for float64), on ``x``'s
    device, and the result is cast to ``x``'s dtype once (Meta's LLaMA code does the same)."""
    work = _work_dtype(x.dtype, "x's dtype")
    theta = frequencies(x.shape[-1], base=base, dtype=work, device=x.device)  # (d/2,)
    angle = positions.to(device=x.device, dtype=work)[..., None] * theta  # (..., n, d/2)
    cos, sin = torch.cos(angle), torch.sin(angle)
    a, b = _pairs(x.to(work), layout)  # (..., n, d/2) each
    return _unpairs(a * cos - b * sin, a * sin + b * cos, layout).to(x.dtype)  # (..., n, d)


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
