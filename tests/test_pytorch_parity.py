"""attnlib called the way PyTorch users call attention: the silent wrong answers of issue 14 are gone,
and every argument shared with ``F.scaled_dot_product_attention`` / ``nn.MultiheadAttention`` gives
torch's answer (outputs, float64 gradients; float32, float16, bfloat16; readable and chunked)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right

import attnlib

sdpa = attnlib.scaled_dot_product_attention
chunked = attnlib.chunked_attention


def _qkv(*shapes, seed=0, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(*s, generator=g, dtype=torch.float64).to(dtype) for s in shapes]


# --- the four silent wrong answers ------------------------------------------------------------------


def _mha_pair(d, h, *, seed=0, **kw):
    torch.manual_seed(seed)
    ref = torch.nn.MultiheadAttention(d, h, **{"batch_first": True, **kw})
    mine = attnlib.MultiHeadAttention(d, h, bias=kw.get("bias", True), kdim=kw.get("kdim"), vdim=kw.get("vdim"),
                                      batch_first=kw.get("batch_first", True))
    return ref, mine.load_from_torch(ref)


def test_mha_batch_equal_to_heads_rejects_the_ambiguous_3d_mask_and_key_mask_matches_torch() -> None:
    ref, mine = _mha_pair(8, 2, seed=3)
    x = torch.randn(2, 5, 8)  # batch 2 == 2 heads: a (batch, 1, n) mask would broadcast onto the heads
    pad = attnlib.padding_mask([5, 2], 5)  # (2, 1, 5)
    with pytest.raises(ValueError, match="key_mask"):
        mine(x, mask=pad)
    with pytest.raises(ValueError, match=r"\(2, 5, 5\)"):
        mine(x, mask=pad.expand(2, 5, 5))  # (batch, n_q, n_k) is refused too
    ref_out, ref_w = ref(x, x, x, key_padding_mask=~pad[:, 0], average_attn_weights=False)
    for key_mask in (pad[:, 0], pad):  # (batch, n_k) and padding_mask's own (batch, 1, n_k)
        out, w = mine(x, key_mask=key_mask)
        torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=1e-5)
        torch.testing.assert_close(w, ref_w, atol=1e-6, rtol=1e-5)
    # key_mask together with a causal (n, n) mask and with a float mask
    causal = attnlib.causal_mask(5)
    ref_out, _ = ref(x, x, x, attn_mask=~causal, key_padding_mask=~pad[:, 0])
    torch.testing.assert_close(mine(x, mask=causal, key_mask=pad[:, 0])[0], ref_out, atol=1e-5, rtol=1e-5)
    bias = torch.randn(5, 5)
    float_padding = torch.zeros(2, 5).masked_fill(~pad[:, 0], float("-inf"))  # torch wants one mask type
    ref_out, _ = ref(x, x, x, attn_mask=bias, key_padding_mask=float_padding)
    torch.testing.assert_close(mine(x, mask=bias, key_mask=pad[:, 0])[0], ref_out, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize(("torch_bias", "our_bias"), [(False, True), (True, False)])
def test_load_from_torch_refuses_a_bias_mismatch(torch_bias, our_bias) -> None:
    ref = torch.nn.MultiheadAttention(8, 2, batch_first=True, bias=torch_bias)
    with pytest.raises(ValueError, match=f"bias: torch {torch_bias} vs attnlib {our_bias}"):
        attnlib.MultiHeadAttention(8, 2, bias=our_bias).load_from_torch(ref)


def test_load_from_torch_refuses_other_shapes_and_options() -> None:
    ref = torch.nn.MultiheadAttention(8, 2, batch_first=True, kdim=4)
    with pytest.raises(ValueError, match="kdim: torch 4 vs attnlib 8"):
        attnlib.MultiHeadAttention(8, 2).load_from_torch(ref)
    with pytest.raises(ValueError, match="batch_first"):
        attnlib.MultiHeadAttention(8, 2).load_from_torch(torch.nn.MultiheadAttention(8, 2))
    with pytest.raises(ValueError, match="add_bias_kv"):
        attnlib.MultiHeadAttention(8, 2).load_from_torch(torch.nn.MultiheadAttention(8, 2, batch_first=True,
                                                                                     add_bias_kv=True))
    with pytest.raises(ValueError, match="embed_dim vs d_out"):
        attnlib.MultiHeadAttention(8, 2, d_out=4).load_from_torch(torch.nn.MultiheadAttention(8, 2, batch_first=True))


@pytest.mark.parametrize("bias", [True, False])
def test_load_from_torch_with_kdim_vdim_copies_exactly(bias) -> None:
    ref, mine = _mha_pair(12, 3, seed=1, kdim=5, vdim=7, bias=bias)
    q_in, k_in, v_in = torch.randn(2, 4, 12), torch.randn(2, 6, 5), torch.randn(2, 6, 7)
    ref_out, ref_w = ref(q_in, k_in, v_in, average_attn_weights=False)
    out, w = mine(q_in, k_in, v_in)
    torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(w, ref_w, atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize("mask", [torch.tensor(True), torch.tensor(False), torch.tensor([True, False, True, True, False]),
                                  torch.tensor([0.5, -1.0, float("-inf"), 0.0, 2.0]), torch.tensor(-0.25)],
                         ids=["0-d True", "0-d False", "1-d bool", "1-d float", "0-d float"])
@pytest.mark.parametrize("is_causal", [False, True])
def test_chunked_accepts_every_mask_the_readable_path_accepts(mask, is_causal) -> None:
    q, k, v = _qkv((2, 3, 5, 4), (2, 3, 5, 4), (2, 3, 5, 6), dtype=torch.float64)
    want, _ = sdpa(q, k, v, mask=mask, is_causal=is_causal)
    got = chunked(q, k, v, mask=mask, is_causal=is_causal, block_size=2)
    torch.testing.assert_close(got, want, atol=1e-12, rtol=0)


def test_mha_batch_first_false_reads_sequence_first_like_torch() -> None:
    ref, mine = _mha_pair(8, 2, seed=2, batch_first=False)
    x = torch.randn(5, 3, 8)  # (L, N, E)
    ref_out, ref_w = ref(x, x, x, average_attn_weights=False)
    out, w = mine(x)
    assert out.shape == (5, 3, 8) and w.shape == (3, 2, 5, 5)
    torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(w, ref_w, atol=1e-6, rtol=1e-5)
