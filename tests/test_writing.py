"""The transformer block, the stories, the language model and generation (chapter "A model that writes")."""

from __future__ import annotations

import pytest
import torch

from attnlib import generation as gen
from attnlib import lm
from attnlib import stories as st
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


RULES = [gen.Rule(), gen.Rule(temperature=1.0), gen.Rule(temperature=0.7, top_k=5), gen.Rule(temperature=1.3, top_p=0.8)]


@pytest.mark.parametrize("rule", RULES, ids=str)
def test_generation_with_and_without_the_cache_gives_the_same_words_on_50_prompts(model: TinyLM, rule: gen.Rule) -> None:
    prompts = st.make_stories(50, seed=4)
    for i in range(50):
        prompt = prompts.ids[i, : 2 + i % 9].tolist()
        cached = gen.generate(model, prompt, 12, rule, seed=i, use_cache=True)
        again = gen.generate(model, prompt, 12, rule, seed=i, use_cache=False)
        assert cached.new == again.new, (i, rule)
        assert torch.allclose(cached.logits, again.logits, atol=1e-9)


@pytest.mark.parametrize("rule", RULES[:3], ids=str)
def test_a_padded_batch_of_prompts_gives_the_words_of_each_prompt_alone(model: TinyLM, rule: gen.Rule) -> None:
    prompts = [st.encode("<s>"), st.encode("<s> ben has a red"), st.encode("<s> the dog ran in the park . nora said")]
    batch = gen.generate_batch(model, prompts, 10, rule, seeds=[7, 8, 9])
    assert batch == [gen.generate(model, p, 10, rule, seed=s).new for p, s in zip(prompts, [7, 8, 9])]


def test_sampling_rules() -> None:
    logits = [0.0, 2.0, 1.0, 2.0]
    assert gen.choose(logits, gen.Rule()) == 1  # greedy: the first of the largest
    assert {gen.choose(logits, gen.Rule(temperature=1.0, top_k=2), u / 100) for u in range(100)} == {1, 3}
    assert {gen.choose(logits, gen.Rule(temperature=1.0, top_p=1e-9), u / 100) for u in range(100)} == {1}
    # a tiny temperature is greedy (the two largest tie: each gets half), a huge one nearly uniform
    assert {gen.choose([0.0, 2.0, 1.0, 1.9], gen.Rule(temperature=1e-3), u / 100) for u in range(100)} == {1}
    assert [gen.choose(logits, gen.Rule(temperature=1e-3), u) for u in (0.49, 0.51)] == [1, 3]
    draws = [gen.choose(logits, gen.Rule(temperature=1e3), u / 1000) for u in range(1000)]
    assert all(230 < draws.count(i) < 270 for i in range(4))
    # the generator is mulberry32: its first numbers for seed 42, as JavaScript computes them
    r = gen.Mulberry32(42)
    assert [round(r(), 10) for _ in range(2)] == [0.6011037519, 0.4482905590]


@pytest.mark.parametrize("kwargs, message", [
    ({"temperature": 0}, "temperature must be a number > 0"), ({"temperature": -1.0}, "temperature"),
    ({"temperature": 1.0, "top_k": 0}, "top_k must be an int >= 1"),
    ({"temperature": 1.0, "top_p": 0.0}, r"top_p must be a number in \(0, 1\]"),
    ({"temperature": 1.0, "top_p": 1.5}, "top_p"), ({"top_k": 3}, "give a temperature too"),
])
def test_bad_sampling_settings_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gen.Rule(**kwargs)


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
    run = lm.train_lm(model, train, test, steps=150, progress=None)
    assert run.held_out[-1][1] < run.held_out[0][1] and len(run.losses) == 150
    bigram = lm.bigram_model(train, len(st.VOCAB))
    assert lm.recall_accuracy(bigram.predictions(test), test)["all recall positions"] < 0.2
    assert bigram.loss(test) > run.held_out[-1][1]


def test_time_per_token_refuses_a_length_beyond_the_context(model: TinyLM) -> None:
    with pytest.raises(ValueError, match="beyond the model's context"):
        lm.time_per_token(model, 65)


def test_candidates_are_the_distribution_choose_draws_from() -> None:
    logits = [0.5, 3.0, -1.0, 2.5, 2.5]
    order, probs = gen.candidates(logits, gen.Rule())
    assert order == [1, 3, 4, 0, 2] and abs(sum(probs) - 1) < 1e-12  # greedy: the softmax, ties by index
    assert probs == sorted(probs, reverse=True)
    order, probs = gen.candidates(logits, gen.Rule(temperature=2.0, top_k=3))
    assert order == [1, 3, 4] and abs(sum(probs) - 1) < 1e-12
    order, _ = gen.candidates(logits, gen.Rule(temperature=1.0, top_p=0.5))
    assert order == [1, 3]  # 3.0 alone has less than half of the probability, 3.0 and 2.5 more
    # choose walks the same cumulative probability
    rule = gen.Rule(temperature=1.0, top_k=2)
    order, probs = gen.candidates(logits, rule)
    assert gen.choose(logits, rule, probs[0] - 1e-9) == order[0] and gen.choose(logits, rule, probs[0] + 1e-9) == order[1]


def test_generate_keeps_the_watched_heads_rows_with_and_without_the_cache(model: TinyLM) -> None:
    prompt = st.encode("<s> ben has a red kite . later")
    cached = gen.generate(model, prompt, 6, seed=1, watch=(1, 2))
    again = gen.generate(model, prompt, 6, seed=1, use_cache=False, watch=(1, 2))
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
    assert writer.rule == gen.Rule(temperature=1.5, top_k=5, top_p=0.9)
    n = writer.numbers()
    prompt = st.encode("<s> ben has a red kite . later")
    ref = gen.generate(writer.stored_model(), prompt, 8, writer.rule, seed=11, stop=st.ID[st.END], watch=(0, 3))
    assert n["new"] == [st.VOCAB[i] for i in ref.new] and n["prompt"] == st.decode(prompt).split()
    for k, logits in enumerate(ref.logits):
        assert (n["logits"][k] == logits.numpy()).all()
        order, probs = gen.candidates(logits.tolist(), writer.rule)
        assert n["candidates"][k] == order and len(order) <= 5
        assert (n["rows"][k] == ref.attention[k].numpy()).all()
    writer.temperature, writer.top_k, writer.top_p = 0.0, len(st.VOCAB), 1.0
    assert writer.rule == gen.Rule()
    writer.steps = 0
    assert writer.numbers()["new"] == []
    writer.prompt = "<S> Ben has a dragon"
    assert writer.numbers() == {"error": "unknown word 'dragon': the model knows only its 103-word vocabulary"}
    writer.prompt = "<s> " * 64
    assert "reads at most 64" in writer.numbers()["error"]
    writer.prompt = " "
    assert "the prompt is empty" in writer.numbers()["error"]
    writer.prompt, writer.steps = "<s> ben has a red kite . later", 8


@pytest.mark.parametrize("trait, value, message", [
    ("temperature", -0.1, "temperature must be 0"), ("temperature", 3.5, "temperature must be 0"),
    ("top_k", 0, r"top_k must be in \[1, 103\]"), ("top_k", 104, "top_k"),
    ("top_p", 0.0, "top_p must be a number in"), ("top_p", 1.2, "top_p"),
    ("seed", -1, "seed must be an int"), ("steps", 65, r"steps must be in \[0, 64\]"),
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
    assert writer.rule == gen.Rule(temperature=1.0) and len(writer.numbers()["new"]) <= 4
    ref = gen.generate(writer.stored_model(), st.encode(writer.prompt), 4, gen.Rule(temperature=1.0), seed=3,
                       stop=st.ID[st.END])
    assert writer.numbers()["new"] == [st.VOCAB[i] for i in ref.new]
    writer.set_state({"temperature": 0.0, "seed": 0, "steps": 8})
