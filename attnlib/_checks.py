"""Input validation shared by every public function of attnlib.

Used by all chapters indirectly: every error message a reader sees comes from here.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import torch

Backend = Literal["torch", "numpy"]


def backend_of(x: Any, name: str) -> Backend:
    """Return ``"torch"`` or ``"numpy"`` for ``x``; raise ``TypeError`` for anything else."""
    if isinstance(x, torch.Tensor):
        return "torch"
    if isinstance(x, np.ndarray):
        return "numpy"
    raise TypeError(
        f"{name} must be a torch.Tensor or a numpy.ndarray, got {type(x).__name__}"
    )


def check_floating(x: torch.Tensor | np.ndarray, name: str) -> None:
    """Raise ``ValueError`` unless ``x`` has a real floating dtype."""
    if isinstance(x, torch.Tensor):
        ok = x.is_floating_point()
    else:
        ok = np.issubdtype(x.dtype, np.floating)
    if not ok:
        raise ValueError(
            f"{name} must have a floating dtype, got {x.dtype} with shape {tuple(x.shape)}"
        )


def check_finite(x: torch.Tensor | np.ndarray, name: str) -> None:
    """Raise ``ValueError`` if ``x`` holds NaN or ±Inf (attnlib never returns a silent NaN)."""
    if isinstance(x, torch.Tensor):
        bad = not bool(torch.isfinite(x).all())
    else:
        bad = not bool(np.isfinite(x).all())
    if bad:
        raise ValueError(
            f"{name} contains NaN or Inf (shape {tuple(x.shape)}); attnlib rejects "
            "non-finite inputs instead of propagating NaN"
        )


def check_min_ndim(x: torch.Tensor | np.ndarray, name: str, ndim: int = 2) -> None:
    if x.ndim < ndim:
        raise ValueError(
            f"{name} must have at least {ndim} dimensions (..., n, d), got shape {tuple(x.shape)}"
        )


def check_positive(value: Any, name: str) -> float:
    """Return ``value`` as a float; raise unless it is a finite number > 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value}")
    return value


def check_positive_int(value: Any, name: str) -> int:
    """Return ``value``; raise unless it is an ``int`` > 0 (bools are rejected)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}")
    return int(value)


def make_generator(seed: Any, *streams: int) -> np.random.Generator:
    """A NumPy generator for ``seed`` (an ``int`` >= 0, or a ``Generator`` passed through).

    An ``int`` seed is combined with ``streams`` (e.g. the dimension), so a draw depends only on
    ``(seed, *streams)`` and never on what was drawn before it. ``make_generator(s)`` equals
    ``np.random.default_rng(s)``. Used by ``attnlib.scaling`` and ``attnlib.scratch``.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or a numpy.random.Generator, got {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    return np.random.default_rng([int(seed), *streams])


# --- arrays of numbers that are not attention inputs (plots, text, widgets, the NumPy pipeline) ---
AxisSizes = tuple[int | None, ...]


def as_finite_array(
    x: Any,
    name: str,
    *,
    shape: AxisSizes | None = None,
    ndim: int | None = None,
    non_empty: bool = False,
    ndarray_only: bool = False,
) -> np.ndarray:
    """``x`` as a finite float64 NumPy array: the one check behind every array of numbers that is
    not a q/k/v input (those go through ``validate_qkv``).

    - A tensor is detached and copied to the CPU first; a list of numbers is accepted unless
      ``ndarray_only`` (the NumPy-from-scratch chapter asks for real floating arrays).
    - ``ndim`` fixes the number of axes; ``shape`` fixes the size of each axis (``None`` = any size,
      and it fixes ``ndim`` too); ``non_empty`` rejects an axis of size 0.

    Raises ``TypeError`` for something that is not numbers and ``ValueError`` naming the shape it got
    for a wrong shape, an empty array, or NaN/Inf.
    """
    if ndarray_only:
        if not isinstance(x, np.ndarray):
            raise TypeError(f"{name} must be a numpy.ndarray, got {type(x).__name__}")
        check_floating(x, name)
    if isinstance(x, torch.Tensor):
        x = x.detach().cpu().numpy()
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"{name} must be numeric (an array, a tensor or a list of numbers), got {type(x).__name__}"
        ) from None
    if shape is not None:
        ndim = len(shape)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-d, got shape {arr.shape}")
    if shape is not None and any(want is not None and got != want for got, want in zip(arr.shape, shape)):
        expected = ", ".join("?" if s is None else str(s) for s in shape) + ("," if len(shape) == 1 else "")
        raise ValueError(f"{name} must have shape ({expected}), got {arr.shape}")
    if non_empty and 0 in arr.shape:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or Inf (shape {arr.shape})")
    return arr
