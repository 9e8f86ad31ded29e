"""The transformer block, the stories, the language model and generation (chapter "A model that writes")."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest
import torch

from attnlib import generation as gen
from attnlib.companions import lm
from attnlib.companions import sampler as smp
from attnlib.companions import stories as st
from attnlib.transformer import TinyLM, TransformerBlock


@pytest.fixture(scope="module")
def model() -> TinyLM:
    """An untrained model in float64: generation must agree with itself whatever the weights are."""
    torch.manual_seed(0)
    return TinyLM(len(st.VOCAB), context=64).double().eval()


@pytest.mark.parametrize("dtype, tol", [(torch.float64, 1e-9), (torch.float32, 1e-6)])
def test_the_block_equals_torchs_encoder_layer_with_a_causal_mask(dtype: torch.dtype, tol: float) -> None:
    torch.manual_seed(1)
    block = TransformerBlock(24, 4, 96).to(dtype).eval()
    x = torch.randn(3, 11, 24, dtype=dtype)
    mask = torch.nn.Transformer.generate_square_subsequent_mask(11, dtype=dtype)
    ours, _ = block(x)
    theirs = block.to_torch()(x, src_mask=mask, is_causal=True)
    assert (ours - theirs).abs().max() < tol
    # the causal mask matters: a later word changes no earlier output
    y = x.clone()
    y[:, -1] += 1
    assert torch.equal(block(y)[0][:, :-1], ours[:, :-1]) and not torch.allclose(block(y)[0][:, -1], ours[:, -1])


class _SeededDropout(torch.nn.Module):
    """Dropout whose masks come from its own seeded stream, drawn in the order of the tensor's indices
    (torch's own dropout fills its mask in memory order, and torch's attention output is a transposed
    view, so the same seed would put the same mask on other elements)."""

    def __init__(self, p: float, seed: int) -> None:
        super().__init__()
        self.p, self.g = p, torch.Generator().manual_seed(seed)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        keep = torch.rand(x.shape, generator=self.g, dtype=x.dtype) >= self.p
        return x * keep / (1 - self.p)


def test_the_block_equals_torchs_encoder_layer_in_training_mode() -> None:
    """Dropout on, in training mode: with the same masks on the same elements, torch's layer and ours
    agree. The copy's attention-weight dropout is off, as ours is: set to the block's rate instead
    (torch's default), it changes the output, so the test sees it."""
    torch.manual_seed(1)
    block = TransformerBlock(24, 4, 96, dropout=0.3).double().train()
    x = torch.randn(3, 11, 24, dtype=torch.float64)
    mask = torch.nn.Transformer.generate_square_subsequent_mask(11, dtype=torch.float64)
    theirs_layer = block.to_torch()
    assert theirs_layer.training and theirs_layer.self_attn.dropout == 0.0
    assert block.dropout.p == theirs_layer.dropout1.p == theirs_layer.dropout.p == theirs_layer.dropout2.p == 0.3
    for seed in range(3):
        # ours draws block.dropout three times (attention branch, hidden units, feed-forward branch);
        # torch's layer draws dropout1, dropout, dropout2 in that order: one stream, the same masks.
        block.dropout = _SeededDropout(0.3, seed)
        shared = _SeededDropout(0.3, seed)
        theirs_layer.dropout1 = theirs_layer.dropout = theirs_layer.dropout2 = shared
        ours, _ = block(x)
        theirs = theirs_layer(x, src_mask=mask, is_causal=True)
        assert (ours - theirs).abs().max() < 1e-9, seed
        assert (ours - block.eval()(x)[0]).abs().max() > 0.1  # the masks really dropped something
        block.train()
    theirs_layer.self_attn.dropout = 0.3  # torch's default copy: attention weights dropped too
    block.dropout = _SeededDropout(0.3, 0)
    theirs_layer.dropout1 = theirs_layer.dropout = theirs_layer.dropout2 = _SeededDropout(0.3, 0)
    torch.manual_seed(0)
    assert (block(x)[0] - theirs_layer(x, src_mask=mask, is_causal=True)).abs().max() > 0.1


def test_a_block_without_its_residual_or_layernorm_cannot_be_copied_into_torch() -> None:
    with pytest.raises(ValueError, match="only a full block"):
        TransformerBlock(8, 2, 16, residual=False).to_torch()


def test_stories_mark_where_the_next_word_repeats_what_was_said() -> None:
    s = st.make_stories(200, seed=3)
    for i in range(len(s)):
        words = s.words(i)
        positions = torch.nonzero(s.recall[i] >= 0).flatten().tolist()
        assert len(positions) == len(st.RECALLS)
        for p in positions:
            assert words[p + 1] == words[int(s.source[i, p])]  # the next word is the one said at the source
            assert int(s.source[i, p]) < p - 3  # and that was further back than the last few words
        for p in torch.nonzero(s.closing[i]).flatten().tolist():
            assert words[p + 1] in (")", "]", '"')
    assert torch.equal(st.make_stories(50, seed=3).ids, st.make_stories(50, seed=3).ids)


def test_unknown_words_are_named() -> None:
    with pytest.raises(ValueError, match="unknown word 'dragon'"):
        st.encode("<s> ben has a dragon")
    assert st.decode(st.encode("<s> ben has a red kite")) == "<s> ben has a red kite"


RULES = [smp.Rule(), smp.Rule(temperature=1.0), smp.Rule(temperature=0.7, top_k=5), smp.Rule(temperature=1.3, top_p=0.8)]


@pytest.mark.parametrize("rule", RULES, ids=str)
def test_generation_with_and_without_the_cache_gives_the_same_words_on_50_prompts(model: TinyLM, rule: smp.Rule) -> None:
    prompts = st.make_stories(50, seed=4)
    for i in range(50):
        prompt = prompts.ids[i, : 2 + i % 9].tolist()
        cached = gen.generate(model, prompt, 12, smp.Sampler(rule, seed=i), use_cache=True)
        again = gen.generate(model, prompt, 12, smp.Sampler(rule, seed=i), use_cache=False)
        assert cached.new == again.new, (i, rule)
        assert torch.allclose(cached.logits, again.logits, atol=1e-9)


@pytest.mark.parametrize("rule", RULES[:3], ids=str)
def test_a_padded_batch_of_prompts_gives_the_words_of_each_prompt_alone(model: TinyLM, rule: smp.Rule) -> None:
    prompts = [st.encode("<s>"), st.encode("<s> ben has a red"), st.encode("<s> the dog ran in the park . nora said")]
    batch = gen.generate_batch(model, prompts, 10, [smp.Sampler(rule, seed=s) for s in (7, 8, 9)])
    assert batch == [gen.generate(model, p, 10, smp.Sampler(rule, seed=s)).new for p, s in zip(prompts, [7, 8, 9])]


def test_sampling_rules() -> None:
    logits = [0.0, 2.0, 1.0, 2.0]
    assert smp.choose(logits, smp.Rule()) == 1  # greedy: the first of the largest
    assert {smp.choose(logits, smp.Rule(temperature=1.0, top_k=2), u / 100) for u in range(100)} == {1, 3}
    assert {smp.choose(logits, smp.Rule(temperature=1.0, top_p=1e-9), u / 100) for u in range(100)} == {1}
    # a tiny temperature is greedy (the two largest tie: each gets half), a huge one nearly uniform
    assert {smp.choose([0.0, 2.0, 1.0, 1.9], smp.Rule(temperature=1e-3), u / 100) for u in range(100)} == {1}
    assert [smp.choose(logits, smp.Rule(temperature=1e-3), u) for u in (0.49, 0.51)] == [1, 3]
    draws = [smp.choose(logits, smp.Rule(temperature=1e3), u / 1000) for u in range(1000)]
    assert all(230 < draws.count(i) < 270 for i in range(4))
    # the generator is mulberry32: its first numbers for seed 42, as JavaScript computes them
    r = smp.Mulberry32(42)
    assert [round(r(), 10) for _ in range(2)] == [0.6011037519, 0.4482905590]


@pytest.mark.parametrize("kwargs, message", [
    ({"temperature": 0}, "temperature must be a number > 0"), ({"temperature": -1.0}, "temperature"),
    ({"temperature": 1.0, "top_k": 0}, "top_k must be an int >= 1"),
    ({"temperature": 1.0, "top_p": 0.0}, r"top_p must be a number in \(0, 1\]"),
    ({"temperature": 1.0, "top_p": 1.5}, "top_p"), ({"top_k": 3}, "give a temperature too"),
])
def test_bad_sampling_settings_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        smp.Rule(**kwargs)


@pytest.mark.parametrize("logits, message", [
    ([], "the logits are empty"),
    ([0.0, float("nan"), 1.0], "logit 1 is nan"),
    ([0.0, float("inf"), 1.0], "logit 1 is inf"),
    ([float("-inf")] * 3, "all 3 logits are -inf"),
])
@pytest.mark.parametrize("rule", [smp.Rule(), smp.Rule(temperature=1.0), smp.Rule(temperature=0.5, top_k=2, top_p=0.9)],
                         ids=str)
def test_logits_no_choice_can_be_made_from_are_refused(logits: list, message: str, rule: smp.Rule) -> None:
    """A diverged model's NaN or +inf, or nothing to choose from: an error naming it, never a silent pick."""
    with pytest.raises(ValueError, match=message):
        smp.choose(logits, rule, 0.5)
    if not rule.greedy:
        with pytest.raises(ValueError, match=message):
            smp.candidates(logits, rule)


def test_ruled_out_words_are_never_chosen() -> None:
    """-inf is a word the model rules out: never a candidate, never chosen, whatever the uniform number."""
    logits = [float("-inf"), 1.0, float("-inf"), 0.5, float("-inf")]
    rule = smp.Rule(temperature=1.0)
    assert smp.candidates(logits, rule)[0] == [1, 3]
    assert smp.choose(logits, smp.Rule()) == 1
    assert {smp.choose(logits, rule, u) for u in (0.0, 0.5, 0.999, 1 - 2**-53)} <= {1, 3}


def test_a_uniform_number_just_below_one_never_picks_a_word_of_probability_zero() -> None:
    """Rounding can leave the running sum just under 1; the fallback is then the last word of
    probability > 0, not a word whose probability underflowed to 0."""
    logits = [0.0] * 10 + [-800.0]  # exp(-800) is 0 in float64: word 10 can never be drawn
    rule = smp.Rule(temperature=1.0)
    order, probs = smp.candidates(logits, rule)
    assert 10 not in order and all(p > 0 for p in probs)
    for u in (1 - 2**-53, 1 - 2**-52, 0.9999999999999):
        assert smp.choose(logits, rule, u) == 9


@pytest.mark.parametrize("t", [1e-30, 1e-300, 1e-308, 5e-324])
def test_a_tiny_temperature_is_greedy(t: float) -> None:
    """softmax(z / T) tends to greedy as T -> 0; logits / T would overflow to inf, (z - max) / T does not."""
    logits = [0.0, 2.0, 1.0, 1.9, -5.0]
    order, probs = smp.candidates(logits, smp.Rule(temperature=t))
    assert order == [1] and probs == [1.0]
    assert {smp.choose(logits, smp.Rule(temperature=t), u / 10) for u in range(10)} == {1}
    # two largest logits tied: each keeps half, drawn by the uniform number
    order, probs = smp.candidates([3.0, 1.0, 3.0], smp.Rule(temperature=t))
    assert order == [0, 2] and probs == [0.5, 0.5]


def test_top_k_keeps_exactly_k_words_on_ties() -> None:
    """Unlike Hugging Face (which keeps every word tied with the k-th), top-k keeps k: the smaller indices."""
    assert smp.candidates([1.0, 2.0, 2.0, 2.0, 0.0], smp.Rule(temperature=1.0, top_k=2))[0] == [1, 2]


@pytest.mark.parametrize("seed", [-5, 2**32, 1.5, 3.0, True, "7", None, float("nan")])
def test_seeds_javascript_would_wrap_are_refused(seed: object) -> None:
    with pytest.raises(ValueError, match=r"the seed must be a whole number from 0 to 4294967295 \(2\*\*32 - 1\), got"):
        smp.Mulberry32(seed)


def test_the_extreme_seeds_are_accepted() -> None:
    import numpy as np

    assert smp.Mulberry32(0)() != smp.Mulberry32(2**32 - 1)()
    assert smp.Mulberry32(np.int64(42))() == smp.Mulberry32(42)()


@pytest.mark.parametrize("prompt, message", [
    ([1, 1.7, 2], r"prompt word 1 is 1\.7"), ([1, True], "prompt word 1 is True"), ([2.0], r"prompt word 0 is 2\.0"),
    ("<s> anna", "not text"), (torch.tensor([1.0, 2.0]), "tensor of torch.float32"),
    (torch.tensor([[1, 2]]), r"shape \(1, 2\)"),
])
def test_prompt_ids_that_are_not_whole_numbers_are_refused(model: TinyLM, prompt: object, message: str) -> None:
    """1.7 is not word 1: generate refuses what TinyLM.forward refuses, with the value named."""
    with pytest.raises(ValueError, match=message):
        gen.generate(model, prompt, 3)
    assert gen.generate(model, torch.tensor([1, 2]), 2).prompt == [1, 2]  # an integer tensor is fine


@pytest.mark.parametrize("positions, message", [
    (torch.tensor([[-1]]), "positions count from 0; got position -1"),
    (torch.tensor([[64]]), "position 64 is beyond it"),
    (torch.tensor([[0.0]]), "positions must be an int64 tensor"),
    (torch.tensor([[0, 1]]), r"of the ids' shape \(1, 1\)"),
    ([[0]], "positions must be an int64 tensor"),
])
def test_bad_positions_are_refused(model: TinyLM, positions: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        model.step(torch.tensor([[1]]), model.new_caches(1), positions=positions)


def test_bad_prompts_are_refused(model: TinyLM) -> None:
    with pytest.raises(ValueError, match="the prompt is empty"):
        gen.generate(model, [], 5)
    with pytest.raises(ValueError, match="outside the vocabulary"):
        gen.generate(model, [len(st.VOCAB)], 5)
    with pytest.raises(ValueError, match="context holds 64"):
        gen.generate(model, [1] * 65, 5)
    with pytest.raises(ValueError, match="exceed the context of 64"):
        gen.generate(model, [1] * 60, 5)


def test_training_learns_the_recall_positions_and_the_bigram_does_not() -> None:
    train, test = st.make_stories(1500, seed=1), st.make_stories(300, seed=2)
    torch.manual_seed(0)
    model = TinyLM(len(st.VOCAB), context=64)
    run = lm.train_lm(model, train, test, steps=80, eval_every=40, progress=None)  # held out: 1.46, then 1.00
    assert run.held_out[-1][1] < run.held_out[0][1] and len(run.losses) == 80
    bigram = lm.bigram_model(train, len(st.VOCAB))
    assert lm.recall_accuracy(bigram.predictions(test), test)["all recall positions"] < 0.2
    assert bigram.loss(test) > run.held_out[-1][1]  # 1.57


def test_a_batch_without_a_word_is_refused_not_a_nan_loss() -> None:
    """No stories (an empty choice of rows), or stories that are only padding: train_step and
    held_out_loss refuse them, where the loss would be a silent NaN, and the model is not stepped."""
    torch.manual_seed(0)
    model = TinyLM(len(st.VOCAB), context=64)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    data = lm.targets(st.make_stories(4, seed=3))
    before = [p.detach().clone() for p in model.parameters()]
    with pytest.raises(ValueError, match="a batch of 0 stories without a single word"):
        lm.train_step(model, optimizer, data, torch.tensor([], dtype=torch.long))
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))
    padding = (data[0], torch.zeros_like(data[1]), data[2])
    with pytest.raises(ValueError, match=r"a batch of 4 stories without a single word \(key_mask of shape \(4, "):
        lm.held_out_loss(model, padding)
    assert model.training  # put back in training mode although the batch was refused
    assert math.isfinite(lm.held_out_loss(model, data)) and math.isfinite(
        lm.train_step(model, optimizer, data, torch.tensor([0, 2])))


def test_trimming_a_batch_drops_only_columns_that_are_padding_in_every_story(model: TinyLM) -> None:
    """A batch keeps every column some story uses (gaps included) and loses the others; its loss and
    its gradient are those of the padded batch."""
    key_mask = torch.tensor([[1, 1, 0, 0, 0, 0], [1, 0, 1, 0, 0, 0]], dtype=torch.bool)
    inputs, nxt = torch.arange(12).reshape(2, 6), torch.full((2, 6), lm.IGNORE)
    cut = lm.trim_padding(inputs, key_mask, nxt)
    assert [tuple(t.shape) for t in cut] == [(2, 3)] * 3 and torch.equal(cut[0], inputs[:, :3])
    short = st.make_stories(8, seed=3, length=64)  # padded to the model's context
    batch = lm.targets(short)
    trimmed = lm.trim_padding(*batch)
    assert trimmed[0].shape[1] < batch[0].shape[1], "these stories are all shorter than the padded width"
    losses, grads = [], []
    for data in (batch, trimmed):
        model.zero_grad()
        loss = lm.lm_loss(model, *data)
        loss.backward()
        losses.append(loss.item())
        grads.append(torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None]))
    model.zero_grad()
    assert math.isclose(*losses, rel_tol=1e-6) and torch.allclose(*grads, atol=1e-6)


def test_time_per_token_refuses_a_length_beyond_the_context(model: TinyLM) -> None:
    with pytest.raises(ValueError, match="beyond the model's context"):
        lm.time_per_token(model, 65)


def test_candidates_are_the_distribution_choose_draws_from() -> None:
    logits = [0.5, 3.0, -1.0, 2.5, 2.5]
    order, probs = smp.candidates(logits, smp.Rule())
    assert order == [1, 3, 4, 0, 2] and abs(sum(probs) - 1) < 1e-12  # greedy: the softmax, ties by index
    assert probs == sorted(probs, reverse=True)
    order, probs = smp.candidates(logits, smp.Rule(temperature=2.0, top_k=3))
    assert order == [1, 3, 4] and abs(sum(probs) - 1) < 1e-12
    order, _ = smp.candidates(logits, smp.Rule(temperature=1.0, top_p=0.5))
    assert order == [1, 3]  # 3.0 alone has less than half of the probability, 3.0 and 2.5 more
    # choose walks the same cumulative probability
    rule = smp.Rule(temperature=1.0, top_k=2)
    order, probs = smp.candidates(logits, rule)
    assert smp.choose(logits, rule, probs[0] - 1e-9) == order[0] and smp.choose(logits, rule, probs[0] + 1e-9) == order[1]


def test_generate_keeps_the_watched_heads_rows_with_and_without_the_cache(model: TinyLM) -> None:
    prompt = st.encode("<s> ben has a red kite . later")
    cached = gen.generate(model, prompt, 6, watch=(1, 2))
    again = gen.generate(model, prompt, 6, use_cache=False, watch=(1, 2))
    assert [len(r) for r in cached.attention] == list(range(len(prompt), len(prompt) + 6))  # the cache grows
    for a, b in zip(cached.attention, again.attention, strict=True):
        assert torch.allclose(a, b, atol=1e-12) and abs(float(a.sum()) - 1) < 1e-12
    assert gen.generate(model, prompt, 3).attention is None
    for bad in ((2, 0), (0, 4), (0,), "0, 1", (0.0, 1)):
        with pytest.raises(ValueError, match="watch must be"):
            gen.generate(model, prompt, 3, watch=bad)


@pytest.fixture(scope="module")
def writer():  # noqa: ANN201
    from attnlib.widgets import WriteWithModel

    torch.manual_seed(2)
    trained_here = TinyLM(len(st.VOCAB), context=256)  # float32, as the chapter's
    return WriteWithModel(trained_here, st.VOCAB, watch=(0, 3), prompt="<s> ben has a red kite . later", steps=8)


def test_the_widget_stores_the_float32_weights_exactly(writer) -> None:  # noqa: ANN001
    from attnlib.widgets.writer import PAGE_CONTEXT, WriteWithModel, unpack_weights

    stored = unpack_weights(writer.weights, writer.shapes)
    model = writer.stored_model()
    assert model.context == PAGE_CONTEXT == stored["pos.weight"].shape[0] and model.embed.weight.dtype == torch.float64
    for name, value in model.state_dict().items():
        assert torch.equal(value, torch.from_numpy(stored[name]).double()), name
    again = WriteWithModel.from_state({k: getattr(writer, k) for k in writer.keys})
    assert repr(again) == repr(writer)
    for a, b in zip(again.numbers()["logits"], writer.numbers()["logits"], strict=True):
        assert (a == b).all()


def test_the_widgets_numbers_are_generate_on_the_stored_model(writer) -> None:  # noqa: ANN001
    writer.temperature, writer.top_k, writer.top_p, writer.seed = 1.5, 5, 0.9, 11
    assert writer.rule == smp.Rule(temperature=1.5, top_k=5, top_p=0.9)
    n = writer.numbers()
    prompt = st.encode("<s> ben has a red kite . later")
    ref = gen.generate(writer.stored_model(), prompt, 8, smp.Sampler(writer.rule, seed=11), stop=st.ID[st.END], watch=(0, 3))
    assert n["new"] == [st.VOCAB[i] for i in ref.new] and n["prompt"] == st.decode(prompt).split()
    for k, logits in enumerate(ref.logits):
        assert (n["logits"][k] == logits.numpy()).all()
        order, probs = smp.candidates(logits.tolist(), writer.rule)
        assert n["candidates"][k] == order and len(order) <= 5
        assert (n["rows"][k] == ref.attention[k].numpy()).all()
    writer.temperature, writer.top_k, writer.top_p = 0.0, len(st.VOCAB), 1.0
    assert writer.rule == smp.Rule()
    writer.steps = 0
    assert writer.numbers()["new"] == []
    writer.prompt = "<S> Ben has a dragon"
    assert writer.numbers() == {"error": "unknown word 'dragon': the model knows only its 103-word vocabulary"}
    writer.prompt = "<s> " * 64
    assert "the prompt has 64 words; it can have at most 63" in writer.numbers()["error"]
    writer.prompt = "<s> " * 63  # the real limit: 63 words and the next one fill the 64 positions
    assert "error" not in writer.numbers()
    writer.prompt = "<s> " + "x" * 2000
    assert writer.numbers() == {"error": f"unknown word '{'x' * 20}…' (2000 characters): the model knows only "
                                         "its 103-word vocabulary"}
    writer.prompt = " "
    assert "the prompt is empty" in writer.numbers()["error"]
    writer.prompt, writer.steps = "<s> ben has a red kite . later", 8


@pytest.mark.parametrize("trait, value, message", [
    ("temperature", -0.1, "temperature must be 0"), ("temperature", 3.5, "temperature must be 0"),
    ("top_k", 0, r"top_k must be in \[1, 103\]"), ("top_k", 104, "top_k"),
    ("top_p", 0.0, "top_p must be a number in"), ("top_p", 1.2, "top_p"),
    ("seed", -1, "the seed must be a whole number"), ("steps", 65, r"steps must be in \[0, 64\]"),
])
def test_the_widget_refuses_bad_settings(writer, trait: str, value: object, message: str) -> None:  # noqa: ANN001
    before = getattr(writer, trait)
    with pytest.raises(ValueError, match=message):
        setattr(writer, trait, value)
    assert getattr(writer, trait) == before


def test_the_widget_refuses_what_the_page_cannot_run() -> None:
    from attnlib.widgets import WriteWithModel

    model = TinyLM(len(st.VOCAB), context=64)
    with pytest.raises(TypeError, match="TinyLM"):
        WriteWithModel(torch.nn.Linear(2, 2), st.VOCAB, watch=(0, 0))
    with pytest.raises(ValueError, match="residuals and LayerNorms"):
        WriteWithModel(TinyLM(len(st.VOCAB), layer_norm=False), st.VOCAB, watch=(0, 0))
    with pytest.raises(ValueError, match="residuals and LayerNorms"):
        WriteWithModel(TinyLM(len(st.VOCAB), n_layers=0), st.VOCAB, watch=(0, 0))
    with pytest.raises(ValueError, match="the model's 103 words"):
        WriteWithModel(model, st.VOCAB[:-1], watch=(0, 0))
    with pytest.raises(ValueError, match="end word"):
        WriteWithModel(model, st.VOCAB, watch=(0, 0), end="<end>")
    with pytest.raises(ValueError, match="watch must be"):
        WriteWithModel(model, st.VOCAB, watch=(2, 0))
    with pytest.raises(TypeError, match="Rule"):
        WriteWithModel(model, st.VOCAB, watch=(0, 0), rule={"temperature": 1.0})


def test_the_widget_syncs_with_a_live_front_end(writer) -> None:  # noqa: ANN001
    """In a live kernel the page's controls arrive as state updates, and the state the kernel sends is JSON."""
    import json

    state = writer.get_state()
    assert {"prompt", "temperature", "top_k", "top_p", "seed", "steps", "weights", "shapes", "_esm"} <= set(state)
    json.dumps(state)
    writer.set_state({"temperature": 1.0, "seed": 3, "steps": 4})  # what the page sends when the reader moves them
    assert writer.rule == smp.Rule(temperature=1.0) and len(writer.numbers()["new"]) <= 4
    ref = gen.generate(writer.stored_model(), st.encode(writer.prompt), 4, smp.Sampler(smp.Rule(temperature=1.0), seed=3),
                       stop=st.ID[st.END])
    assert writer.numbers()["new"] == [st.VOCAB[i] for i in ref.new]
    writer.set_state({"temperature": 0.0, "seed": 0, "steps": 8})


# --- the page's twin: the same rules in writer_core.js and _common.js ------------------------------------
_RULE_CASES = [  # (logits, rule, uniform): every case where a choice could go silently wrong, and ordinary ones
    ([0.0, 2.0, 1.0, 2.0], smp.Rule(), None),
    ([0.0, 2.0, 1.0, 2.0], smp.Rule(temperature=1.0, top_k=2), 0.7),
    ([0.5, 3.0, -1.0, 2.5, 2.5], smp.Rule(temperature=1.0, top_p=0.5), 0.3),
    ([0.0, 2.0, 1.0, 1.9, -5.0], smp.Rule(temperature=1e-308), 0.9),
    ([3.0, 1.0, 3.0], smp.Rule(temperature=5e-324), 0.6),
    ([0.0] * 10 + [-800.0], smp.Rule(temperature=1.0), 1 - 2**-53),
    ([float("-inf"), 1.0, float("-inf"), 0.5], smp.Rule(temperature=2.0), 0.99),
    ([], smp.Rule(), None), ([], smp.Rule(temperature=1.0), 0.5),
    ([0.0, float("nan"), 1.0], smp.Rule(), None), ([0.0, float("nan"), 1.0], smp.Rule(temperature=1.0), 0.5),
    ([0.0, float("inf")], smp.Rule(temperature=0.5, top_k=1), 0.5), ([float("-inf")] * 3, smp.Rule(), None),
]
_SEEDS = [0, 42, 2**32 - 1, -5, 2**32, 1.5, 1e12]


def _python_side(logits: list, rule: smp.Rule, uniform: float | None) -> dict:
    try:
        return {"candidates": list(smp.candidates(logits, rule)), "choice": smp.choose(logits, rule, uniform)}
    except ValueError as err:
        return {"error": str(err)}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_pages_rules_and_seeds_are_pythons() -> None:
    """writer_core.js's candidates and choose, and _common.js's requireSeed and quotedWord, run in node on the
    cases above: the same words and probabilities, or the same error message, as attnlib."""
    from attnlib.companions.checks import quoted_word, quoted_words
    from attnlib.companions.sampler import require_seed

    here = Path(__file__).resolve().parents[2] / "attnlib" / "widgets"
    cases = [[[x if math.isfinite(x) else str(x) for x in z], {"greedy": r.greedy, "temperature": r.temperature,
              "topK": r.top_k, "topP": r.top_p}, u] for z, r, u in _RULE_CASES]
    script = "".join((here / f).read_text(encoding="utf-8") for f in ("_dom.js", "_common.js", "writer_core.js")) + """
const num = (x) => (typeof x === "string" ? Number(x.replace("inf", "Infinity")) : x);
const attempt = (f) => { try { return f(); } catch (err) { return { error: err.message }; } };
const cases = JSON.parse(process.argv[1]);
const rules = cases.map(([z, rule, u]) => attempt(() => {
  const logits = Float64Array.from(z.map(num)), c = candidates(logits, rule);
  return { candidates: [c.order, c.probs], choice: choose(logits, rule, u) };
}));
const seeds = JSON.parse(process.argv[2]).map((s) => attempt(() => ({ first: uniformAt(s, 0) })));
const words = ["bank", "x".repeat(2000), "é".repeat(30)].map(quotedWord);
const lists = [quotedWords(["a", "b", "a"]), quotedWords("abcdefgh".split("")), quotedWords(Array(300).fill("bank"))];
console.log(JSON.stringify({ rules, seeds, words, lists }));
"""
    out = json.loads(subprocess.run(["node", "--input-type=module", "-e", script, json.dumps(cases), json.dumps(_SEEDS)],
                                    capture_output=True, text=True, check=True, timeout=60).stdout)
    assert out["rules"] == [_python_side(*c) for c in _RULE_CASES]
    errors = 0
    for seed, page in zip(_SEEDS, out["seeds"], strict=True):
        try:
            assert page == {"first": smp.Mulberry32(require_seed(seed))()}
        except ValueError as err:
            errors += 1
            assert page == {"error": str(err).replace("1000000000000.0", "1000000000000")}  # JS prints 1e12 without .0
    assert errors == 4
    assert out["words"] == [quoted_word(w) for w in ["bank", "x" * 2000, "é" * 30]]
    assert out["lists"] == [quoted_words(["a", "b", "a"]), quoted_words(list("abcdefgh")), quoted_words(["bank"] * 300)]
    assert out["lists"] == ["'a', 'b'", "'a', 'b', 'c', 'd', 'e' and 3 more", "'bank'"]
