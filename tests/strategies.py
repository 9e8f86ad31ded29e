"""Inputs shared by the tests: Hypothesis strategies for the property tests, and the fixed tensors of
the bad-input cases (tests/lib/test_bad_inputs.py, tests/lib/test_chunked.py)."""

from __future__ import annotations

import hypothesis.strategies as st
import numpy as np
import torch


@st.composite
def qkv_shapes(draw: st.DrawFn, max_batch_dims: int = 2) -> tuple[tuple[int, ...], int, int, int, int]:
    """(batch dims, n_q, n_k, d_k, d_v)."""
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=max_batch_dims)))
    return batch, draw(st.integers(1, 9)), draw(st.integers(1, 9)), draw(st.integers(1, 16)), draw(st.integers(1, 12))


def random_qkv(shape: tuple, seed: int, dtype: torch.dtype = torch.float32) -> tuple[torch.Tensor, ...]:
    batch, n_q, n_k, d_k, d_v = shape
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(*batch, n_q, d_k, generator=g, dtype=dtype)
    k = torch.randn(*batch, n_k, d_k, generator=g, dtype=dtype)
    v = torch.randn(*batch, n_k, d_v, generator=g, dtype=dtype)
    return q, k, v


def random_mask(batch: tuple, n_q: int, n_k: int, seed: int, *, allow_empty_rows: bool) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    mask = torch.rand(*batch, n_q, n_k, generator=g) > 0.4
    if not allow_empty_rows:
        mask[..., 0] = True  # every query may attend to at least one key
    return mask


def as_numpy(*xs: torch.Tensor) -> list[np.ndarray]:
    return [x.detach().numpy() for x in xs]


# Fixed tensors of the bad-input cases: valid shapes for q, k and v, and a q with one NaN.
q3 = torch.randn(2, 3, 4)
k3 = torch.randn(2, 5, 4)
v3 = torch.randn(2, 5, 6)
nan_q = q3.clone()
nan_q[0, 0, 0] = float("nan")
