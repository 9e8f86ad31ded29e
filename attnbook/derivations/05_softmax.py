"""Checks of the rows in book/_data/errata/05_softmax.yml, one function per row id."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib.companions import foils

from ._registry import Value, derives


@derives("softmax-stable-listing")
def softmax_stable_listing() -> Value:
    """claim: subtracting max(x) before exp keeps softmax from overflowing, without cha."""
    return (
        bool(np.isnan(foils.naive_softmax(np.array([1000.0, 1001.0, 1002.0]))).all())
        and bool(np.isfinite(attnlib.softmax(np.array([1000.0, 1001.0, 1002.0]))).all())
        and bool(
            np.allclose(
                attnlib.softmax(np.array([1000.0, 1001.0, 1002.0])),
                attnlib.softmax(np.array([0.0, 1.0, 2.0])),
            )
        )
    )
