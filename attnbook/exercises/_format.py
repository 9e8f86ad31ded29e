"""Numbers as an exercise's prompt shows them."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._parsing import _as_float_array


def fmt(x: Any, digits: int = 3) -> str:
    """Numbers for a prompt: one number, or a bracketed list, rounded to ``digits`` decimals."""
    arr = _as_float_array(x)
    items = [f"{v:.{digits}f}" for v in arr]
    return items[0] if arr.size == 1 and np.ndim(x) == 0 else "[" + ", ".join(items) + "]"
