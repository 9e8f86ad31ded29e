"""Multi-head attention, masks and the masking conventions of "Attention in PyTorch" and
"Multi-head attention and the causal mask"."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

import attnlib
from attnlib import plots
from attnlib.companions import examples, heads
from attnlib.companions.foils import masked_fill_softmax


def _pair(d_model: int, h: int, seed: int, bias: bool = True):
    torch.manual_seed(seed)
    ref = torch.nn.MultiheadAttention(d_model, h, batch_first=True, bias=bias)
    return ref, attnlib.TorchCompatMultiHeadAttention(d_model, h, bias=bias).load_from_torch(ref)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), heads_=st.sampled_from([1, 2, 4, 8]),
       lengths=st.lists(st.integers(1, 6), min_size=1, max_size=3), bias=st.booleans())
def test_multi_head_matches_torch_with_padding_masks(seed, heads_, lengths, bias) -> None:
    n, d_model = max(lengths), 16
    ref, mine = _pair(d_model, heads_, seed, bias)
    x = torch.randn(len(lengths), n, d_model)
    pad = attnlib.padding_mask(lengths, n)  # (batch, 1, n), True = real token
    # torch: key_padding_mask is (batch, n) with True = ignore this key (the opposite sense)
    ref_out, ref_w = ref(x, x, x, key_padding_mask=~pad[:, 0], average_attn_weights=False)
    out, w = mine(x, mask=pad.unsqueeze(1))  # (batch, 1, 1, n) broadcasts over heads and queries
    torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(w, ref_w, atol=1e-6, rtol=1e-5)
    for b, length in enumerate(lengths):
        assert torch.all(w[b, :, :, length:] == 0)


def test_multi_head_matches_torch_cross_attention_and_causal_plus_padding() -> None:
    ref, mine = _pair(12, 3, 4)
    q_in, kv_in = torch.randn(2, 5, 12), torch.randn(2, 5, 12)
    lengths = [5, 3]
    pad = attnlib.padding_mask(lengths, 5)  # (2, 1, 5)
    both = pad[:, None] & attnlib.causal_mask(5)  # (2, 1, 5, 5)
    ref_out, ref_w = ref(q_in, kv_in, kv_in, attn_mask=~attnlib.causal_mask(5), key_padding_mask=~pad[:, 0],
                         average_attn_weights=False)
    out, w = mine(q_in, kv_in, kv_in, mask=both)
    torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(w, ref_w, atol=1e-6, rtol=1e-5)


def test_fully_padded_sequence_gives_zero_heads_where_torch_gives_nan() -> None:
    ref, mine = _pair(8, 2, 1)
    x = torch.randn(2, 4, 8)
    pad = attnlib.padding_mask([4, 0], 4)
    ref_out, _ = ref(x, x, x, key_padding_mask=~pad[:, 0])
    out, w = mine(x, mask=pad.unsqueeze(1))
    assert torch.isnan(ref_out[1]).all()  # torch.nn.MultiheadAttention: 0/0
    assert torch.all(w[1] == 0)
    # every head is 0, so the output is W_o applied to zeros: its bias, at every position
    torch.testing.assert_close(out[1], mine.W_o.bias.expand(4, 8))
    torch.testing.assert_close(out[0], ref_out[0], atol=1e-5, rtol=1e-5)


def test_per_head_formula_equals_the_fused_module() -> None:
    """Document 002's MultiHead = Concat(head_1..head_h) W_o with head_i = Attention(X W_q^i, ...):
    head i's projection is the i-th block of d_k output rows of the fused weight."""
    torch.manual_seed(3)
    d_model, h = 16, 4
    d_k = d_model // h
    mha = attnlib.MultiHeadAttention(d_model, h, bias=False)
    x = torch.randn(2, 6, d_model)
    out, _ = mha(x)
    head_outputs = []
    for i in range(h):
        rows = slice(i * d_k, (i + 1) * d_k)
        q = x @ mha.W_q.weight[rows].T  # (2, 6, d_k)
        k = x @ mha.W_k.weight[rows].T  # (2, 6, d_k)
        v = x @ mha.W_v.weight[rows].T  # (2, 6, d_k)
        head_outputs.append(attnlib.scaled_dot_product_attention(q, k, v)[0])
    concat = torch.cat(head_outputs, dim=-1)  # (2, 6, h * d_k)
    assert concat.shape[-1] == d_model
    torch.testing.assert_close(mha.W_o(concat), out, atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize("h", [1, 2, 4, 8])
def test_parameter_count_does_not_depend_on_the_number_of_heads(h) -> None:
    n_params = sum(p.numel() for p in attnlib.MultiHeadAttention(64, h).parameters())
    assert n_params == 4 * (64 * 64 + 64)


def test_causal_output_ignores_the_future() -> None:
    torch.manual_seed(5)
    mha = attnlib.MultiHeadAttention(8, 2)
    x = torch.randn(1, 6, 8)
    y = x.clone()
    y[0, 3:] = torch.randn(3, 8) * 10  # change every token from position 3 on
    mask = attnlib.causal_mask(6)
    out_x, w_x = mha(x, mask=mask)
    out_y, _ = mha(y, mask=mask)
    torch.testing.assert_close(out_x[0, :3], out_y[0, :3], atol=0, rtol=0)
    assert not torch.allclose(out_x[0, 3:], out_y[0, 3:])
    assert torch.all(w_x.triu(diagonal=1) == 0)
    _, w_free = mha(x)
    future = ~attnlib.causal_mask(6)  # (6, 6), True strictly above the diagonal
    assert torch.all(w_free[..., future] > 0)


def test_causal_attention_matches_torch_is_causal() -> None:
    g = torch.Generator().manual_seed(2)
    q, k, v = (torch.randn(2, 3, 7, 4, generator=g) for _ in range(3))
    out, _ = attnlib.scaled_dot_product_attention(q, k, v, mask=attnlib.causal_mask(7))
    torch.testing.assert_close(out, F.scaled_dot_product_attention(q, k, v, is_causal=True), atol=1e-6, rtol=1e-5)


def test_fill_value_conventions_on_a_fully_masked_row() -> None:
    g = torch.Generator().manual_seed(0)
    scores = torch.randn(3, 4, generator=g)
    keep = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 1], [0, 0, 0, 0]])
    w_big = masked_fill_softmax(scores, keep)  # document 004: -1e9
    w_inf = masked_fill_softmax(scores, keep.bool(), fill_value=float("-inf"))
    w_lib = attnlib.softmax(scores.masked_fill(keep == 0, float("-inf")))
    # partly masked rows: all three agree and masked keys get exactly 0
    for w in (w_big, w_inf, w_lib):
        assert torch.all(w[0, 2:] == 0)
        torch.testing.assert_close(w[:2], w_lib[:2])
    # the fully masked row: uniform, NaN, zeros
    torch.testing.assert_close(w_big[2], torch.full((4,), 0.25))
    assert torch.isnan(w_inf[2]).all()
    assert torch.all(w_lib[2] == 0)


def test_masked_fill_softmax_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="float32"):
        masked_fill_softmax(torch.zeros(2, 3), torch.ones(2, 3))
    with pytest.raises(ValueError, match=r"\(4,\)"):
        masked_fill_softmax(torch.zeros(2, 3), torch.ones(4, dtype=torch.bool))
    with pytest.raises(TypeError, match="list"):
        masked_fill_softmax(torch.zeros(2, 3), [[1, 1, 1]])


def test_untrained_head_weights_are_seeded_rows_of_probabilities() -> None:
    state = torch.get_rng_state()
    w = heads.untrained_head_weights(examples.QUICK_FOX_TOKENS, d_model=32, num_heads=8, seed=0)
    assert torch.equal(torch.get_rng_state(), state)  # the global RNG is left alone
    assert w.shape == (8, 9, 9)
    torch.testing.assert_close(w.sum(-1), torch.ones(8, 9))
    assert torch.equal(w, heads.untrained_head_weights(examples.QUICK_FOX_TOKENS, seed=0))
    assert not torch.equal(w, heads.untrained_head_weights(examples.QUICK_FOX_TOKENS, seed=1))
    assert not torch.allclose(w[0], w[1])  # heads differ (by chance: nothing is trained)
    with pytest.raises(ValueError, match="tokens"):
        heads.untrained_head_weights("fox")


def test_published_sizes_share_d_k_64() -> None:
    for sizes in examples.PUBLISHED_SIZES.values():
        assert sizes["d_model"] // sizes["num_heads"] == 64
    s = examples.WALKTHROUGH_SIZES
    assert s["d_model"] // 8 == s["d_k"]


def test_plot_helpers_return_axes_and_reject_bad_shapes() -> None:
    g = torch.Generator().manual_seed(0)
    ax = plots.batch_diagram(torch.randn(2, 3, 4, generator=g), [["a", "b", "c"], ["d", "e", "f"]])
    assert len(ax.patches) == 4 + 3 * 4 + 2 * 3 * 4  # token + sequence + batch cells
    with pytest.raises(ValueError, match=r"\(2, 3\)"):
        plots.batch_diagram(np.zeros((2, 3)), [["a"] * 3] * 2)
    with pytest.raises(ValueError, match="tokens"):
        plots.batch_diagram(np.zeros((2, 3, 4)), [["a"] * 3])
    axes = plots.heatmap_grid(np.full((3, 2, 2), 0.5), ncols=2)
    assert len(axes) == 4 and not axes[3].get_visible()
    assert [a.get_title() for a in axes[:3]] == ["head 1", "head 2", "head 3"]
    with pytest.raises(ValueError, match=r"\(2, 2\)"):
        plots.heatmap_grid(np.zeros((2, 2)))
    plt.close("all")


def test_the_forward_a_chapter_shows_is_short_and_checked_once() -> None:
    """MultiHeadAttention.forward reads as the chapter teaches it: at most 7 parameters and 16 body lines,
    one check at the door, a shape comment on every reshape (in the work behind it too); torch's options
    live in the subclass."""
    import ast
    import inspect
    import textwrap

    fn = ast.parse(textwrap.dedent(inspect.getsource(attnlib.MultiHeadAttention.forward))).body[0]
    params = [a.arg for a in fn.args.args + fn.args.kwonlyargs if a.arg != "self"]
    assert len(params) <= 7, params
    body = fn.body[1:] if isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant) else fn.body
    lines = inspect.getsource(attnlib.MultiHeadAttention.forward).splitlines()
    first, last = body[0].lineno - 1, body[-1].end_lineno
    assert last - first <= 16, last - first
    code = lines[first:last]
    assert sum("_check(" in ln for ln in code) == 1
    assert all("#" in ln for ln in code if ".reshape(" in ln or ".transpose(" in ln)
    # the work behind the door (the blocks of a model call it directly): no check, a shape comment on every reshape
    for work in (attnlib.MultiHeadAttention.forward_unchecked, attnlib.MultiHeadAttention.step_unchecked):
        code = inspect.getsource(work).splitlines()
        assert not any("_check(" in ln or "_check_step(" in ln or "require_" in ln for ln in code), work.__name__
        assert all("#" in ln for ln in code if ".reshape(" in ln or ".transpose(" in ln), work.__name__
    assert not {"need_weights", "batch_first", "average_attn_weights"} & set(params)
    assert issubclass(attnlib.TorchCompatMultiHeadAttention, attnlib.MultiHeadAttention)
