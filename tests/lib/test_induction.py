"""The float64 twin of "Watch an induction head form" (attnlib.companions.induction): its hand-written
gradients equal torch autograd on random models, batches and ablations (hypothesis); the data keeps its
promises (the second copy repeats the first, lengths in range, the fixed option fixed); the measures are
head_scores' own; training is reproducible, bad settings get a message naming the value, and a diverging
run stops with its last finite weights. The page's JavaScript is held to this module by
tests/browser/test_induction_widget.py."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from attnlib.companions import head_scores, induction
from attnlib.companions.sampler import Mulberry32


def _autograd(w: dict[str, np.ndarray], tokens: np.ndarray, heads: int, keep: np.ndarray) -> tuple[float, dict]:
    """The same model in torch (float64), differentiated by autograd."""
    t = {k: torch.tensor(v, requires_grad=True) for k, v in w.items()}
    tok = torch.from_numpy(tokens)
    b, n = tok.shape
    d = w["embed"].shape[1]
    x = t["embed"][tok] + t["pos"]
    mask = torch.tril(torch.ones(n, n, dtype=torch.bool))
    for layer in range((len(w) - 3) // 4):
        q, k, v = ((x @ t[f"{m}{layer}"]).reshape(b, n, heads, d // heads).transpose(1, 2) for m in ("w_q", "w_k", "w_v"))
        a = torch.softmax((q @ k.transpose(-1, -2) / math.sqrt(d // heads)).masked_fill(~mask, float("-inf")), dim=-1)
        z = (a @ v) * torch.from_numpy(keep[layer])[None, :, None, None]
        x = x + z.transpose(1, 2).reshape(b, n, d) @ t[f"w_o{layer}"]
    logits = x @ t["unembed"]
    loss = torch.nn.functional.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), tok[:, 1:].reshape(-1))
    loss.backward()
    return float(loss.detach()), {k: v.grad.numpy() for k, v in t.items()}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), layers=st.integers(1, 2), heads=st.integers(1, 3), d_head=st.integers(1, 4),
       vocab=st.integers(2, 9), context=st.integers(4, 12), batch=st.integers(1, 4),
       scale=st.sampled_from([0.3, 1.0, 2.0]), off=st.integers(-1, 5))
@example(seed=362880, layers=2, heads=2, d_head=4, vocab=2, context=11, batch=2, scale=2.0, off=2)  # w_q1's grad 3e-8
def test_gradients_equal_autograd(seed, layers, heads, d_head, vocab, context, batch, scale, off) -> None:  # noqa: ANN001
    s = induction.check_settings({"layers": layers, "heads": heads, "d_model": heads * d_head, "vocab": vocab,
                                  "context": context, "repeat_min": 2, "repeat_max": context // 2, "seed": seed})
    w = {k: x * scale for k, x in induction.init_weights(s).items()}
    b = induction.draw_batch(Mulberry32(seed), batch, vocab, context, 2, context // 2)
    keep = np.ones((layers, heads))
    if 0 <= off < layers * heads:
        keep.flat[off] = 0.0  # a head switched off
    f = induction.forward(w, b.tokens, heads, keep)
    got = induction.backward(w, b.tokens, heads, f)
    loss, want = _autograd(w, b.tokens, heads, keep)
    assert abs(f["loss"] - loss) <= 1e-12 * max(1.0, loss)
    assert sorted(got) == sorted(want)
    # relative to the model's largest gradient: a weight whose gradient nearly cancels (1e-8 where the others
    # are near 1, behind a saturated softmax) holds only rounding-level digits relative to its own size
    scale_of = max(max(float(np.abs(g).max()) for g in want.values()), 1e-300)
    for name, g in want.items():
        assert np.abs(got[name] - g).max() <= 1e-10 * scale_of, (name, float(np.abs(got[name] - g).max() / scale_of))


def test_the_data_repeats_a_segment_of_random_length() -> None:
    b = induction.draw_batch(Mulberry32(5), 400, 32, 16, 3, 8)
    assert b.tokens.shape == (400, 16) and b.tokens.min() >= 0 and b.tokens.max() < 32
    assert set(b.length.tolist()) == set(range(3, 9)) and (b.start + 2 * b.length <= 16).all()
    for row, s, m in zip(b.tokens, b.start, b.length):
        assert (row[s + m: s + 2 * m] == row[s: s + m]).all()
    second, first = b.copies()
    assert (second.sum(axis=1) == b.length - 1).all() and (first.sum(axis=1) == b.length - 1).all()
    assert (b.second_copy().sum(axis=1) == b.length).all()
    fixed = induction.draw_batch(Mulberry32(5), 50, 32, 16, 8, 8)
    assert (fixed.length == 8).all() and (fixed.start == 0).all()  # a repeat of half the context: one place only


def test_the_measures_are_head_scores() -> None:
    s = induction.check_settings({"seed": 3})
    b = induction.draw_batch(Mulberry32(1), 8, s["vocab"], s["context"], 3, 8)
    f = induction.forward(induction.init_weights(s), b.tokens, s["heads"])
    got = induction.measure(f, b)
    a = torch.from_numpy(f["layers"][1]["a"])
    assert np.array_equal(got["prefix"][1], head_scores.prefix_matching_score(
        a, torch.from_numpy(b.tokens), torch.from_numpy(b.second_copy())).numpy())
    assert np.array_equal(got["previous"][1], head_scores.previous_token_score(a).numpy())
    second, _ = b.copies()
    assert got["second"] == pytest.approx(f["losses"][second[:, :-1]].mean(), rel=1e-15)


def test_training_is_reproducible_and_learns() -> None:
    short = {"steps": 30, "seed": 7}
    one, two = induction.train(short), induction.train(short)
    assert one.losses == two.losses and all(np.array_equal(one.weights[k], two.weights[k]) for k in one.weights)
    assert len(one.losses) == 31 and one.stopped is None
    assert np.mean(one.losses[-5:]) < one.losses[0]  # it learns the uniform guess at least
    other = induction.train({**short, "seed": 8})
    assert other.losses[0] != one.losses[0]


def test_stop_and_continue_give_the_run_of_one_go() -> None:
    settings_ = {"steps": 12, "seed": 2, "layers": 1}
    t = induction.Trainer(settings_).run(stop=lambda tr: tr.step == 5)
    assert t.step == 5
    t.run()
    whole = induction.train(settings_)
    assert t.losses == whole.losses and all(np.array_equal(t.weights[k], whole.weights[k]) for k in t.weights)


def test_a_runaway_learning_rate_stops_with_finite_weights() -> None:
    t = induction.train({"lr": 5.0, "steps": 40, "seed": 1})
    assert t.stopped is not None and "diverged" in t.stopped and "too large" in t.stopped
    assert all(np.isfinite(x).all() for x in t.weights.values())
    assert len(t.losses) < 41


@pytest.mark.parametrize(("bad", "text"), [
    ({"layers": 0}, "layers must be a whole number from 1 to 2, got 0"),
    ({"lr": 0}, "the learning rate must be a finite number > 0, got 0"),
    ({"lr": float("nan")}, "got nan"),
    ({"lr": "fast"}, "got 'fast'"),
    ({"vocab": 1}, "vocab must be a whole number from 2 to 64"),
    ({"repeat_max": 9}, "does not fit in a context of 16 tokens"),
    ({"repeat_min": 6, "repeat_max": 5}, "is longer than the longest"),
    ({"heads": 3}, "must split evenly into 3 heads"),
    ({"steps": "x" * 500}, "steps must be a whole number"),
    ({"colour": 1}, "unknown setting"),
])
def test_bad_settings_get_a_message(bad, text) -> None:  # noqa: ANN001
    with pytest.raises(ValueError) as err:
        induction.check_settings(bad)
    assert text in str(err.value) and len(str(err.value)) < 200


def test_crossing_needs_ten_steps_above() -> None:
    assert induction.crossing([0.1, 0.5, 0.1] + [0.5] * 10) == 3
    assert induction.crossing([0.5] * 9) is None
