"""Numerical extremes against the float64 NumPy twin: huge logits, float16/bfloat16, d_k = 1,
n = 1, long sequences; fully masked rows in every attention function and module."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import attnlib
from attnlib import scaled_dot_product_attention as sdpa
from attnlib.companions import foils

from ..strategies import as_numpy


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), magnitude=st.sampled_from([1e2, 1e3, 1e4]),
       n=st.integers(1, 8), d_k=st.integers(1, 8))
def test_huge_logits_stay_finite_and_match_the_twin(seed, magnitude, n, d_k) -> None:
    g = torch.Generator().manual_seed(seed)
    # scores q·k/√d_k reach ±magnitude: q entries of size ~magnitude, k entries in [-1, 1]
    q = (torch.rand(n, d_k, generator=g, dtype=torch.float64) * 2 - 1) * magnitude
    k = torch.rand(n, d_k, generator=g, dtype=torch.float64) * 2 - 1
    v = torch.randn(n, 3, generator=g, dtype=torch.float64)
    out, w = sdpa(q, k, v)
    ref_out, ref_w = sdpa(*as_numpy(q, k, v))
    assert torch.isfinite(out).all() and torch.isfinite(w).all()
    np.testing.assert_allclose(w.numpy(), ref_w, atol=1e-10)
    np.testing.assert_allclose(out.numpy(), ref_out, atol=1e-9)
    out32, w32 = sdpa(q.float(), k.float(), v.float())
    assert torch.isfinite(out32).all() and torch.isfinite(w32).all()


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 16), d_k=st.integers(1, 16))
def test_low_precision_close_to_the_twin(dtype, seed, n, d_k) -> None:
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(n, d_k, generator=g) * 30 for _ in range(3))
    q, k, v = q.to(dtype), k.to(dtype), v.to(dtype)
    out, w = sdpa(q, k, v)
    assert out.dtype == dtype and torch.isfinite(out).all() and torch.isfinite(w).all()
    ref_out, ref_w = sdpa(*(x.double().numpy() for x in (q, k, v)))
    tol = 2e-2 if dtype == torch.float16 else 6e-2
    np.testing.assert_allclose(w.double().numpy(), ref_w, atol=tol)
    scale = np.abs(ref_out).max() + 1
    np.testing.assert_allclose(out.double().numpy() / scale, ref_out / scale, atol=tol)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n_q=st.integers(1, 5))
def test_single_key_and_single_dimension(seed, n_q) -> None:
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(n_q, 1, generator=g, dtype=torch.float64)  # d_k = 1
    k = torch.randn(1, 1, generator=g, dtype=torch.float64)  # n_k = 1
    v = torch.randn(1, 4, generator=g, dtype=torch.float64)
    out, w = sdpa(q, k, v)
    assert torch.equal(w, torch.ones(n_q, 1, dtype=torch.float64))  # one key takes all the weight
    torch.testing.assert_close(out, v.expand(n_q, 4))


def test_long_sequence_matches_the_twin() -> None:
    g = torch.Generator().manual_seed(0)
    n, d = 2048, 32
    q, k, v = (torch.randn(n, d, generator=g, dtype=torch.float64) for _ in range(3))
    out, w = sdpa(q, k, v, mask=attnlib.causal_mask(n))
    ref_out, ref_w = sdpa(*as_numpy(q, k, v), mask=attnlib.causal_mask(n).numpy())
    np.testing.assert_allclose(out.numpy(), ref_out, atol=1e-10)
    assert torch.isfinite(out).all()
    assert np.all(ref_w[np.triu_indices(n, 1)] == 0)


def _fully_masked_row_cases():
    torch.manual_seed(0)
    x = torch.randn(2, 4, 8)
    mask = torch.ones(2, 4, 4, dtype=torch.bool)
    mask[1, 3] = False  # batch 1, query 3: nothing to attend to
    yield "function-torch", lambda: sdpa(x, x, x, mask=mask)
    yield "function-numpy", lambda: sdpa(x.double().numpy(), x.double().numpy(), x.double().numpy(), mask=mask.numpy())
    yield "twin", lambda: attnlib.scaled_dot_product_attention_np(*as_numpy(x, x, x), mask=mask.numpy())
    yield "ScaledDotProductAttention", lambda: attnlib.ScaledDotProductAttention()(x, x, x, mask=mask)
    yield "SelfAttentionV1", lambda: foils.SelfAttentionV1(8, 8)(x, mask=mask, return_weights=True)
    yield "SelfAttentionV2", lambda: attnlib.SelfAttentionV2(8, 8)(x, mask=mask, return_weights=True)
    yield "MultiHeadAttention", lambda: attnlib.MultiHeadAttention(8, 2, bias=False)(x, mask=mask[:, None])


@pytest.mark.parametrize(("name", "run"), list(_fully_masked_row_cases()), ids=lambda x: x if isinstance(x, str) else "")
def test_fully_masked_rows_give_zero_weights_everywhere(name, run) -> None:
    out, w = run()
    out, w = np.asarray(torch.as_tensor(out).detach()), np.asarray(torch.as_tensor(w).detach())
    assert np.isfinite(out).all() and np.isfinite(w).all()
    row = w[1, ..., 3, :]
    assert np.all(row == 0), f"{name}: fully masked row has weights {row}"
    assert np.all(out[1, 3] == 0)  # (for MultiHeadAttention: bias=False, so W_o·0 = 0)
    np.testing.assert_allclose(w[0].sum(-1), 1.0, atol=1e-6)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
@pytest.mark.parametrize("where", [0, 37, -1])
def test_one_non_finite_value_anywhere_is_rejected(dtype, bad, where) -> None:
    """The finiteness check reads only the smallest and largest value: one NaN or ±Inf at the first,
    a middle or the last position of any input must still be caught, in every float dtype."""
    q = torch.randn(2, 5, 8).to(dtype)
    for name in ("q", "k", "v"):
        args = {"q": q.clone(), "k": q.clone(), "v": q.clone()}
        args[name].view(-1)[where] = bad
        with pytest.raises(ValueError, match="NaN or Inf"):
            sdpa(args["q"], args["k"], args["v"])
