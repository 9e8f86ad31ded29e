"""Chapter 21's companion (attnlib.companions.real_text) and TinyLM's rotary positions."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from attnlib.companions import real_text as rt
from attnlib.transformer import TinyLM


def _rope_model(seed: int = 0) -> TinyLM:
    torch.manual_seed(seed)
    return TinyLM(11, d_model=16, num_heads=2, d_ff=32, n_layers=2, context=24, rope=True).double().eval()


def test_rope_tinylm_has_no_position_table_and_turns_every_block():
    model = _rope_model()
    assert model.pos is None and "pos.weight" not in model.state_dict()
    assert all(b.attn.rope for b in model.blocks)
    plain = TinyLM(11, d_model=16, num_heads=2, d_ff=32, context=24)
    assert plain.pos is not None and not any(b.attn.rope for b in plain.blocks)
    with pytest.raises(ValueError, match="rotary"):
        model.blocks[0].to_torch()


def test_rope_tinylm_order_matters_and_cached_steps_equal_forward():
    model = _rope_model()
    ids = torch.tensor([[1, 2, 3, 4, 5, 6, 7, 8]])
    logits, _ = model(ids)
    swapped, _ = model(ids[:, [1, 0, 2, 3, 4, 5, 6, 7]])
    assert (logits[0, 2:] - swapped[0, 2:]).abs().max() > 1e-6  # positions are seen: the order changes the rest
    caches = model.new_caches(1, capacity=8)
    steps = [model.step(ids[:, t:t + 1], caches, positions=torch.tensor([[t]]))[0] for t in range(8)]
    assert torch.allclose(torch.cat(steps, dim=1), logits, rtol=0, atol=1e-12)


def test_chars_round_trip_and_unknown_characters_named():
    chars = rt.Chars("to be, or not")
    assert chars.decode(chars.encode("not to be")) == "not to be"
    assert len(chars) == len(set("to be, or not"))
    with pytest.raises(ValueError, match="never uses: '!Z'"):
        chars.encode("be!Z")


def test_ngram_probabilities_sum_to_one_and_bits_are_the_mean_of_prob():
    train = "the cat sat on the mat; the rat ate the hat."
    vocab = sorted(set(train + "xq"))
    text = "the rat sat; xq the"  # with characters and contexts the training text never has
    for order in (1, 2, 4):
        model = rt.NGram(train, order, vocab)
        for history in ("", "t", "the", " th", "qqq", "xthe"):
            assert math.isclose(sum(model.prob(history, c) for c in vocab), 1.0, rel_tol=1e-12)
        by_hand = -np.mean([math.log2(model.prob(text[:i], text[i])) for i in range(1, len(text))])
        assert math.isclose(model.bits_per_char(text), by_hand, rel_tol=1e-12)
    uni = rt.NGram(train, 1, vocab)
    assert math.isclose(uni.prob("tha", "t"), (train.count("t") + 1) / (len(train) + len(vocab)))
    # a longer history can only help on the training text itself
    assert rt.NGram(train, 4, vocab).bits_per_char(train) < rt.NGram(train, 2, vocab).bits_per_char(train) \
        < uni.bits_per_char(train)
    assert rt.NGram(train, 2, vocab).prob("t", "h") > rt.NGram(train, 1, vocab).prob("t", "h")


def test_split_keeps_the_end_apart():
    train, held = rt.split("abcdefghij", 0.2)
    assert (train, held) == ("abcdefgh", "ij")
    with pytest.raises(ValueError):
        rt.split("abc", 1.0)


def test_ablate_zeroes_one_head_and_is_undone():
    model = _rope_model()
    ids = torch.tensor([[1, 2, 3, 1, 2, 3, 4]])
    before, _ = model(ids)
    with rt.ablate(model, 1, 0):
        ablated, _ = model(ids)
    after, _ = model(ids)
    assert torch.equal(before, after) and (ablated - before).abs().max() > 1e-6
    # the same as W_o without that head's columns
    attn = model.blocks[1].attn
    with torch.no_grad():
        saved = attn.W_o.weight.clone()
        attn.W_o.weight[:, :attn.d_k] = 0
        by_hand, _ = model(ids)
        attn.W_o.weight.copy_(saved)
    assert torch.allclose(ablated, by_hand, rtol=0, atol=1e-12)


def test_stream_within_the_cache_equals_the_forward_pass():
    model = _rope_model()
    ids = torch.randint(11, (3, 20), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        logits, _ = model(ids)
    full = torch.nn.functional.cross_entropy(logits[:, :-1].transpose(1, 2), ids[:, 1:], reduction="none").numpy()
    for how in (rt.Stream(window=24), rt.Stream(window=20, sinks=4), rt.Stream(window=24, recompute=True)):
        np.testing.assert_allclose(rt.stream_loss(model, ids, how), full, rtol=0, atol=1e-10)
    # a window shorter than the stream forgets: the losses differ after it fills
    short = rt.stream_loss(model, ids, rt.Stream(window=4))
    np.testing.assert_allclose(short[:, :4], full[:, :4], rtol=0, atol=1e-10)
    assert np.abs(short[:, 6:] - full[:, 6:]).min() > 0


def test_committed_weights_load_and_the_log_matches_the_settings():
    log = rt.training_log()
    assert log["shape"] == rt.SHAPE and log["training"] == rt.TRAINING
    assert len(log["losses"]) == rt.TRAINING["steps"]
    model = rt.load_model(65)
    assert model.rope and sum(p.numel() for p in model.parameters()) * 4 <= 2_000_000
    assert np.mean(log["losses"][-100:]) < np.mean(log["losses"][:100])


def test_first_50_steps_retrain_as_logged():
    """The committed log's first 50 training losses, trained again from the same seed: float32 kernels
    of another CPU sum in another order, so the tolerance is far above rounding and far below a step's change."""
    train, _ = rt.split(rt.load_text())
    chars = rt.Chars(train)
    settings = rt.TRAINING
    model = rt.make_model(len(chars), seed=settings["seed"])
    losses = rt.train_char_lm(model, torch.tensor(chars.encode(train)), steps=settings["steps"],
                              batch=settings["batch"], lr=settings["lr"], weight_decay=settings["weight_decay"],
                              seed=settings["seed"], stop_after=50)
    logged = rt.training_log()["losses"][:50]
    np.testing.assert_allclose(losses, logged, rtol=0, atol=2e-3)
    assert logged[0] - logged[-1] > 0.5  # the tolerance is small against what 50 steps change


def test_held_out_bits_scores_from_half_a_context_or_more():
    model = _rope_model()  # context 24: windows start every 12 characters and score their second half
    ids = torch.randint(11, (24 * 5 + 7,), generator=torch.Generator().manual_seed(3))
    nats = []
    with torch.no_grad():
        for s in range(0, len(ids) - 24, 12):
            for j in range(0 if s == 0 else 12, 24):  # the first window scores its first half too
                logits, _ = model(ids[None, s:s + j + 1])  # character s + j + 1 from the ones before, in the window
                nats.append(torch.nn.functional.cross_entropy(logits[0, -1:], ids[s + j + 1:s + j + 2]).item())
    assert math.isclose(rt.held_out_bits(model, ids, chunk=2), np.mean(nats) / math.log(2), rel_tol=1e-9)
