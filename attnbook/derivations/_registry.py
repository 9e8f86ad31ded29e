"""The registry of row derivations: row id -> the function that computes what the row rests on.

Each row of ``book/_data/errata/*.yml`` is checked by exactly one function, registered here under
the row's ``id`` with :func:`check`. Used by ``attnbook.errata`` (the Errata and Number audit pages).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch

#: What a derivation returns: a number, a nested list, an array or tensor (numeric rows), or a bool
#: (claims), or a richer record defined in ``attnbook.errata``.
Value = Any

DERIVATIONS: dict[str, Callable[[], Value]] = {}


def derives(row_id: str) -> Callable[[Callable[[], Value]], Callable[[], Value]]:
    """Register the decorated function as the derivation of the errata row ``row_id``."""
    if not isinstance(row_id, str) or not row_id:
        raise TypeError(f"derives() needs a row id string, got {row_id!r}")

    def register(fn: Callable[[], Value]) -> Callable[[], Value]:
        if row_id in DERIVATIONS:
            raise ValueError(
                f"two derivations for row {row_id!r}: {DERIVATIONS[row_id].__module__} and {fn.__module__}"
            )
        DERIVATIONS[row_id] = fn
        return fn

    return register


def plain(value: Value) -> Value:
    """A check's value with tensors and arrays turned into (nested) lists and NumPy scalars into Python ones."""
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu().numpy()
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        value = value.item()
    return value
