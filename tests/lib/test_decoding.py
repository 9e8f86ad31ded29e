"""The KV cache of "Decoding: cross-attention and the KV cache": cached generation equals full
recomputation, the FLOP and byte formulas count what they say, and bad input is refused."""

from __future__ import annotations

import pytest
import torch

import attnlib
from attnlib import decoding
from attnlib.companions import cost


def _module(seed=0, d=16, h=4):
    torch.manual_seed(seed)
    return attnlib.MultiHeadAttention(d, h).eval()


@pytest.mark.parametrize("prompt", [1, 4, 9])
def test_cached_generation_equals_full_recomputation(prompt) -> None:
    mha = _module()
    x = torch.randn(2, 9, 16, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        cached = decoding.teacher_forced_cached(mha, x, prompt=prompt)
        full = decoding.teacher_forced_recomputed(mha, x)
        causal, _ = mha(x, is_causal=True)
    assert (cached - full).abs().max().item() <= 1e-6
    torch.testing.assert_close(full, causal, atol=1e-6, rtol=0)


def test_a_chunk_after_the_cache_needs_the_bottom_right_alignment() -> None:
    mha = _module(2)
    x = torch.randn(1, 7, 16, generator=torch.Generator().manual_seed(3))
    cache = attnlib.KVCache(1, 4, 4, capacity=7)
    mha.step(x[:, :4], cache)
    out, w = mha.step(x[:, 4:], cache)  # 3 queries over 7 keys
    assert w.shape == (1, 4, 3, 7) and cache.length == 7
    assert torch.equal(w[0, 0] > 0, attnlib.causal_mask(3, 7, alignment="bottom_right"))
    full, _ = mha(x, is_causal=True)
    torch.testing.assert_close(out, full[:, 4:], atol=1e-6, rtol=0)
    # top-left would let the first new query see only keys 0..0: a different (wrong) answer
    top_left = attnlib.causal_mask(3, 7)
    assert not torch.equal(top_left, attnlib.causal_mask(3, 7, alignment="bottom_right"))


def test_cache_writes_in_place_and_counts_its_bytes() -> None:
    cache = attnlib.KVCache(2, 3, 4, 5, capacity=10, dtype=torch.float64)
    k, v = cache.append(torch.ones(2, 3, 2, 4, dtype=torch.float64), torch.ones(2, 3, 2, 5, dtype=torch.float64))
    assert k.shape == (2, 3, 2, 4) and v.shape == (2, 3, 2, 5)
    storage = k.untyped_storage().data_ptr()
    k, _ = cache.append(torch.zeros(2, 3, 1, 4, dtype=torch.float64), torch.zeros(2, 3, 1, 5, dtype=torch.float64))
    assert k.untyped_storage().data_ptr() == storage and cache.length == 3  # no reallocation
    assert cache.nbytes == (2 * 3 * 3 * 4 + 2 * 3 * 3 * 5) * 8


def test_cache_grows_past_its_first_capacity_and_keeps_what_it_holds() -> None:
    cache = attnlib.KVCache(1, 2, 3, capacity=2)
    torch.manual_seed(0)
    ks, vs = torch.randn(1, 2, 7, 3), torch.randn(1, 2, 7, 3)
    for i in range(7):
        k, v = cache.append(ks[:, :, i:i + 1], vs[:, :, i:i + 1])
    assert cache.length == 7 and cache.capacity >= 7
    assert torch.equal(k, ks) and torch.equal(v, vs)
    k, _ = cache.append(torch.zeros(1, 2, 20, 3), torch.zeros(1, 2, 20, 3))  # more than doubling at once
    assert k.shape == (1, 2, 27, 3) and torch.equal(k[:, :, :7], ks)


def test_cache_keeps_a_float64_models_keys_exactly_and_refuses_another_dtype() -> None:
    torch.manual_seed(0)
    mha = attnlib.MultiHeadAttention(8, 2).double()
    x = torch.randn(2, 6, 8, dtype=torch.float64)
    full = mha(x, is_causal=True)[0]
    assert torch.allclose(decoding.teacher_forced_cached(mha, x, prompt=2), full, rtol=0, atol=1e-13)
    with pytest.raises(TypeError, match="float64"):
        attnlib.KVCache(1, 2, 4).append(torch.ones(1, 2, 1, 4, dtype=torch.float64),
                                         torch.ones(1, 2, 1, 4, dtype=torch.float64))
    with pytest.raises(TypeError, match="cache holds torch.float32"):
        mha.step(x[:, :1], attnlib.KVCache(2, 2, 4))


def test_cache_bytes_formula_and_gqa_sharing() -> None:
    mha_bytes = decoding.kv_cache_bytes(layers=12, kv_heads=12, n=1024, d_k=64)
    assert mha_bytes == 2 * 12 * 12 * 1024 * 64 * 4
    assert decoding.kv_cache_bytes(layers=12, kv_heads=4, n=1024, d_k=64) * 3 == mha_bytes  # GQA, 3 q heads per kv
    assert decoding.kv_cache_bytes(layers=12, kv_heads=1, n=1024, d_k=64) * 12 == mha_bytes  # MQA
    cache = attnlib.KVCache(1, 12, 64, capacity=1024)
    cache.append(torch.zeros(1, 12, 1024, 64), torch.zeros(1, 12, 1024, 64))
    assert cache.nbytes * 12 == mha_bytes  # one layer's cache, measured


def test_flops_per_token_formula() -> None:
    d, t = 64, 100
    assert decoding.decode_step_flops(t, d) == 8 * d * d + cost.attention_flops(1, 1, 1, t, d)
    assert decoding.decode_step_flops(t, d, cached=False) == 8 * t * d * d + cost.attention_flops(1, 1, t, t, d)
    ratio = decoding.decode_step_flops(1024, 512, cached=False) / decoding.decode_step_flops(1024, 512)
    assert ratio > 1000  # the cache removes a factor of about t


def test_cross_attention_has_n_q_different_from_n_k() -> None:
    torch.manual_seed(0)
    mha = attnlib.MultiHeadAttention(8, 2, kdim=6, vdim=6)
    target, source = torch.randn(1, 3, 8), torch.randn(1, 5, 6)
    out, w = mha(target, source, source)
    assert out.shape == (1, 3, 8) and w.shape == (1, 2, 3, 5)
    torch.testing.assert_close(w.sum(-1), torch.ones(1, 2, 3))


def test_gqa_cache_attends_with_enable_gqa() -> None:
    g = torch.Generator().manual_seed(0)
    cache = attnlib.KVCache(1, 2, 8, capacity=6)
    k, v = cache.append(torch.randn(1, 2, 6, 8, generator=g), torch.randn(1, 2, 6, 8, generator=g))
    q = torch.randn(1, 8, 1, 8, generator=g)  # 8 query heads share 2 cached kv heads
    out, _ = attnlib.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    want = torch.nn.functional.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    torch.testing.assert_close(out, want, atol=1e-6, rtol=0)
