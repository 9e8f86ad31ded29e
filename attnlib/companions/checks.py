"""The checks of the companions, the widgets and the plots: arrays of numbers that are not attention
inputs, seeded NumPy generators, counts that may be 0, and words quoted in a message. The core's own
checks (attention inputs, sizes, dtypes) are in ``attnlib._validate``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import torch

from .._validate import require_floating


def quoted_word(word: str) -> str:
    """A word as a message quotes it; one longer than 24 characters is shortened to its first 20 and
    its length, so that a pasted paragraph cannot stretch the page (the page's ``quotedWord`` in ``attnlib/widgets/_common.js``)."""
    return f"'{word}'" if len(word) <= 24 else f"'{word[:20]}…' ({len(word)} characters)"


def quoted_words(words: list[str], limit: int = 5) -> str:
    """Words as a message lists them: each once, in the order given, quoted by :func:`quoted_word`, at
    most ``limit`` of them and then how many more (the page's ``quotedWords`` in ``_common.js``)."""
    unique = list(dict.fromkeys(words))
    shown = ", ".join(map(quoted_word, unique[:limit]))
    return shown if len(unique) <= limit else f"{shown} and {len(unique) - limit} more"


def completed_settings(settings: Any, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """A widget's ``settings`` completed from its ``defaults`` (the settings' own values first);
    ``TypeError`` unless they are a mapping, ``ValueError`` naming the settings ``defaults`` does not know
    (and the ones it does). Used by ``attnlib.companions.trainer`` and ``attnlib.companions.induction``."""
    if not isinstance(settings, Mapping):
        raise TypeError(f"settings must be a mapping, got {type(settings).__name__}")
    unknown = sorted(set(settings) - set(defaults))
    if unknown:
        raise ValueError(f"unknown setting(s) {unknown}; the settings are {sorted(defaults)}")
    return {**defaults, **settings}


def require_non_negative_int(value: Any, name: str) -> int:
    """Return ``value``; raise unless it is an ``int`` >= 0 (bools are rejected)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return int(value)


def make_generator(seed: Any, *streams: int) -> np.random.Generator:
    """A NumPy generator for ``seed`` (an ``int`` >= 0, or a ``Generator`` passed through).

    An ``int`` seed is combined with ``streams`` (e.g. the dimension), so a draw depends only on
    ``(seed, *streams)`` and never on what was drawn before it. ``make_generator(s)`` equals
    ``np.random.default_rng(s)``. Used by ``attnlib.companions.scaling`` and ``attnlib.companions.scratch``.
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
        require_floating(x, name)
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
