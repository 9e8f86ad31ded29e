"""Softmax invariants: rows sum to 1, shift invariance, ranking kept under positive scaling."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import attnlib
from attnlib.companions import foils

finite = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False)
rows = arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 12)), elements=finite)


@settings(max_examples=200, deadline=None)
@given(x=rows)
def test_rows_sum_to_one_and_are_finite(x) -> None:
    for y in (attnlib.softmax(x), attnlib.softmax(torch.from_numpy(x)).numpy()):
        assert np.isfinite(y).all() and (y >= 0).all()
        np.testing.assert_allclose(y.sum(-1), 1.0, atol=1e-12)


@settings(max_examples=200, deadline=None)
@given(x=rows, shift=st.floats(-1e3, 1e3))
def test_shift_invariance(x, shift) -> None:
    np.testing.assert_allclose(attnlib.softmax(x + shift), attnlib.softmax(x), atol=1e-9)


@settings(max_examples=200, deadline=None)
@given(x=rows, c=st.floats(1e-3, 1e3))
def test_positive_scaling_never_changes_the_ranking(x, c) -> None:
    # rank by the scores: dividing by c > 0 keeps every strict order among the weights
    a, b = attnlib.softmax(x), attnlib.softmax(x, temperature=c)
    for row_x, row_a, row_b in zip(x, a, b):
        i, j = np.argmax(row_x), np.argmin(row_x)
        assert row_a[i] >= row_a[j] and row_b[i] >= row_b[j]
        order = np.argsort(row_x, kind="stable")
        assert np.all(np.diff(row_b[order]) >= -1e-15)


def test_temperature_equals_dividing_the_scores() -> None:
    x = torch.tensor([[1.0, 2.0, 5.0]], dtype=torch.float64)
    torch.testing.assert_close(attnlib.softmax(x, temperature=2.5), attnlib.softmax(x / 2.5))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_extreme_logits_stay_finite(dtype) -> None:
    x = torch.tensor([1e4, -1e4, 0.0, 9999.0], dtype=dtype)
    y = attnlib.softmax(x)
    assert y.dtype == dtype and torch.isfinite(y).all()
    assert abs(float(y.float().sum()) - 1.0) < 1e-2


def test_numpy_float16_and_type_preserved() -> None:
    y = attnlib.softmax(np.array([1e4, -1e4, 0.0], dtype=np.float16))
    assert isinstance(y, np.ndarray) and y.dtype == np.float16 and np.isfinite(y).all()


def test_all_minus_inf_row_is_zeros_not_nan() -> None:
    y = attnlib.softmax(torch.tensor([[-np.inf, -np.inf], [0.0, -np.inf]]))
    assert y.tolist() == [[0.0, 0.0], [1.0, 0.0]]


def test_naive_softmax_overflows_where_stable_does_not() -> None:
    x = np.array([1000.0, 1001.0, 1002.0])
    assert np.isnan(foils.naive_softmax(x)).any()
    assert np.isfinite(attnlib.softmax(x)).all()


@pytest.mark.parametrize("backend", ["torch", "numpy"])
def test_overflow_from_a_tiny_temperature_raises_instead_of_nan(backend) -> None:
    x = np.array([[1e300, 1.0], [-1e300, 0.0]])
    x = torch.from_numpy(x) if backend == "torch" else x
    with pytest.raises(ValueError, match="temperature"):
        attnlib.softmax(x, temperature=1e-300)  # 1e300 / 1e-300 overflows to +inf
    # without the overflow the same values are fine
    y = np.asarray(attnlib.softmax(x, temperature=1.0))
    assert np.isfinite(y).all()


def test_gradients_are_correct_and_no_grad_gives_the_same_values() -> None:
    """softmax divides in place only when autograd does not track it; both paths agree."""
    x = torch.randn(3, 5, dtype=torch.float64, generator=torch.Generator().manual_seed(0), requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: attnlib.softmax(a, temperature=0.7), (x,))
    with torch.no_grad():
        y = attnlib.softmax(x)
    torch.testing.assert_close(y, attnlib.softmax(x).detach(), atol=0, rtol=0)
    torch.testing.assert_close(y, torch.softmax(x, dim=-1), atol=1e-15, rtol=0)
