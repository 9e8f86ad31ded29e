"""The trained models of "Attention that learns" and "Attention we can check": the corpus keeps its
promises, training is reproducible, the float64 NumPy twin equals the torch model, and the
hand-built lookup layer solves its task."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attnlib.companions import learning, lookup


@pytest.fixture(scope="module")
def corpus() -> learning.SenseCorpus:
    return learning.make_corpus(300, 200, seed=0)


def test_corpus_vocabulary_and_split(corpus) -> None:  # noqa: ANN001
    assert len(learning.VOCAB) <= 100 and len(set(learning.VOCAB)) == len(learning.VOCAB)
    assert len(learning.AMBIGUOUS) >= 2
    train_pairs = set(zip(corpus.train.query.tolist(), corpus.train.cue.tolist()))
    test_pairs = set(zip(corpus.test.query.tolist(), corpus.test.cue.tolist()))
    assert train_pairs.isdisjoint(test_pairs), "a held-out (ambiguous, cue) position pair occurs in training"
    assert test_pairs <= set(corpus.held_out_pairs)
    for batch in (corpus.train, corpus.test):
        for i in range(len(batch)):
            words = batch.words(i)
            word, sense = learning.SENSES[int(batch.labels[i])].split(":")
            assert words[int(batch.query[i])] == word
            assert words[int(batch.cue[i])] in learning.CUES[word][sense]
            assert sum(w in learning.AMBIGUOUS for w in words) == 1
            assert learning.MIN_LEN <= len(words) <= learning.MAX_LEN


def test_training_is_reproducible(corpus) -> None:  # noqa: ANN001
    a = learning.train_sense_model(corpus, seed=3, steps=15, n_checkpoints=3)
    b = learning.train_sense_model(corpus, seed=3, steps=15, n_checkpoints=3)
    c = learning.train_sense_model(corpus, seed=4, steps=15, n_checkpoints=3)
    for (name, pa), pb in zip(a.model.state_dict().items(), b.model.state_dict().values()):
        assert torch.equal(pa, pb), f"{name} differs between two runs with the same seed"
    assert a.losses == b.losses
    assert not torch.equal(a.model.state_dict()["embed"], c.model.state_dict()["embed"])
    assert [cp.step for cp in a.checkpoints] == [0, 5, 10, 15]


def test_training_lowers_the_loss_and_keeps_checkpoints(corpus) -> None:  # noqa: ANN001
    run = learning.train_sense_model(corpus, seed=0, steps=40, n_checkpoints=20)
    assert len(run.checkpoints) == 21
    assert run.losses[-1] < 0.5 * run.losses[0]
    assert run.checkpoint(-1).metrics["accuracy"] > run.checkpoint(0).metrics["accuracy"]


def test_numpy_twin_equals_the_torch_model(corpus) -> None:  # noqa: ANN001
    run = learning.train_sense_model(corpus, seed=1, steps=20, n_checkpoints=2)
    model = run.model.double()
    with torch.no_grad():
        logits, weights = model(corpus.test)
    probs = torch.softmax(logits, -1).numpy()
    state = run.checkpoint(-1).state
    for i in range(30):
        out = learning.predict_np(state, corpus.test.words(i))
        n = len(out["words"])
        assert out["query"] == int(corpus.test.query[i])
        np.testing.assert_allclose(out["row"], weights[i, out["query"], :n].numpy(), atol=1e-5)
        np.testing.assert_allclose(out["probs"], probs[i], atol=1e-5)


def test_encode_reads_text_like_the_widget() -> None:
    ids, q = learning.encode("The BANK, by the river!")
    assert [learning.VOCAB[i] for i in ids] == ["the", "bank", "by", "the", "river"] and q == 1


def test_hand_built_lookup_layer_is_exact() -> None:
    _, test = lookup.make_lookup_data(50, 300, seed=0)
    m = lookup.lookup_metrics(lookup.ideal_model(), test)
    assert m["accuracy"] == 1.0
    assert m["head1_weight_on_match"] > 0.999
    mat = lookup.letter_match_matrix(lookup.ideal_model(beta=2.0))
    np.testing.assert_allclose(mat, 4.0 * np.eye(len(lookup.LETTERS)))
    assert lookup.diagonal_cosine(mat) == pytest.approx(1.0)
    assert lookup.diagonal_cosine(np.ones((3, 3))) != lookup.diagonal_cosine(np.eye(3))


def test_lookup_data_splits_and_labels() -> None:
    train, test = lookup.make_lookup_data(200, 100, seed=1)
    seen = {(tuple(train.keys[i].tolist()), tuple(train.values[i].tolist()), int(train.match[i])) for i in range(200)}
    assert all((tuple(test.keys[i].tolist()), tuple(test.values[i].tolist()), int(test.match[i])) not in seen
               for i in range(100))
    assert torch.equal(test.labels, test.values[torch.arange(100), test.match])
    assert test.text(0).count("|") == 1


def test_widgets_python_twins(corpus) -> None:  # noqa: ANN001
    from attnlib.widgets import AskModel, TrainingReplay

    run = learning.train_sense_model(corpus, seed=2, steps=20, n_checkpoints=20)
    sentences = ["we sat on the bank by the river", "a bat and a ball"]
    replay = TrainingReplay(run, sentences, index=-1, sentence=1)
    assert replay.index == 20 and len(replay.frames) == 21
    for i in (0, 7, 20):
        replay.index = i
        ref = learning.replay_frame(run, i, sentences[1])
        got = replay.numbers()
        assert got["step"] == ref["step"] and got["sense"] == ref["sense"]
        np.testing.assert_allclose(got["map"], ref["weights"], atol=1e-9)
        assert got["probability"] == pytest.approx(ref["probs"].max(), abs=1e-9)
    with pytest.raises(ValueError, match="out of range"):
        replay.index = 21
    ask = AskModel(run, "the bank near the money")
    ref = learning.predict_np(run.checkpoint(-1).state, "the bank near the money")
    np.testing.assert_allclose(ask.numbers()["probs"], ref["probs"], atol=1e-12)
    ask.sentence = "the volcano"
    assert "volcano" in ask.numbers()["error"]


def test_each_cue_word_has_one_sense_and_the_label_follows_it(corpus) -> None:  # noqa: ANN001
    cues = [c for senses in learning.CUES.values() for words in senses.values() for c in words]
    assert len(cues) == len(set(cues)) == len(learning.CUE_SENSE)
    for batch in (corpus.train, corpus.test):
        for i in range(len(batch)):
            words = batch.words(i)
            assert learning.SENSES[int(batch.labels[i])] == learning.CUE_SENSE[words[int(batch.cue[i])]]
            assert learning.outside_training(words, int(batch.query[i])) is None  # every corpus sentence is inside


@pytest.mark.parametrize(("words", "query", "expect"), [
    ("we sat on the bank".split(), 4, "no cue word"),
    ("we saw the bat near the river".split(), 3, "'river' is a cue of bank:river, not of 'bat'"),
    ("the bank with money by the river".split(), 1, "cue words of two senses: 'money' (bank:money), 'river' (bank:river)"),
    ("the bat at the cave with the ball".split(), 1, "two senses"),
])
def test_outside_training_names_why(words, query, expect) -> None:  # noqa: ANN001
    assert expect in learning.outside_training(words, query)
    assert learning.outside_training("the bank by the river water".split(), 1) is None  # two cues, one sense


def test_fit_records_its_hyperparameters(corpus) -> None:  # noqa: ANN001
    run = learning.train_sense_model(corpus, seed=3, steps=4, lr=0.01, weight_decay=0.25, n_checkpoints=2)
    h = run.hyperparameters
    assert (h["steps"], h["lr"], h["weight_decay"], h["d_model"], h["seed"]) == (4, 0.01, 0.25, 16, 3)
    assert h["betas"] == learning.ADAM_BETAS and len(run.losses) == 5
    with pytest.raises(ValueError, match="weight_decay"):
        learning.train_sense_model(corpus, steps=2, weight_decay=-1.0)


def test_adam_step_matches_torch_adamw() -> None:
    g = torch.Generator().manual_seed(0)
    mine = [torch.randn(3, 4, generator=g, dtype=torch.float64)]
    ref = [mine[0].clone().requires_grad_(True)]
    opt = torch.optim.AdamW(ref, lr=0.05, betas=learning.ADAM_BETAS, eps=learning.ADAM_EPS, weight_decay=0.5)
    m, v = [torch.zeros_like(mine[0])], [torch.zeros_like(mine[0])]
    for t in range(1, 6):
        grad = torch.sin(mine[0] * t)
        learning.adam_step(mine, [grad], m, v, t, lr=0.05, weight_decay=0.5)
        ref[0].grad = torch.sin(ref[0].detach() * t)
        opt.step()
    # the same update: p(1 - lr·wd) - lr·adam (torch) is p - lr·(adam + wd·p) (the book)
    np.testing.assert_allclose(mine[0].numpy(), ref[0].detach().numpy(), atol=1e-12, rtol=0)


def test_pair_lookup_needs_two_heads_and_two_heads_split_it() -> None:
    from attnlib.companions import heads

    train, test = heads.make_pair_data(1000, 300, seed=1)
    assert torch.equal(test.labels[:, 0], test.values[torch.arange(300), test.asked[:, 0]])
    assert bool((test.asked[:, 0] != test.asked[:, 1]).all()) and test.text(0).count("|") == 1
    one = heads.train_pair_lookup(train, test, n_heads=1, seed=1).checkpoint(-1).metrics
    two = heads.train_pair_lookup(train, test, n_heads=2, seed=1).checkpoint(-1).metrics
    assert one["accuracy"] < 0.6 < 0.95 < two["accuracy"], (one, two)
    prefs = sorted(two[f"head{k}_preference"] for k in (1, 2))
    assert prefs[0] < -0.5 and prefs[1] > 0.5, two  # one head reads each asked item
    assert abs(one["head1_preference"]) < 0.5, one  # a single head blends the two


def test_new_functions_reject_bad_input() -> None:
    from attnlib.companions import heads

    with pytest.raises(TypeError, match="sequence of words"):
        learning.outside_training("the bank", 1)
    with pytest.raises(ValueError, match=r"position in \[0, 2\)"):
        learning.outside_training(["the", "bank"], 5)
    p = [torch.zeros(2)]
    with pytest.raises(ValueError, match="step number"):
        learning.adam_step(p, p, p, p, 0, lr=0.1, weight_decay=0.0)
    with pytest.raises(ValueError, match="one entry per parameter"):
        learning.adam_step(p, [], p, p, 1, lr=0.1, weight_decay=0.0)
    with pytest.raises(ValueError, match=r"logits must be \(N, 20\)"):
        heads.pair_loss(torch.zeros(3, 10), torch.zeros(3, 2, dtype=torch.long))
    train, test = heads.make_pair_data(20, 10, seed=0)
    with pytest.raises(TypeError, match="PairBatch"):
        heads.train_pair_lookup(train, "test", n_heads=2)
    with pytest.raises(TypeError, match="AttentionReadout"):
        heads.pair_metrics(None, test)
    with pytest.raises(ValueError, match="n_train"):
        heads.make_pair_data(0, 10)
    with pytest.raises(ValueError, match="state must be a mapping"):
        learning.positional_scores({"pos": np.zeros((8, 16))})
