"""attnlib called the way PyTorch users call attention: the silent wrong answers of issue 14 are gone,
and every argument shared with ``F.scaled_dot_product_attention`` / ``nn.MultiheadAttention`` gives
torch's answer (outputs, float64 gradients; float32, float16, bfloat16; readable and chunked)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

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
    mine = attnlib.TorchCompatMultiHeadAttention(d, h, bias=kw.get("bias", True), kdim=kw.get("kdim"), vdim=kw.get("vdim"),
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
        attnlib.TorchCompatMultiHeadAttention(8, 2, bias=our_bias).load_from_torch(ref)


def test_load_from_torch_refuses_other_shapes_and_options() -> None:
    ref = torch.nn.MultiheadAttention(8, 2, batch_first=True, kdim=4)
    with pytest.raises(ValueError, match="kdim: torch 4 vs attnlib 8"):
        attnlib.TorchCompatMultiHeadAttention(8, 2).load_from_torch(ref)
    with pytest.raises(ValueError, match="batch_first"):
        attnlib.TorchCompatMultiHeadAttention(8, 2).load_from_torch(torch.nn.MultiheadAttention(8, 2))
    with pytest.raises(ValueError, match="add_bias_kv"):
        attnlib.TorchCompatMultiHeadAttention(8, 2).load_from_torch(torch.nn.MultiheadAttention(8, 2, batch_first=True,
                                                                                     add_bias_kv=True))
    with pytest.raises(ValueError, match="embed_dim vs d_out"):
        attnlib.TorchCompatMultiHeadAttention(8, 2, d_out=4).load_from_torch(torch.nn.MultiheadAttention(8, 2, batch_first=True))


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


# --- parity with torch for every argument they share --------------------------------------------------

TOL = {torch.float64: 1e-10, torch.float32: 2e-5, torch.float16: 2e-3, torch.bfloat16: 2e-2}
MASKS = {  # name: (shape of q's leading dims, mask builder given n_q, n_k)
    "none": lambda nq, nk, g: None,
    "bool (n_q, n_k)": lambda nq, nk, g: torch.rand(nq, nk, generator=g) > 0.3,
    "bool (n_k,)": lambda nq, nk, g: torch.arange(nk) < nk - 2,
    "bool (B, 1, 1, n_k)": lambda nq, nk, g: (torch.arange(nk) < torch.tensor([nk, 3])[:, None])[:, None, None],
    "float (H, 1, n_k) ALiBi-style": lambda nq, nk, g: -0.5 * torch.arange(3.0)[:, None, None] * torch.arange(nk),
    "float with -inf (n_q, n_k)": lambda nq, nk, g: torch.randn(nq, nk, generator=g).masked_fill(
        torch.rand(nq, nk, generator=g) > 0.7, float("-inf")).index_fill(1, torch.tensor([0]), 0.0),
}


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("mask_name", list(MASKS))
@pytest.mark.parametrize(("n_q", "n_k"), [(6, 6), (4, 9), (9, 4)])
def test_masks_broadcast_like_torch_attn_mask(dtype, mask_name, n_q, n_k) -> None:
    q, k, v = _qkv((2, 3, n_q, 8), (2, 3, n_k, 8), (2, 3, n_k, 5), seed=n_q * n_k, dtype=dtype)
    mask = MASKS[mask_name](n_q, n_k, torch.Generator().manual_seed(1))
    full = None if mask is None else mask.broadcast_to(2, 3, n_q, n_k)  # torch refuses masks of fewer than 2 dims
    want = F.scaled_dot_product_attention(q.double(), k.double(), v.double(), attn_mask=None if mask is None else
                                          full if full.dtype == torch.bool else full.double())
    fused = F.scaled_dot_product_attention(q, k, v, attn_mask=None if mask is None else
                                           full if full.dtype == torch.bool else full.to(dtype))
    mine, _ = sdpa(q, k, v, mask=mask)
    tiles = chunked(q, k, v, mask=mask, block_size=4)
    for got in (mine, tiles):
        assert got.dtype == dtype
        torch.testing.assert_close(got.double(), want, atol=TOL[dtype], rtol=TOL[dtype])
    torch.testing.assert_close(mine.double(), fused.double(), atol=2 * TOL[dtype], rtol=2 * TOL[dtype])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize(("n_q", "n_k"), [(7, 7), (3, 10), (10, 3)])
def test_is_causal_is_top_left_like_torch(dtype, n_q, n_k) -> None:
    q, k, v = _qkv((2, 2, n_q, 4), (2, 2, n_k, 4), (2, 2, n_k, 4), seed=5, dtype=dtype)
    want = F.scaled_dot_product_attention(q.double(), k.double(), v.double(), is_causal=True)
    mine, w = sdpa(q, k, v, is_causal=True)
    assert torch.equal(w[0, 0] > 0, attnlib.causal_mask(n_q, n_k))  # query i sees keys 0..i
    for got in (mine, chunked(q, k, v, is_causal=True, block_size=3)):
        torch.testing.assert_close(got.double(), want, atol=TOL[dtype], rtol=TOL[dtype])


def _causal_lower_right(n_q: int, n_k: int) -> object:
    """torch's bottom-right causal bias. Imported here, not at the top: torch.nn.attention.bias imports
    torch._dynamo (about 1.3 s), which every test process that collects this module would pay."""
    from torch.nn.attention.bias import causal_lower_right

    return causal_lower_right(n_q, n_k)


@pytest.mark.parametrize(("n_q", "n_k"), [(1, 9), (3, 10), (6, 6)])
def test_bottom_right_alignment_is_torch_causal_lower_right(n_q, n_k) -> None:
    q, k, v = _qkv((2, 2, n_q, 4), (2, 2, n_k, 4), (2, 2, n_k, 4), seed=6, dtype=torch.float64)
    want = F.scaled_dot_product_attention(q, k, v, attn_mask=_causal_lower_right(n_q, n_k))
    mine, w = sdpa(q, k, v, is_causal=True, causal_alignment="bottom_right")
    assert torch.equal(w[0, 0] > 0, attnlib.causal_mask(n_q, n_k, alignment="bottom_right"))
    assert bool(w[0, 0, -1].gt(0).all())  # the newest query sees every key: the whole cache
    tiles = chunked(q, k, v, is_causal=True, causal_alignment="bottom_right", block_size=4)
    for got in (mine, tiles):
        torch.testing.assert_close(got, want, atol=1e-12, rtol=0)


def test_bottom_right_with_more_queries_than_keys_gives_zero_rows_not_nan() -> None:
    q, k, v = _qkv((5, 4), (3, 4), (3, 2), seed=7, dtype=torch.float64)
    out, w = sdpa(q, k, v, is_causal=True, causal_alignment="bottom_right")
    assert torch.all(w[:2] == 0) and torch.all(out[:2] == 0)  # queries 0, 1 have no key in their past
    torch.testing.assert_close(chunked(q, k, v, is_causal=True, causal_alignment="bottom_right", block_size=2), out,
                               atol=1e-12, rtol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("h_kv", [1, 2, 4])
def test_enable_gqa_matches_torch(dtype, h_kv) -> None:
    q, k, v = _qkv((2, 4, 5, 8), (2, h_kv, 7, 8), (2, h_kv, 7, 3), seed=h_kv, dtype=dtype)
    want = F.scaled_dot_product_attention(q.double(), k.double(), v.double(), enable_gqa=True, is_causal=True)
    mine, w = sdpa(q, k, v, enable_gqa=True, is_causal=True)
    assert w.shape == (2, 4, 5, 7)
    for got in (mine, chunked(q, k, v, enable_gqa=True, is_causal=True, block_size=3)):
        torch.testing.assert_close(got.double(), want, atol=TOL[dtype], rtol=TOL[dtype])
    np_out, _ = attnlib.scaled_dot_product_attention_np(*(x.double().numpy() for x in (q, k, v)), enable_gqa=True,
                                                        is_causal=True)
    np.testing.assert_allclose(np_out, want.numpy(), atol=1e-12)


CASES_GRAD = {
    "plain": {},
    "bool mask": {"mask": torch.arange(6) < 4},
    "float mask": {"mask": -0.3 * torch.arange(6.0, dtype=torch.float64)},
    "causal top-left": {"is_causal": True},
    "causal bottom-right": {"is_causal": True, "causal_alignment": "bottom_right"},
    "gqa": {"enable_gqa": True},
}


@pytest.mark.parametrize("case", list(CASES_GRAD))
def test_float64_gradients_match_torch(case) -> None:
    kw = CASES_GRAD[case]
    h_kv = 1 if kw.get("enable_gqa") else 2
    base = _qkv((2, 2, 4, 5), (2, h_kv, 6, 5), (2, h_kv, 6, 3), seed=11, dtype=torch.float64)
    torch_kw = {"enable_gqa": kw.get("enable_gqa", False)}
    if "mask" in kw:
        torch_kw["attn_mask"] = kw["mask"][None]  # torch wants at least (n_q|1, n_k)
    if kw.get("causal_alignment") == "bottom_right":
        torch_kw["attn_mask"] = _causal_lower_right(4, 6)
    elif kw.get("is_causal"):
        torch_kw["is_causal"] = True
    upstream = torch.randn(2, 2, 4, 3, generator=torch.Generator().manual_seed(0), dtype=torch.float64)

    def grads(fn):
        xs = [x.clone().requires_grad_() for x in base]
        (fn(*xs) * upstream).sum().backward()
        return [x.grad for x in xs]

    want = grads(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, **torch_kw))
    for fn in (lambda q, k, v: sdpa(q, k, v, **kw)[0], lambda q, k, v: chunked(q, k, v, block_size=4, **kw)):
        for got, ref in zip(grads(fn), want):
            torch.testing.assert_close(got, ref, atol=1e-10, rtol=1e-9)


def test_dropout_is_reproducible_with_its_generator_and_scales_the_kept_weights() -> None:
    q, k, v = _qkv((2, 3, 40, 8), (2, 3, 50, 8), (2, 3, 50, 4), seed=3, dtype=torch.float64)
    plain_out, plain_w = sdpa(q, k, v)
    out_a, w_a = sdpa(q, k, v, dropout_p=0.25, generator=torch.Generator().manual_seed(7))
    out_b, w_b = sdpa(q, k, v, dropout_p=0.25, generator=torch.Generator().manual_seed(7))
    out_c, _ = sdpa(q, k, v, dropout_p=0.25, generator=torch.Generator().manual_seed(8))
    assert torch.equal(out_a, out_b) and torch.equal(w_a, w_b) and not torch.equal(out_a, out_c)
    kept = w_a != 0
    assert 0.70 < kept.double().mean().item() < 0.80  # 12 000 weights, p = 0.25 dropped
    torch.testing.assert_close(w_a[kept], plain_w[kept] / 0.75)  # survivors scaled by 1 / (1 - p)
    torch.testing.assert_close(out_a, w_a @ v)  # the output uses the dropped weights, as torch does
    torch.testing.assert_close(sdpa(q, k, v, dropout_p=0.0)[0], plain_out, atol=0, rtol=0)
    mask_np = np.random.default_rng(0)
    np_a, _ = attnlib.scaled_dot_product_attention_np(*(x.numpy() for x in (q, k, v)), dropout_p=0.25,
                                                      generator=mask_np)
    np_b, _ = attnlib.scaled_dot_product_attention_np(*(x.numpy() for x in (q, k, v)), dropout_p=0.25,
                                                      generator=np.random.default_rng(0))
    np.testing.assert_array_equal(np_a, np_b)


@pytest.mark.parametrize("average", [True, False])
def test_mha_need_weights_and_average_attn_weights_match_torch(average) -> None:
    ref, mine = _mha_pair(12, 4, seed=9)
    x = torch.randn(3, 5, 12)
    ref_out, ref_w = ref(x, x, x, average_attn_weights=average)
    out, w = mine(x, average_attn_weights=average)
    assert w.shape == ((3, 5, 5) if average else (3, 4, 5, 5))
    torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(w, ref_w, atol=1e-6, rtol=1e-5)
    out_none, w_none = mine(x, need_weights=False)
    assert w_none is None and torch.equal(out_none, out)


def test_mha_d_in_to_d_out_equals_the_formula_and_counts_parameters() -> None:
    torch.manual_seed(0)
    mha = attnlib.MultiHeadAttention(6, 2, d_out=8, bias=False)
    assert (mha.W_q.weight.shape, mha.W_o.weight.shape) == ((8, 6), (8, 8))
    x = torch.randn(2, 4, 6)
    out, w = mha(x, is_causal=True)
    assert out.shape == (2, 4, 8) and w.shape == (2, 2, 4, 4)
    q, k, v = (lin(x).reshape(2, 4, 2, 4).transpose(1, 2) for lin in (mha.W_q, mha.W_k, mha.W_v))  # (2, h, 4, 4)
    want = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(2, 4, 8)  # (2, 4, 8)
    torch.testing.assert_close(out, mha.W_o(want), atol=1e-6, rtol=1e-5)
    assert sum(p.numel() for p in mha.parameters()) == 3 * 6 * 8 + 8 * 8


def test_mha_dropout_acts_in_training_only_and_is_reproducible() -> None:
    torch.manual_seed(0)
    mha = attnlib.TorchCompatMultiHeadAttention(8, 2, dropout=0.5)
    x = torch.randn(2, 6, 8)
    eval_out, eval_w = mha.eval()(x)
    mha.train()
    a, w_a = mha(x, generator=torch.Generator().manual_seed(1))
    b, _ = mha(x, generator=torch.Generator().manual_seed(1))
    assert torch.equal(a, b) and not torch.allclose(a, eval_out)
    assert bool((w_a == 0).any()) and bool((eval_w > 0).all())
