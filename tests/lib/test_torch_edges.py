"""Inputs other projects pass to attention: attnlib gives torch's answer or a clear error, never a
silent wrong one. Each case compares with torch's own functions where torch defines the answer."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

import attnlib
from attnlib import decoding
from attnlib.chunked import chunked_attention

sdpa = attnlib.scaled_dot_product_attention


def _qkv(*shape_q: int, n_k: int | None = None, d_v: int = 5, seed: int = 0, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    *lead, n_q, d = shape_q
    n_k = n_q if n_k is None else n_k
    return (torch.randn(*lead, n_q, d, generator=g, dtype=dtype), torch.randn(*lead, n_k, d, generator=g, dtype=dtype),
            torch.randn(*lead, n_k, d_v, generator=g, dtype=dtype))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_finfo_min_mask_gives_torchs_uniform_row_in_both_attentions(dtype) -> None:
    """Hugging Face masks with torch.finfo(dtype).min: a row masked that way is torch's uniform average."""
    q, k, v = _qkv(2, 4, 6, dtype=dtype)
    mask = torch.zeros(4, 4, dtype=dtype)
    mask[1] = torch.finfo(dtype).min  # every key of query 1
    mask[2, :2] = torch.finfo(dtype).min  # two keys of query 2
    want = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert torch.allclose(want[:, 1], v.mean(dim=-2), atol=1e-6)
    for got in (chunked_attention(q, k, v, mask=mask, block_size=2), sdpa(q, k, v, mask=mask)[0]):
        assert torch.allclose(got, want, rtol=1e-5, atol=1e-6)


def test_a_learned_float_mask_gets_torchs_gradient_when_qkv_do_not_require_grad() -> None:
    q, k, v = _qkv(2, 5, 4)
    bias = torch.randn(5, 5, generator=torch.Generator().manual_seed(1), requires_grad=True)
    chunked_attention(q, k, v, mask=bias, block_size=2).square().sum().backward()
    ours, bias.grad = bias.grad.clone(), None
    F.scaled_dot_product_attention(q, k, v, attn_mask=bias).square().sum().backward()
    assert torch.allclose(ours, bias.grad, rtol=1e-5, atol=1e-6)


def test_scores_that_overflow_before_scaling_are_scaled_first_as_torch_does() -> None:
    big = torch.full((1, 2, 4), 1e19)
    v = torch.arange(4.0).reshape(1, 2, 2)
    want = F.scaled_dot_product_attention(big, big, v)
    assert torch.isfinite(want).all()
    for got in (sdpa(big, big, v)[0], chunked_attention(big, big, v)):
        assert torch.allclose(got, want)


def test_different_dtypes_are_refused_as_torch_refuses_them() -> None:
    q, k, v = _qkv(3, 4)
    with pytest.raises(RuntimeError):
        F.scaled_dot_product_attention(q.double(), k, v)
    for fn in (lambda: sdpa(q.double(), k, v), lambda: chunked_attention(q, k, v.double())):
        with pytest.raises(TypeError, match="same dtype"):
            fn()


@pytest.mark.parametrize(("n_q", "n_k"), [(0, 3), (3, 0), (0, 0)])
def test_zero_length_sequences_give_torchs_empty_or_zero_result(n_q, n_k) -> None:
    q, k, v = _qkv(2, n_q, 4, n_k=n_k)
    want = F.scaled_dot_product_attention(q, k, v)
    out, weights = sdpa(q, k, v)
    assert out.shape == want.shape == (2, n_q, 5) and weights.shape == (2, n_q, n_k)
    assert torch.equal(out, want) and torch.equal(chunked_attention(q, k, v), want)
    out_np, _ = sdpa(q.double().numpy(), k.double().numpy(), v.double().numpy())
    assert out_np.shape == (2, n_q, 5) and not out_np.any()


def test_unbatched_inputs_to_multihead_attention_as_torch_accepts_them() -> None:
    torch.manual_seed(0)
    ref = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    ours = attnlib.TorchCompatMultiHeadAttention(8, 2).load_from_torch(ref)
    x = torch.randn(5, 8)
    out, weights = ours(x, average_attn_weights=True)
    want, want_w = ref(x, x, x)
    assert out.shape == (5, 8) and torch.allclose(out, want, atol=1e-6) and torch.allclose(weights, want_w, atol=1e-6)
    assert ours(x)[1].shape == (2, 5, 5)  # every head, as the book shows them
    key_mask = torch.tensor([True, True, True, False, False])
    assert torch.allclose(ours(x, key_mask=key_mask)[0], ref(x, x, x, key_padding_mask=~key_mask)[0], atol=1e-6)


def test_a_float_key_mask_is_added_like_torchs_float_key_padding_mask() -> None:
    torch.manual_seed(0)
    ref = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    ours = attnlib.TorchCompatMultiHeadAttention(8, 2).load_from_torch(ref)
    x = torch.randn(2, 5, 8)
    bias = torch.randn(2, 5)
    bias[1, 3:] = float("-inf")
    want = ref(x, x, x, key_padding_mask=bias)[0]
    assert torch.allclose(ours(x, key_mask=bias)[0], want, atol=1e-6)
    causal = torch.ones(5, 5, dtype=torch.bool).tril()
    want = ref(x, x, x, key_padding_mask=bias, attn_mask=~causal)[0]
    assert torch.allclose(ours(x, key_mask=bias, mask=causal)[0], want, atol=1e-6)


def test_backward_through_the_kv_cache_equals_backward_through_one_causal_call() -> None:
    torch.manual_seed(0)
    mha = attnlib.MultiHeadAttention(8, 2).double()
    x = torch.randn(2, 6, 8, dtype=torch.float64, requires_grad=True)
    decoding.teacher_forced_cached(mha, x, prompt=2).square().sum().backward()
    cached = x.grad.clone(), [p.grad.clone() for p in mha.parameters()]
    x.grad = None
    mha.zero_grad()
    mha(x, is_causal=True)[0].square().sum().backward()
    assert torch.allclose(cached[0], x.grad, atol=1e-12)
    assert all(torch.allclose(a, p.grad, atol=1e-12) for a, p in zip(cached[1], mha.parameters()))


def test_a_batch_of_prompts_of_different_lengths_decodes_as_each_alone() -> None:
    """Left-padded prompts with a key mask: every real position gives what the prompt gives alone."""
    torch.manual_seed(0)
    mha = attnlib.MultiHeadAttention(8, 2).double()
    lengths, n = [6, 4, 2], 6
    alone = [torch.randn(1, m, 8, dtype=torch.float64) for m in lengths]
    batch = torch.zeros(3, n, 8, dtype=torch.float64)
    key_mask = torch.zeros(3, n, dtype=torch.bool)
    for b, (m, x) in enumerate(zip(lengths, alone)):
        batch[b, n - m:] = x[0]
        key_mask[b, n - m:] = True
    together = decoding.teacher_forced_cached(mha, batch, prompt=1, key_mask=key_mask)
    for b, (m, x) in enumerate(zip(lengths, alone)):
        assert torch.allclose(together[b, n - m:], decoding.teacher_forced_cached(mha, x)[0], atol=1e-12)
    cache = attnlib.KVCache(3, 2, 4, dtype=torch.float64)  # the same, one step at a time
    step = [mha.step(batch[:, i:i + 1], cache, key_mask=key_mask[:, :i + 1])[0] for i in range(n)]
    assert torch.allclose(torch.cat(step, dim=1)[key_mask], together[key_mask], atol=1e-12)


def test_the_cached_step_refuses_a_module_whose_keys_come_from_other_inputs() -> None:
    mha = attnlib.MultiHeadAttention(8, 2, kdim=4, vdim=4)
    with pytest.raises(ValueError, match="kdim == vdim == d_in"):
        mha.step(torch.randn(1, 1, 8), attnlib.KVCache(1, 2, 4))


def test_softmax_dim_out_of_range_names_the_dim_and_the_shape() -> None:
    with pytest.raises(ValueError, match=r"dim -4 is out of range for x of shape \(2, 3, 4\)"):
        attnlib.softmax(torch.zeros(2, 3, 4), dim=-4)
    assert torch.allclose(attnlib.softmax(torch.zeros(2, 3, 4), dim=-3), torch.full((2, 3, 4), 0.5))
