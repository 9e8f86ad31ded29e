"""attnlib.companions.scratch: the NumPy pipeline of document 003 and the recurrence of document 004, Part 3.

The manual gradient into W_V is checked against torch autograd (the chapter's gradient check)."""

from __future__ import annotations

import math

import hypothesis.strategies as st
import matplotlib
import numpy as np
import pytest
from hypothesis import given, settings

import attnlib
from attnlib.companions import examples, recurrence, scratch

matplotlib.use("Agg")


def _problem(seed: int, n: int = 5, d_model: int = 6, d_k: int = 3, d_out: int = 2):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d_model))
    w_q, w_k, w_v = scratch.init_projections(d_model, d_k, seed=rng)
    pred = scratch.LinearPredictor.random(d_k, d_out, seed=rng)
    target = rng.normal(size=d_out)
    return x, w_q, w_k, w_v, pred, target


# --- tokenizer, embedding, positions ---------------------------------------------------------------


def test_tokenizer_numbers_words_in_first_seen_order_and_round_trips() -> None:
    tok = scratch.Tokenizer.from_texts(examples.ORDER_SENTENCES)
    assert len(tok) == len(set(" ".join(examples.ORDER_SENTENCES).split()))
    for text in examples.ORDER_SENTENCES:
        ids = tok.encode(text)
        assert ids.dtype == np.int64
        assert tok.decode(ids) == text.split()
    first = examples.ORDER_SENTENCES[0].split()
    assert tok.encode(examples.ORDER_SENTENCES[0]).tolist() == list(range(len(first)))


def test_tokenizer_is_case_sensitive_like_the_documents() -> None:
    tok = scratch.Tokenizer.from_texts([examples.BANK_LOAN_SENTENCE])
    assert tok.vocab["The"] != tok.vocab["the"]


@pytest.mark.parametrize(
    ("call", "exc", "needle"),
    [
        (lambda t: t.encode("man bites a dog"), ValueError, "'bites'"),
        (lambda t: t.encode("   "), ValueError, "no words"),
        (lambda t: t.encode(3), TypeError, "int"),
        (lambda t: t.decode([0, 9]), ValueError, "[9]"),
        (lambda t: scratch.Tokenizer.from_texts("man scratches"), TypeError, "str"),
        (lambda t: scratch.Tokenizer([]), ValueError, "empty"),
        (lambda t: scratch.Tokenizer(["two words"]), ValueError, "'two words'"),
    ],
)
def test_tokenizer_errors_name_the_bad_input(call, exc, needle) -> None:
    tok = scratch.Tokenizer.from_texts(examples.ORDER_SENTENCES)
    with pytest.raises(exc) as info:
        call(tok)
    assert needle in str(info.value)


def test_unknown_word_message_lists_the_vocabulary() -> None:
    tok = scratch.Tokenizer.from_texts(examples.ORDER_SENTENCES)
    with pytest.raises(ValueError) as info:
        tok.encode("dog scratches a man")
    assert "'dog'" in str(info.value) and str(tok.words) in str(info.value)


def test_embedding_is_seeded_and_looks_up_rows() -> None:
    a = scratch.Embedding(5, 4, seed=3)
    b = scratch.Embedding(5, 4, seed=3)
    c = scratch.Embedding(5, 4, seed=4)
    assert np.array_equal(a.table, b.table) and not np.array_equal(a.table, c.table)
    x = a(np.array([4, 0, 4]))
    assert x.shape == (3, 4)
    assert np.array_equal(x[0], a.table[4]) and np.array_equal(x[0], x[2])
    for bad in ([5], [-1], [0.5], []):
        with pytest.raises(ValueError):
            a(bad)


@pytest.mark.parametrize(("n", "d"), [(1, 1), (4, 8), (7, 5), (50, 16)])
def test_sinusoidal_encoding_follows_its_formula(n: int, d: int) -> None:
    pe = scratch.sinusoidal_positional_encoding(n, d)
    assert pe.shape == (n, d)
    for p in range(n):
        for j in range(d):
            angle = p / 10000 ** ((j - j % 2) / d)
            assert math.isclose(pe[p, j], math.sin(angle) if j % 2 == 0 else math.cos(angle), abs_tol=1e-12)
    assert np.abs(pe).max() <= 1.0


def test_sinusoidal_positions_are_distinct() -> None:
    pe = scratch.sinusoidal_positional_encoding(64, 16)
    dist = np.linalg.norm(pe[:, None] - pe[None], axis=-1)  # (64, 64)
    assert dist[~np.eye(64, dtype=bool)].min() > 1e-3


def test_random_encoding_is_small_seeded_and_fixed_per_position() -> None:
    pe = scratch.random_positional_encoding(200, 16, seed=1, scale=0.1)
    assert np.array_equal(pe, scratch.random_positional_encoding(200, 16, seed=1, scale=0.1))
    assert 0.09 < pe.std() < 0.11
    with pytest.raises(ValueError, match="-0.1"):
        scratch.random_positional_encoding(3, 4, seed=1, scale=-0.1)
    with pytest.raises(TypeError, match="float"):
        scratch.random_positional_encoding(3, 4, seed=1.5)


# --- self-attention ---------------------------------------------------------------------------------


def test_self_attention_is_attnlib_attention_of_the_projections() -> None:
    x, w_q, w_k, w_v, _, _ = _problem(0)
    z, w = scratch.self_attention(x, w_q, w_k, w_v)
    ref_z, ref_w = attnlib.scaled_dot_product_attention_np(x @ w_q, x @ w_k, x @ w_v)
    assert z.dtype == np.float64
    np.testing.assert_allclose(z, ref_z, rtol=0, atol=1e-14)
    np.testing.assert_allclose(w, ref_w, rtol=0, atol=1e-14)
    np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(z, w @ (x @ w_v), atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 8))
def test_self_attention_is_permutation_equivariant(seed: int, n: int) -> None:
    x, w_q, w_k, w_v, _, _ = _problem(seed, n=n)
    perm = np.random.default_rng(seed).permutation(n)
    z, w = scratch.self_attention(x, w_q, w_k, w_v)
    z_p, w_p = scratch.self_attention(x[perm], w_q, w_k, w_v)
    np.testing.assert_allclose(z_p, z[perm], atol=1e-12)
    np.testing.assert_allclose(w_p, w[np.ix_(perm, perm)], atol=1e-12)


def test_positions_break_the_equivariance() -> None:
    x, w_q, w_k, w_v, _, _ = _problem(1)
    perm = np.array([4, 1, 2, 3, 0])
    pe = scratch.sinusoidal_positional_encoding(5, x.shape[1])
    z, _ = scratch.self_attention(x + pe, w_q, w_k, w_v)
    z_p, _ = scratch.self_attention(x[perm] + pe, w_q, w_k, w_v)
    assert not np.allclose(z_p, z[perm])


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (lambda x, q, k, v: (x[0], q, k, v), "(6,)"),
        (lambda x, q, k, v: (x, q[:4], k, v), "(4, 3)"),
        (lambda x, q, k, v: (x, q, k[:, :2], v), "(6, 2)"),
        (lambda x, q, k, v: (x.astype(int), q, k, v), "int64"),
        (lambda x, q, k, v: (x * np.nan, q, k, v), "NaN"),
        (lambda x, q, k, v: (x.tolist(), q, k, v), "list"),
    ],
)
def test_self_attention_rejects_bad_shapes(args, needle) -> None:
    x, w_q, w_k, w_v, _, _ = _problem(0)
    with pytest.raises((ValueError, TypeError)) as info:
        scratch.self_attention(*args(x, w_q, w_k, w_v))
    assert needle in str(info.value)


# --- predictor and gradients -----------------------------------------------------------------------


def test_predictor_backward_matches_finite_differences() -> None:
    rng = np.random.default_rng(7)
    pred = scratch.LinearPredictor(rng.normal(size=(4, 3)), rng.normal(size=3))
    z, y = rng.normal(size=4), rng.normal(size=3)
    g = pred.backward(z, y)
    eps = 1e-6
    fd = [(pred.loss(z + eps * e, y) - pred.loss(z - eps * e, y)) / (2 * eps) for e in np.eye(4)]
    np.testing.assert_allclose(g, fd, atol=1e-8)
    assert pred.loss(z, pred.forward(z)) == 0.0
    with pytest.raises(ValueError, match=r"\(5,\)"):
        pred.forward(np.ones(5))
    with pytest.raises(ValueError, match=r"\(2,\)"):
        pred.loss(z, np.ones(2))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("token", [0, 2, 4])
def test_manual_grad_w_v_equals_torch_autograd(seed: int, token: int) -> None:
    """The gradient check of "From scratch in NumPy": every link of the manual chain is exact."""
    x, w_q, w_k, w_v, pred, target = _problem(seed)
    _, grad, _ = scratch.manual_grad_w_v(x, w_q, w_k, w_v, pred, target, token=token)
    auto = scratch.autograd_grad_w_v(x, w_q, w_k, w_v, pred, target, token=token)
    assert np.abs(auto).max() > 1e-6  # a zero gradient would make the comparison empty
    np.testing.assert_allclose(grad.grad_w_v, auto, rtol=1e-10, atol=1e-12)


def test_manual_grad_on_the_chapter_demo_equals_autograd() -> None:
    d = scratch.build_demo(examples.ORDER_SENTENCES)
    _, grad, _ = scratch.manual_grad_w_v(d.x, d.w_q, d.w_k, d.w_v, d.predictor, d.target)
    auto = scratch.autograd_grad_w_v(d.x, d.w_q, d.w_k, d.w_v, d.predictor, d.target)
    np.testing.assert_allclose(grad.grad_w_v, auto, rtol=1e-10, atol=1e-12)


def test_value_gradient_links_have_the_documented_shapes_and_structure() -> None:
    x, w_q, w_k, w_v, pred, target = _problem(3)
    _, grad, weights = scratch.manual_grad_w_v(x, w_q, w_k, w_v, pred, target, token=1)
    assert grad.grad_z.shape == (3,) and grad.grad_v.shape == (5, 3) and grad.grad_w_v.shape == (6, 3)
    # dL/dV row j is the weight token 1 gives to word j times dL/dz
    np.testing.assert_allclose(grad.grad_v, weights[1][:, None] * grad.grad_z[None, :], atol=1e-15)
    assert np.linalg.matrix_rank(grad.grad_w_v) == 1
    with pytest.raises(ValueError, match="token"):
        scratch.value_gradient(x, weights, grad.grad_z, token=5)
    with pytest.raises(ValueError, match=r"\(4, 4\)"):
        scratch.value_gradient(x, weights[:4, :4], grad.grad_z)


def test_training_lowers_the_loss_and_only_moves_w_v_along_one_direction() -> None:
    d = scratch.build_demo(examples.ORDER_SENTENCES)
    w_v_before = d.w_v.copy()
    run = d.train(lr=0.1, steps=30)
    assert np.array_equal(d.w_v, w_v_before), "training must not modify the caller's W_V"
    assert run.losses.shape == (31,)
    assert run.losses[-1] < 0.1 * run.losses[0]
    assert np.all(np.diff(run.losses) < 0)
    assert np.array_equal(run.weights_start, run.weights_end)
    sv = run.delta_singular_values
    assert sv[0] > 0.1 and np.all(sv[1:] < 1e-10 * sv[0])
    assert math.isclose(run.relative_change, np.linalg.norm(run.delta) / np.linalg.norm(w_v_before))


def test_too_large_a_step_diverges_while_changing_w_v_more() -> None:
    d = scratch.build_demo(examples.ORDER_SENTENCES)
    good, bad = d.train(lr=0.1, steps=30), d.train(lr=0.25, steps=30)
    assert bad.losses[-1] > bad.losses[0] and bad.relative_change > good.relative_change


def test_build_demo_draws_in_the_documented_order() -> None:
    d = scratch.build_demo(examples.ORDER_SENTENCES, seed=5)
    rng = np.random.default_rng(5)
    table = scratch.Embedding(len(d.tokenizer), 8, seed=rng).table
    w_q, w_k, w_v = scratch.init_projections(8, 4, seed=rng)
    pe = scratch.sinusoidal_positional_encoding(len(d.ids), 8)
    np.testing.assert_array_equal(d.x, table[d.ids] + pe)
    np.testing.assert_array_equal(d.w_v, w_v)
    np.testing.assert_array_equal(d.predictor.weight, scratch.LinearPredictor.random(4, 3, seed=rng).weight)


# --- document 004, Part 3 -----------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 12), data=st.data())
def test_path_counts_agree_with_what_a_recurrence_can_see(n: int, data: st.DataObject) -> None:
    i = data.draw(st.integers(0, n - 2))
    j = data.draw(st.integers(i + 1, n - 1))
    tokens = [f"w{t}" for t in range(n)]
    c = recurrence.path_counts(tokens, tokens[i], tokens[j])
    assert (c.source, c.target, c.rnn_steps_total) == (i + 1, j + 1, n)
    assert c.rnn_path_length == j - i and len(c.rnn_intermediate_states) == j - i - 1
    # nudging the source word changes the hidden states from the source's position on, never before
    rng = np.random.default_rng(n)
    x = rng.normal(size=(n, 4))
    w_x, w_h = rng.normal(size=(2, 4, 4))
    h = recurrence.rnn_forward(x, w_x, w_h)
    x2 = x.copy()
    x2[i] += 1.0
    changed = np.abs(recurrence.rnn_forward(x2, w_x, w_h) - h).max(axis=1) > 0
    assert changed.tolist() == [t >= i for t in range(n)]
    assert changed.nonzero()[0][0] + 1 == c.rnn_chain[0]


def test_attention_reaches_any_word_in_one_step() -> None:
    """Nudging one word changes every output of a single attention layer: path length 1."""
    x, w_q, w_k, w_v, _, _ = _problem(2, n=9)
    z, _ = scratch.self_attention(x, w_q, w_k, w_v)
    x2 = x.copy()
    x2[1] += 1.0
    assert np.all(np.abs(scratch.self_attention(x2, w_q, w_k, w_v)[0] - z).max(axis=1) > 0)


def test_path_counts_errors() -> None:
    tokens = examples.BANK_LOAN_SENTENCE.split()
    with pytest.raises(ValueError, match="'river'"):
        recurrence.path_counts(tokens, "river", "it")
    with pytest.raises(ValueError, match="before"):
        recurrence.path_counts(tokens, "it", "bank")


def test_rnn_forward_first_state_and_shapes() -> None:
    rng = np.random.default_rng(0)
    x, w_x, w_h = rng.normal(size=(6, 3)), rng.normal(size=(3, 5)), rng.normal(size=(5, 5))
    h = recurrence.rnn_forward(x, w_x, w_h)
    assert h.shape == (6, 5)
    np.testing.assert_allclose(h[0], np.tanh(x[0] @ w_x))
    np.testing.assert_allclose(h[3], np.tanh(x[3] @ w_x + h[2] @ w_h))
    with pytest.raises(ValueError, match=r"\(5, 4\)"):
        recurrence.rnn_forward(x, w_x, w_h[:, :4])


def test_multiply_adds_count_the_matrix_products() -> None:
    def mm(a: int, b: int, c: int) -> int:  # an (a, b) @ (b, c) product
        return a * b * c

    for n, d in [(1, 1), (9, 4), (100, 32)]:
        counts = recurrence.multiply_adds(n, d)
        assert counts["rnn"] == n * (mm(1, d, d) + mm(1, d, d))
        assert counts["attention"] == 3 * mm(n, d, d) + mm(n, d, n) + mm(n, n, d)


def test_timing_returns_one_positive_row_per_length() -> None:
    rows = recurrence.time_sequential_vs_parallel([2, 5], d=4, repeats=1)
    assert [r.n for r in rows] == [2, 5]
    assert all(t > 0 for r in rows for t in r[1:])


# --- plot helpers of these chapters -------------------------------------------------------------------


def test_loss_curve_draws_the_losses_and_validates() -> None:
    from attnlib import plots

    ax = plots.loss_curve([1.0, 0.5, 0.2])
    assert len(ax.lines) == 1 and ax.lines[0].get_ydata().tolist() == [1.0, 0.5, 0.2]
    assert ax.lines[0].get_xdata().tolist() == [0, 1, 2] and ax.get_yscale() == "linear"
    assert plots.loss_curve([1.0, 0.1], logy=True).get_yscale() == "log"
    with pytest.raises(ValueError, match=r"\(1,\)"):
        plots.loss_curve([1.0])
    with pytest.raises(ValueError, match="NaN"):
        plots.loss_curve([1.0, np.nan])


def test_nudge_response_sees_the_recurrence_causality_and_the_attention_reach() -> None:
    rng = np.random.default_rng(4)
    x = rng.normal(size=(7, 5))
    w_x, w_h = rng.normal(0, 0.4, size=(2, 5, 5))
    w_q, w_k, w_v = scratch.init_projections(5, 5, seed=rng)
    r_rnn = recurrence.nudge_response(lambda a: recurrence.rnn_forward(a, w_x, w_h), x, 2)
    r_att = recurrence.nudge_response(lambda a: scratch.self_attention(a, w_q, w_k, w_v)[0], x, 2)
    assert np.all(r_rnn[:2] == 0) and np.all(r_rnn[2:] > 0)
    assert np.all(r_att > 0)
    # linear in the nudge: a smaller eps gives the same directional derivative
    r_small = recurrence.nudge_response(lambda a: recurrence.rnn_forward(a, w_x, w_h), x, 2, eps=1e-7)
    np.testing.assert_allclose(r_small, r_rnn, rtol=1e-3, atol=1e-9)
    with pytest.raises(ValueError, match="7"):
        recurrence.nudge_response(lambda a: a, x, 7)
