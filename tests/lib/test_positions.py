"""Positions ("Where words are: positions"): the sinusoidal table and RoPE against the papers'
formulas written out here independently, RoPE against complex numbers, the relative-position
property on random inputs, the two layouts, MultiHeadAttention(rope=True) with and without a KV
cache, and the chapter's echo model."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import attnlib
from attnlib.companions import order
from attnlib.positions import apply_rope, frequencies, sinusoidal_table


def test_sinusoidal_table_is_the_formula_of_vaswani_et_al() -> None:
    """PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)),
    written entry by entry with Python's math module."""
    n, d = 11, 8
    table = sinusoidal_table(n, d)
    assert table.shape == (n, d) and table.dtype == torch.float64
    for pos in range(n):
        for i in range(d // 2):
            angle = pos / 10000 ** (2 * i / d)
            assert table[pos, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-15)
            assert table[pos, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-15)


def test_frequencies_are_the_papers_thetas() -> None:
    """RoFormer's θ_i = 10000^(-2(i-1)/d), i = 1..d/2: the first pair turns one radian per position."""
    d = 12
    want = [10000 ** (-2 * (i - 1) / d) for i in range(1, d // 2 + 1)]
    np.testing.assert_allclose(frequencies(d).numpy(), want, rtol=1e-15)
    assert frequencies(d)[0].item() == 1.0


def _rope_complex(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """RoPE as in the paper's complex form: pair (x_2i, x_2i+1) is the number x_2i + i·x_2i+1,
    multiplied by e^(i·m·θ_i)."""
    d = x.shape[-1]
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)  # (d/2,)
    z = x[..., 0::2] + 1j * x[..., 1::2]  # (..., n, d/2)
    z = z * np.exp(1j * positions[..., None] * theta)  # (..., n, d/2)
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = z.real, z.imag
    return out


def test_rope_equals_multiplying_by_a_complex_phase() -> None:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(2, 3, 7, 10, generator=g, dtype=torch.float64)  # (batch, heads, n, d)
    pos = np.array([0, 1, 2, 5, 9, 40, 1000])
    got = apply_rope(x, pos)
    np.testing.assert_allclose(got.numpy(), _rope_complex(x.numpy(), pos.astype(float)), rtol=1e-12, atol=1e-12)


def test_rope_is_the_papers_rotation_matrix_block_by_block() -> None:
    """RoFormer eq. (15): R^d_{Θ,m} x with 2×2 blocks [[cos mθ_i, -sin mθ_i], [sin mθ_i, cos mθ_i]]."""
    d, m = 6, 3
    x = torch.arange(1.0, d + 1, dtype=torch.float64)[None]  # (1, d)
    big = torch.zeros(d, d, dtype=torch.float64)
    for i in range(d // 2):
        a = m * 10000 ** (-2 * i / d)
        big[2 * i:2 * i + 2, 2 * i:2 * i + 2] = torch.tensor([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]],
                                                          dtype=torch.float64)
    torch.testing.assert_close(apply_rope(x, [m])[0], big @ x[0], rtol=0, atol=1e-14)


def test_position_zero_leaves_a_vector_alone_and_rotation_keeps_its_length() -> None:
    x = torch.randn(5, 8, dtype=torch.float64)
    assert torch.equal(apply_rope(x, [0] * 5), x)
    torch.testing.assert_close(apply_rope(x, [3, 1, 4, 1, 5]).norm(dim=-1), x.norm(dim=-1))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), half=st.integers(1, 16), m=st.integers(0, 500), n=st.integers(0, 500),
       shift=st.integers(0, 10_000), layout=st.sampled_from(["interleaved", "halves"]))
def test_the_score_depends_only_on_the_offset(seed, half, m, n, shift, layout) -> None:  # noqa: ANN001
    """q_m · k_n = q_(m+s) · k_(n+s) for random q, k, positions and shifts, in both layouts."""
    g = torch.Generator().manual_seed(seed)
    q, k = torch.randn(2, 1, 2 * half, generator=g, dtype=torch.float64)  # (1, d) each
    score = (apply_rope(q, [m], layout=layout) * apply_rope(k, [n], layout=layout)).sum()
    moved = (apply_rope(q, [m + shift], layout=layout) * apply_rope(k, [n + shift], layout=layout)).sum()
    assert abs(score.item() - moved.item()) <= 1e-9 * (1 + q.norm().item() * k.norm().item())


def test_the_layouts_agree_up_to_the_order_of_the_features() -> None:
    """"halves" on features reordered as (x_0, x_2, ..., x_1, x_3, ...) is "interleaved" reordered the same
    way, so both layouts give the same scores."""
    d = 8
    perm = torch.cat([torch.arange(0, d, 2), torch.arange(1, d, 2)])  # interleaved index -> halves order
    x = torch.randn(3, 6, d, dtype=torch.float64)
    pos = torch.tensor([0, 2, 4, 7, 8, 30])
    inter = apply_rope(x, pos, layout="interleaved")
    halves = apply_rope(x[..., perm], pos, layout="halves")
    torch.testing.assert_close(halves, inter[..., perm], rtol=0, atol=1e-14)
    torch.testing.assert_close(halves @ halves.transpose(-2, -1), inter @ inter.transpose(-2, -1), rtol=0, atol=1e-12)


def test_apply_rope_on_numpy_and_batched_positions() -> None:
    x = np.random.default_rng(0).normal(size=(2, 4, 6))
    pos = np.array([[0, 1, 2, 3], [5, 6, 7, 8]])
    out = apply_rope(x, pos)
    assert isinstance(out, np.ndarray) and out.shape == x.shape
    np.testing.assert_allclose(out, _rope_complex(x, pos.astype(float)), atol=1e-12)
    np.testing.assert_allclose(apply_rope(x, [0.0, 1.0, 2.0, 3.0]), apply_rope(x, None))  # whole floats are accepted


@pytest.mark.parametrize(("args", "kwargs", "exc", "needle"), [
    ((torch.randn(4, 5),), {}, ValueError, "d=5"),
    ((torch.randn(4, 6), [0, 1, 2]), {}, ValueError, "(3,)"),
    ((torch.randn(4, 6), [0, 1, -2, 3]), {}, ValueError, "-2"),
    ((torch.randn(4, 6), [0, 1, 2.5, 3]), {}, ValueError, "2.5"),
    ((torch.randn(4, 6), torch.tensor([True, False, True, True])), {}, TypeError, "torch.bool"),
    ((torch.randn(4, 6), "0123"), {}, TypeError, "str"),
    ((torch.randn(4, 6),), {"layout": "split"}, ValueError, "'split'"),
    ((torch.ones(4, 6, dtype=torch.int64),), {}, ValueError, "torch.int64"),
    (([[1.0, 2.0]],), {}, TypeError, "list"),
    ((torch.randn(6),), {}, ValueError, "(6,)"),
    ((torch.full((2, 4), float("nan")),), {}, ValueError, "NaN"),
])
def test_bad_input_to_apply_rope(args, kwargs, exc, needle) -> None:  # noqa: ANN001
    with pytest.raises(exc) as info:
        apply_rope(*args, **kwargs)
    assert needle in str(info.value), str(info.value)


@pytest.mark.parametrize(("fn", "exc", "needle"), [
    (lambda: sinusoidal_table(4, 7), ValueError, "d=7"),
    (lambda: sinusoidal_table(0, 8), ValueError, "0"),
    (lambda: frequencies(8, base=-1.0), ValueError, "-1.0"),
    (lambda: attnlib.MultiHeadAttention(12, 4, rope=True), ValueError, "d_k=3"),
    (lambda: attnlib.MultiHeadAttention(8, 2)(torch.randn(1, 3, 8), positions=[0, 1, 2]), ValueError, "rope=True"),
    (lambda: attnlib.MultiHeadAttention(8, 2, rope=True)(torch.randn(1, 3, 8), positions=[0, 1]), ValueError, "(2,)"),
    (lambda: attnlib.TorchCompatMultiHeadAttention(8, 2, rope=True).load_from_torch(torch.nn.MultiheadAttention(8, 2, batch_first=True)),
     ValueError, "rope: torch False vs attnlib True"),
    (lambda: order.PositionModel(8, 8, "relative", max_len=4), ValueError, "'relative'"),
    (lambda: order.PositionModel(8, 8, "learned", max_len=4)(torch.zeros(1, 5, dtype=torch.long)), ValueError, "5 tokens"),
])
def test_bad_input_to_the_position_schemes(fn, exc, needle) -> None:  # noqa: ANN001
    with pytest.raises(exc) as info:
        fn()
    assert needle in str(info.value), str(info.value)


def test_multi_head_attention_with_rope_rotates_every_heads_queries_and_keys() -> None:
    torch.manual_seed(0)
    mha = attnlib.MultiHeadAttention(8, 2, rope=True).double()
    x = torch.randn(2, 5, 8, dtype=torch.float64)
    out, w = mha(x)
    q = apply_rope(mha.W_q(x).reshape(2, 5, 2, 4).transpose(1, 2))  # (batch, h, n, d_k)
    k = apply_rope(mha.W_k(x).reshape(2, 5, 2, 4).transpose(1, 2))
    want = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(mha.d_k), dim=-1)
    torch.testing.assert_close(w, want)
    # shifting every position by the same amount changes nothing; without rope the module is unchanged
    out2, w2 = mha(x, positions=torch.arange(5) + 17)
    torch.testing.assert_close(w2, w)
    torch.testing.assert_close(out2, out)
    plain = attnlib.MultiHeadAttention(8, 2).double()
    plain.load_state_dict(mha.state_dict())
    assert not torch.allclose(plain(x)[1], w)


def test_the_kv_cache_rotates_each_new_token_at_its_own_position() -> None:
    torch.manual_seed(1)
    mha = attnlib.MultiHeadAttention(8, 2, rope=True).double()
    x = torch.randn(1, 6, 8, dtype=torch.float64)
    full, _ = mha(x, is_causal=True)
    cache = attnlib.KVCache(1, 2, 4, capacity=6, dtype=torch.float64)
    parts = [mha.step(x[:, :2], cache)[0]] + [mha.step(x[:, i:i + 1], cache)[0]
                                                            for i in range(2, 6)]
    torch.testing.assert_close(torch.cat(parts, dim=1), full)


def test_echo_data_and_a_model_without_positions() -> None:
    batch = order.echo_batch(3, 7, vocab=5, shift=2, seed=0)
    assert batch.tokens.shape == (3, 7) and bool((batch.targets[:, :2] == order.IGNORE).all())
    assert torch.equal(batch.targets[:, 2:], batch.tokens[:, :-2])
    assert torch.equal(order.echo_batch(3, 7, vocab=5, shift=2, seed=0).tokens, batch.tokens)
    # without positions the attention is permutation-equivariant: shuffling the tokens shuffles the logits
    torch.manual_seed(0)
    model = order.PositionModel(5, 8, "none", max_len=8).double()
    perm = torch.tensor([3, 0, 6, 1, 5, 2, 4])
    logits, _ = model(batch.tokens)
    shuffled, _ = model(batch.tokens[:, perm])
    torch.testing.assert_close(shuffled, logits[:, perm])


def test_a_short_training_run_is_seeded_and_records_its_hyperparameters() -> None:
    a = order.train_echo("rope", seed=1, steps=5)
    b = order.train_echo("rope", seed=1, steps=5)
    assert a.losses == b.losses and a.losses[-1] < a.losses[0]
    assert a.hyperparameters["scheme"] == "rope" and a.hyperparameters["steps"] == 5
    assert 0.0 <= order.echo_accuracy(a.model, order.echo_batch(4, 20, vocab=12, shift=2, seed=9)) <= 1.0
