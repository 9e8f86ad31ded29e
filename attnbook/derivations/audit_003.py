"""Checks of the rows in book/_data/errata/audit_003.yml, one function per row id."""

from __future__ import annotations

import numpy as np

from attnlib.companions import scaling

from ._registry import Value, derives


@derives("doc003-scale-keeps-variance")
def doc003_scale_keeps_variance() -> Value:
    """claim: the variance of Q·Kᵀ grows with D_k and dividing by √D_k keeps it fixed (."""
    t = scaling.variance_by_dimension([1, 2, 3, 10, 30, 100, 300, 1000], 1000, seed=0)
    return bool(t[-1, 1] > 100 * t[0, 1] and np.all(np.abs(t[:, 2] - 1) < 0.1))
