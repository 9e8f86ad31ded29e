"""Small helpers shared by the chapter modules of exercises (random cases, torch/NumPy glue).

Used by the chapter modules of ``attnbook.exercises``.
"""

from __future__ import annotations

import numpy as np
import torch


def randn(rng: np.random.Generator, *shape: int) -> torch.Tensor:
    """A float64 tensor of seeded standard normals."""
    return torch.from_numpy(rng.standard_normal(shape))


def arr(x: object) -> np.ndarray:
    """Float64 NumPy copy of a tensor or array-like."""
    if isinstance(x, torch.Tensor):
        return x.detach().double().numpy().copy()
    return np.asarray(x, dtype=np.float64)
