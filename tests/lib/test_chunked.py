"""Chunked (online-softmax) attention equals the readable attention and torch's fused kernel,
never materialises an n_q × n_k matrix, and rejects bad input with the same errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.overrides import TorchFunctionMode

import attnlib
from attnlib import chunked_attention
from attnlib import scaled_dot_product_attention as sdpa

from ..strategies import k3, nan_q, q3, random_mask, random_qkv, v3

TOL = {"atol": 1e-5, "rtol": 1e-5}


@st.composite
def shapes_and_block(draw: st.DrawFn) -> tuple[tuple, int]:
    """((batch, heads), n_q, n_k, d_k, d_v) with sequences longer than several blocks, and a block size."""
    batch = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    n_q, n_k = draw(st.integers(1, 40)), draw(st.integers(1, 40))
    return (batch, n_q, n_k, draw(st.integers(1, 16)), draw(st.integers(1, 12))), draw(st.integers(1, 17))


def tril(n_q: int, n_k: int) -> torch.Tensor:
    """Query i may attend to keys 0..i (torch's is_causal rule; attnlib.causal_mask when square)."""
    return torch.ones(n_q, n_k, dtype=torch.bool).tril()  # (n_q, n_k)


@settings(max_examples=100, deadline=None)
@given(sb=shapes_and_block(), seed=st.integers(0, 2**31 - 1), causal=st.booleans())
def test_matches_readable_and_fused_attention_float32(sb, seed, causal) -> None:
    shape, block = sb
    q, k, v = random_qkv(shape, seed)
    out = chunked_attention(q, k, v, is_causal=causal, block_size=block)
    fused = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    readable, _ = sdpa(q, k, v, mask=tril(shape[1], shape[2]) if causal else None)
    assert out.shape == fused.shape and out.dtype == torch.float32
    torch.testing.assert_close(out, fused, **TOL)
    torch.testing.assert_close(out, readable, **TOL)


@settings(max_examples=60, deadline=None)
@given(sb=shapes_and_block(), seed=st.integers(0, 2**31 - 1), causal=st.booleans(), data=st.data())
def test_padding_mask_matches_readable_and_fused_attention(sb, seed, causal, data) -> None:
    (batch, n_q, n_k, d_k, d_v), block = sb
    q, k, v = random_qkv((batch, n_q, n_k, d_k, d_v), seed)
    # at least one real key per sequence, so torch's kernel (NaN on empty rows) is defined
    lengths = data.draw(st.lists(st.integers(1, n_k), min_size=batch[0], max_size=batch[0]))
    pad = attnlib.padding_mask(lengths, n_k).unsqueeze(1)  # (batch, 1, 1, n_k): broadcasts over heads, queries
    out = chunked_attention(q, k, v, mask=pad, is_causal=causal, block_size=block)
    full = pad & tril(n_q, n_k) if causal else pad
    readable, _ = sdpa(q, k, v, mask=full)
    torch.testing.assert_close(out, readable, **TOL)
    if not causal:  # causal + padding can leave a row with no key, where torch's kernel gives NaN
        torch.testing.assert_close(out, F.scaled_dot_product_attention(q, k, v, attn_mask=pad), **TOL)


@settings(max_examples=60, deadline=None)
@given(sb=shapes_and_block(), seed=st.integers(0, 2**31 - 1), causal=st.booleans())
def test_random_masks_with_empty_rows_match_readable_float64(sb, seed, causal) -> None:
    shape, block = sb
    q, k, v = random_qkv(shape, seed, torch.float64)
    mask = random_mask(shape[0], shape[1], shape[2], seed, allow_empty_rows=True)
    out = chunked_attention(q, k, v, mask=mask, is_causal=causal, block_size=block)
    full = mask & tril(shape[1], shape[2]) if causal else mask
    ref, w = sdpa(q, k, v, mask=full)
    assert out.dtype == torch.float64
    torch.testing.assert_close(out, ref, atol=1e-12, rtol=0)
    empty = ~full.expand_as(w).any(dim=-1)  # (..., n_q): queries with nothing to attend to
    assert torch.all(out[empty] == 0)


def test_fully_masked_rows_give_exact_zeros_not_nan() -> None:
    q, k, v = random_qkv(((3, 2), 10, 10, 4, 6), 0)
    pad = attnlib.padding_mask([10, 0, 3], 10).unsqueeze(1)  # (3, 1, 1, 10): sequence 1 has no real key
    out = chunked_attention(q, k, v, mask=pad, block_size=4)
    assert torch.isfinite(out).all()
    assert torch.all(out[1] == 0)
    assert torch.all(out[[0, 2]].abs().sum(-1) > 0)
    ref, _ = sdpa(q, k, v, mask=pad)
    torch.testing.assert_close(out, ref, **TOL)


@pytest.mark.parametrize("block", [1, 3, 8, 64, 1000])
def test_result_does_not_depend_on_block_size(block) -> None:
    q, k, v = random_qkv(((2, 2), 50, 37, 8, 5), 1, torch.float64)
    ref = chunked_attention(q, k, v, block_size=50)
    torch.testing.assert_close(chunked_attention(q, k, v, block_size=block), ref, atol=1e-13, rtol=0)
    causal_ref, _ = sdpa(q, k, v, mask=tril(50, 37))
    torch.testing.assert_close(chunked_attention(q, k, v, is_causal=True, block_size=block), causal_ref,
                               atol=1e-13, rtol=0)


def test_causal_equals_the_causal_mask_and_ignores_the_future() -> None:
    q, k, v = random_qkv(((2,), 12, 12, 4, 3), 2, torch.float64)
    out = chunked_attention(q, k, v, is_causal=True, block_size=5)
    torch.testing.assert_close(out, sdpa(q, k, v, mask=attnlib.causal_mask(12))[0], atol=1e-12, rtol=0)
    v_changed = v.clone()
    v_changed[:, 7:] += 100.0  # change only the future of queries 0..6
    out_changed = chunked_attention(q, k, v_changed, is_causal=True, block_size=5)
    torch.testing.assert_close(out_changed[:, :7], out[:, :7], atol=0, rtol=0)
    assert not torch.allclose(out_changed[:, 7:], out[:, 7:])


def test_scale_broadcasting_and_d_v_follow_the_readable_contract() -> None:
    q = torch.randn(2, 3, 9, 8, generator=torch.Generator().manual_seed(3))  # (batch, heads, n_q, d_k)
    k = torch.randn(1, 3, 11, 8, generator=torch.Generator().manual_seed(4))  # broadcasts over batch
    v = torch.randn(1, 3, 11, 5, generator=torch.Generator().manual_seed(5))  # d_v = 5
    out = chunked_attention(q, k, v, scale=0.7, block_size=4)
    assert out.shape == (2, 3, 9, 5)
    torch.testing.assert_close(out, sdpa(q, k, v, scale=0.7)[0], **TOL)


def test_numpy_twin_agrees_in_float64() -> None:
    q, k, v = random_qkv(((2,), 13, 13, 6, 4), 6, torch.float64)
    out = chunked_attention(q, k, v, block_size=4)
    ref, _ = attnlib.scaled_dot_product_attention_np(q.numpy(), k.numpy(), v.numpy())
    np.testing.assert_allclose(out.numpy(), ref, atol=1e-12, rtol=0)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_low_precision_keeps_dtype_and_stays_close(dtype) -> None:
    q, k, v = (x * 30 for x in random_qkv(((2,), 20, 20, 8, 4), 7))
    out = chunked_attention(q.to(dtype), k.to(dtype), v.to(dtype), block_size=6)
    ref, _ = sdpa(q.to(dtype), k.to(dtype), v.to(dtype))
    assert out.dtype == dtype and torch.isfinite(out).all()
    torch.testing.assert_close(out.float(), ref.float(), atol=0.1, rtol=0.02)


def test_gradients_match_the_readable_attention() -> None:
    base = random_qkv(((2,), 9, 9, 4, 3), 8, torch.float64)
    grads = []
    for fn in (lambda q, k, v: chunked_attention(q, k, v, is_causal=True, block_size=4),
               lambda q, k, v: sdpa(q, k, v, mask=attnlib.causal_mask(9))[0]):
        q, k, v = (x.clone().requires_grad_() for x in base)
        fn(q, k, v).square().sum().backward()
        grads.append([x.grad for x in (q, k, v)])
    for g_chunked, g_readable in zip(*grads):
        torch.testing.assert_close(g_chunked, g_readable, atol=1e-10, rtol=0)


class LargestTensor(TorchFunctionMode):
    """Records the largest number of elements of any tensor a torch function returns."""

    def __init__(self) -> None:
        super().__init__()
        self.largest = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        result = func(*args, **(kwargs or {}))
        for t in result if isinstance(result, (tuple, list)) else (result,):
            if isinstance(t, torch.Tensor):
                self.largest = max(self.largest, t.numel())
        return result


@pytest.mark.parametrize("causal", [False, True])
def test_never_builds_the_n_by_n_matrix(causal) -> None:
    batch, heads, n, d, block = 2, 2, 96, 4, 16
    q, k, v = random_qkv(((batch, heads), n, n, d, d), 9)
    mask = attnlib.padding_mask([n, n - 5], n).unsqueeze(1)  # (batch, 1, 1, n)
    with LargestTensor() as probe:
        chunked_attention(q, k, v, mask=mask, is_causal=causal, block_size=block)
    # the biggest tensor is the output or inputs (n·d per batch·head) or one block² score tile
    assert probe.largest <= batch * heads * max(n * d, block * block)
    with LargestTensor() as probe_readable:  # the probe does see the readable version's n² matrix
        sdpa(q, k, v, mask=mask)
    assert probe_readable.largest >= batch * heads * n * n


@pytest.mark.parametrize("name", ["q rank 1", "d_k mismatch", "n of k != n of v", "mask does not broadcast",
                                  "mask wrong dtype", "mask not an array", "no features", "mixed dtypes", "int dtype",
                                  "list input", "mixed backends", "NaN input", "inf input", "scale zero"])
def test_bad_input_gives_the_same_error_as_the_readable_attention(name) -> None:
    args = {
        "q rank 1": ((torch.randn(4), k3, v3), {}),
        "d_k mismatch": ((q3, torch.randn(2, 5, 3), v3), {}),
        "n of k != n of v": ((q3, k3, torch.randn(2, 4, 6)), {}),
        "mask does not broadcast": ((q3, k3, v3), {"mask": torch.ones(3, 3, dtype=torch.bool)}),
        "mask wrong dtype": ((q3, k3, v3), {"mask": torch.ones(3, 5, dtype=torch.int64)}),
        "mask not an array": ((q3, k3, v3), {"mask": [[True]]}),
        "no features": ((torch.randn(2, 3, 0), torch.randn(2, 5, 0), v3), {}),
        "mixed dtypes": ((q3.double(), k3, v3), {}),
        "int dtype": ((q3.long(), k3, v3), {}),
        "list input": (([[1.0]], k3, v3), {}),
        "mixed backends": ((q3, k3.numpy(), v3), {}),
        "NaN input": ((nan_q, k3, v3), {}),
        "inf input": ((q3, k3, v3 * float("inf")), {}),
        "scale zero": ((q3, k3, v3), {"scale": 0.0}),
    }[name]
    with pytest.raises((ValueError, TypeError)) as expected:
        sdpa(*args[0], **args[1])
    with pytest.raises(expected.type) as got:
        chunked_attention(*args[0], **args[1])
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize(
    ("kwargs", "exc", "needle"),
    [({"block_size": 0}, ValueError, "block_size must be > 0, got 0"),
     ({"block_size": -3}, ValueError, "-3"),
     ({"block_size": 2.5}, TypeError, "float"),
     ({"block_size": True}, TypeError, "bool"),
     ({"block_size": "8"}, TypeError, "str"),
     ({"is_causal": 1}, TypeError, "int")],
)
def test_bad_block_size_and_causal_raise_clear_errors(kwargs, exc, needle) -> None:
    with pytest.raises(exc, match=needle):
        chunked_attention(q3, k3, v3, **kwargs)


def test_numpy_input_is_rejected_with_a_pointer_to_the_twin() -> None:
    with pytest.raises(TypeError, match="ndarray"):
        chunked_attention(q3.numpy(), k3.numpy(), v3.numpy())


def test_scores_that_overflow_raise_instead_of_returning_nan() -> None:
    q = torch.full((1, 3, 4), 1e20)
    k = torch.full((1, 5, 4), 1e20)  # q·k = 4e40 overflows float32 to +inf
    with pytest.raises(ValueError, match="overflowed"):
        chunked_attention(q, k, torch.ones(1, 5, 2), block_size=2)
    with pytest.raises(ValueError):  # the readable attention refuses too
        sdpa(q, k, torch.ones(1, 5, 2))


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 20), split=st.data())
def test_online_softmax_update_by_hand_equals_softmax_then_v(seed, n, split) -> None:
    g = torch.Generator().manual_seed(seed)
    scores = torch.randn(2, n, generator=g, dtype=torch.float64) * 5  # (2 queries, n keys)
    v = torch.randn(n, 3, generator=g, dtype=torch.float64)  # (n, 3)
    cuts = sorted(set(split.draw(st.lists(st.integers(1, n), max_size=4)) + [n]))
    run_max = torch.full((2, 1), float("-inf"), dtype=torch.float64)
    run_sum = torch.zeros(2, 1, dtype=torch.float64)
    acc = torch.zeros(2, 3, dtype=torch.float64)
    start = 0
    for stop in cuts:
        run_max, run_sum, acc = attnlib.chunked.online_softmax_update(
            scores[:, start:stop].clone(), v[start:stop], run_max, run_sum, acc)
        start = stop
    torch.testing.assert_close(run_max, scores.amax(-1, keepdim=True), atol=0, rtol=0)
    torch.testing.assert_close(run_sum, torch.exp(scores - run_max).sum(-1, keepdim=True), atol=1e-12, rtol=0)
    torch.testing.assert_close(acc / run_sum, attnlib.softmax(scores) @ v, atol=1e-12, rtol=0)


def test_online_softmax_update_rejects_mismatched_state() -> None:
    upd = attnlib.chunked.online_softmax_update
    s, v = torch.zeros(2, 3), torch.zeros(3, 4)
    m, l, a = torch.zeros(2, 1), torch.zeros(2, 1), torch.zeros(2, 4)  # noqa: E741
    with pytest.raises(ValueError, match=r"v_blk \(4, 4\)"):
        upd(s, torch.zeros(4, 4), m, l, a)
    with pytest.raises(ValueError, match=r"acc must have shape \(\.\.\., 2, 4\).*got \(2, 3\)"):
        upd(s, v, m, l, torch.zeros(2, 3))
    with pytest.raises(TypeError, match="list"):
        upd(s, v, [0.0], l, a)


@pytest.mark.parametrize("block", [(1, 7), (8, 3), (50, 1), (4, 1000), (1000, 4)])
def test_a_block_size_pair_tiles_queries_and_keys_separately(block) -> None:
    q, k, v = random_qkv(((2, 2), 50, 37, 8, 5), 11, torch.float64)
    ref, _ = sdpa(q, k, v)
    torch.testing.assert_close(chunked_attention(q, k, v, block_size=block), ref, atol=1e-13, rtol=0)
    causal_ref, _ = sdpa(q, k, v, mask=tril(50, 37))
    torch.testing.assert_close(chunked_attention(q, k, v, is_causal=True, block_size=block), causal_ref,
                               atol=1e-13, rtol=0)


def test_a_tile_of_a_block_size_pair_is_queries_by_keys() -> None:
    batch, heads, n, d, (bq, bk) = 2, 2, 96, 4, (8, 32)
    q, k, v = random_qkv(((batch, heads), n, n, d, d), 12)
    with LargestTensor() as probe:
        chunked_attention(q, k, v, is_causal=True, block_size=(bq, bk))
    assert probe.largest <= batch * heads * max(n * d, bq * bk)


@pytest.mark.parametrize(
    ("block", "exc", "needle"),
    [((0, 4), ValueError, r"block_size\[0\] \(queries\) must be > 0, got 0"),
     ((4, -1), ValueError, r"block_size\[1\] \(keys\) must be > 0, got -1"),
     ((4, 2.5), TypeError, "float"),
     ((4,), ValueError, "got 1 numbers"),
     ((4, 4, 4), ValueError, "got 3 numbers"),
     ([4, 4], TypeError, "list")],
)
def test_bad_block_size_pairs_raise_clear_errors(block, exc, needle) -> None:
    with pytest.raises(exc, match=needle):
        chunked_attention(q3, k3, v3, block_size=block)


def test_without_autograd_the_buffered_loop_equals_the_autograd_one() -> None:
    q, k, v = random_qkv(((2, 3), 70, 45, 8, 6), 13, torch.float64)
    mask = random_mask((2, 3), 70, 45, 13, allow_empty_rows=True)
    with torch.no_grad():  # the score tiles go into one buffer
        buffered = chunked_attention(q, k, v, mask=mask, is_causal=True, block_size=(16, 8))
    q_, k_, v_ = (x.clone().requires_grad_() for x in (q, k, v))  # each tile a new tensor
    fresh = chunked_attention(q_, k_, v_, mask=mask, is_causal=True, block_size=(16, 8))
    torch.testing.assert_close(buffered, fresh.detach(), atol=1e-12, rtol=0)


def test_online_softmax_update_leaves_its_state_arguments_unchanged() -> None:
    g = torch.Generator().manual_seed(14)
    scores, v_blk = torch.randn(2, 3, 4, generator=g), torch.randn(4, 5, generator=g)
    run_max, run_sum, acc = torch.zeros(2, 3, 1), torch.ones(1, 3, 1), torch.randn(3, 5, generator=g)
    before = [x.clone() for x in (run_max, run_sum, acc)]
    new_max, new_sum, new_acc = attnlib.chunked.online_softmax_update(scores, v_blk, run_max, run_sum, acc)
    assert new_sum.shape == (2, 3, 1) and new_acc.shape == (2, 3, 5)  # broadcast as before
    for x, b in zip((run_max, run_sum, acc), before):
        assert torch.equal(x, b)
