"""The readable attention against torch's fused kernel and against the float64 NumPy twin."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

import attnlib
from attnlib import scaled_dot_product_attention as sdpa
from attnlib.companions import foils

from ..strategies import as_numpy, qkv_shapes, random_mask, random_qkv


@settings(max_examples=150, deadline=None)
@given(shape=qkv_shapes(), seed=st.integers(0, 2**31 - 1), masked=st.booleans())
def test_matches_torch_fused_kernel_float32(shape, seed, masked) -> None:
    q, k, v = random_qkv(shape, seed)
    mask = random_mask(shape[0], shape[1], shape[2], seed, allow_empty_rows=False) if masked else None
    out, w = sdpa(q, k, v, mask=mask)
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert out.dtype == torch.float32 and out.shape == ref.shape
    torch.testing.assert_close(out, ref, atol=1e-6, rtol=1e-5)
    assert w.shape == (*shape[0], shape[1], shape[2])


@settings(max_examples=150, deadline=None)
@given(shape=qkv_shapes(), seed=st.integers(0, 2**31 - 1), masked=st.booleans())
def test_torch_and_numpy_backends_agree_float64(shape, seed, masked) -> None:
    q, k, v = random_qkv(shape, seed, torch.float64)
    mask = random_mask(shape[0], shape[1], shape[2], seed, allow_empty_rows=True) if masked else None
    out_t, w_t = sdpa(q, k, v, mask=mask)
    qn, kn, vn = as_numpy(q, k, v)
    out_n, w_n = sdpa(qn, kn, vn, mask=None if mask is None else mask.numpy())
    assert isinstance(out_n, np.ndarray) and out_n.dtype == np.float64
    np.testing.assert_allclose(out_t.numpy(), out_n, atol=1e-10, rtol=0)
    np.testing.assert_allclose(w_t.numpy(), w_n, atol=1e-10, rtol=0)
    out_twin, _ = attnlib.scaled_dot_product_attention_np(qn, kn, vn, mask=None if mask is None else mask.numpy())
    np.testing.assert_array_equal(out_twin, out_n)


@settings(max_examples=100, deadline=None)
@given(shape=qkv_shapes(), seed=st.integers(0, 2**31 - 1))
def test_rows_sum_to_one_and_masked_weights_are_exactly_zero(shape, seed) -> None:
    q, k, v = random_qkv(shape, seed, torch.float64)
    mask = random_mask(shape[0], shape[1], shape[2], seed, allow_empty_rows=True)
    _, w = sdpa(q, k, v, mask=mask)
    assert torch.all(w[~mask.expand_as(w)] == 0)
    row_has_key = mask.any(dim=-1)
    sums = w.sum(dim=-1)
    torch.testing.assert_close(sums[row_has_key], torch.ones_like(sums[row_has_key]), atol=1e-12, rtol=0)
    assert torch.all(sums[~row_has_key] == 0)


def test_fully_masked_row_gives_zero_weights_and_zero_output() -> None:
    q, k, v = random_qkv(((2,), 3, 4, 5, 6), 0)
    mask = torch.ones(2, 3, 4, dtype=torch.bool)
    mask[1, 2] = False  # query 2 of batch 1 may attend to nothing
    for backend in ("torch", "numpy"):
        args = (q, k, v) if backend == "torch" else as_numpy(q, k, v)
        m = mask if backend == "torch" else mask.numpy()
        out, w = sdpa(*args, mask=m)
        out, w = np.asarray(out), np.asarray(w)
        assert np.all(w[1, 2] == 0) and np.all(out[1, 2] == 0)
        assert np.isfinite(out).all() and np.isfinite(w).all()
        assert np.allclose(w[0].sum(-1), 1.0)


def test_default_scale_is_one_over_sqrt_dk_and_scale_is_honoured() -> None:
    q, k, v = random_qkv(((), 4, 5, 9, 3), 1, torch.float64)
    _, w_default = sdpa(q, k, v)
    _, w_explicit = sdpa(q, k, v, scale=1 / 3)
    torch.testing.assert_close(w_default, w_explicit, atol=1e-15, rtol=0)
    _, w_one = sdpa(q, k, v, scale=1.0)
    torch.testing.assert_close(w_one, torch.softmax(q @ k.T, dim=-1), atol=1e-12, rtol=0)


def test_d_v_may_differ_from_d_k_and_batch_dims_broadcast() -> None:
    q = torch.randn(2, 3, 4, 8)  # (batch, heads, n_q, d_k)
    k = torch.randn(1, 3, 6, 8)  # broadcasts over batch
    v = torch.randn(1, 3, 6, 5)  # d_v = 5
    out, w = sdpa(q, k, v)
    assert out.shape == (2, 3, 4, 5) and w.shape == (2, 3, 4, 6)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_low_precision_inputs_stay_finite_and_keep_their_dtype(dtype) -> None:
    q, k, v = (x * 100 for x in random_qkv(((2,), 5, 7, 8, 4), 3))
    out, w = sdpa(q.to(dtype), k.to(dtype), v.to(dtype))
    assert out.dtype == dtype and torch.isfinite(out).all() and torch.isfinite(w).all()
    ref, _ = sdpa(q.double(), k.double(), v.double())
    torch.testing.assert_close(out.double(), ref, atol=2.0, rtol=0.05)


def test_modules_match_functional() -> None:
    torch.manual_seed(0)
    x = torch.randn(2, 5, 6)
    m = attnlib.SelfAttentionV2(6, 4)
    out, w = m(x, return_weights=True)
    ref, ref_w = sdpa(m.W_query(x), m.W_key(x), m.W_value(x))
    torch.testing.assert_close(out, ref)
    torch.testing.assert_close(w, ref_w)
    assert m.W_query.bias is None
    sdpa_mod = attnlib.ScaledDotProductAttention()
    q, k, v = random_qkv(((2,), 3, 4, 5, 6), 5)
    torch.testing.assert_close(sdpa_mod(q, k, v)[0], sdpa(q, k, v)[0])


def test_self_attention_v1_draws_like_torch_rand() -> None:
    torch.manual_seed(123)
    m = foils.SelfAttentionV1(3, 2)
    torch.manual_seed(123)
    expected = [torch.rand(3, 2) for _ in range(3)]
    for p, e in zip((m.W_query, m.W_key, m.W_value), expected):
        assert isinstance(p, torch.nn.Parameter)
        torch.testing.assert_close(p.data, e, atol=0, rtol=0)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), heads=st.sampled_from([1, 2, 4]), n=st.integers(1, 7),
       causal=st.booleans())
def test_multi_head_matches_torch_multihead_attention(seed, heads, n, causal) -> None:
    torch.manual_seed(seed)
    d_model = 8
    ref = torch.nn.MultiheadAttention(d_model, heads, batch_first=True)
    mine = attnlib.TorchCompatMultiHeadAttention(d_model, heads).load_from_torch(ref)
    x = torch.randn(2, n, d_model)
    mask = attnlib.causal_mask(n) if causal else None
    # torch's boolean attn_mask uses True = "may NOT attend": the opposite of attnlib's
    ref_out, ref_w = ref(x, x, x, attn_mask=None if mask is None else ~mask, average_attn_weights=False)
    out, w = mine(x, mask=mask)
    torch.testing.assert_close(out, ref_out, atol=1e-6, rtol=1e-5)
    torch.testing.assert_close(w, ref_w, atol=1e-6, rtol=1e-5)


def test_causal_mask_gives_zero_weight_to_the_future() -> None:
    q, k, v = random_qkv(((), 6, 6, 4, 4), 7)
    _, w = sdpa(q, k, v, mask=attnlib.causal_mask(6))
    assert torch.all(w.triu(diagonal=1) == 0)
    torch.testing.assert_close(w.sum(-1), torch.ones(6))


def test_padding_mask_shape_and_values() -> None:
    m = attnlib.padding_mask([2, 0, 4], 4)
    assert m.shape == (3, 1, 4) and m.dtype == torch.bool
    assert m[:, 0].tolist() == [[True, True, False, False], [False] * 4, [True] * 4]


def test_gradients_are_correct_with_masks_and_broadcasting() -> None:
    """The readable path scales and masks its score matrix in place; autograd must still be right."""
    g = torch.Generator().manual_seed(11)
    q = torch.randn(2, 1, 3, 4, generator=g, dtype=torch.float64, requires_grad=True)
    k = torch.randn(1, 2, 5, 4, generator=g, dtype=torch.float64, requires_grad=True)
    v = torch.randn(1, 2, 5, 3, generator=g, dtype=torch.float64, requires_grad=True)
    mask = torch.rand(3, 5, generator=g) > 0.3
    mask[1] = False  # one fully masked row

    def both(q, k, v):
        out, w = sdpa(q, k, v, mask=mask, scale=0.7)
        return out, w

    assert torch.autograd.gradcheck(both, (q, k, v))
