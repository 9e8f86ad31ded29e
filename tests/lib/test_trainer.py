"""The float64 trainer of "Train it yourself" (attnlib.companions.trainer): its hand-derived gradients equal torch
autograd on random models and corpora, the corpus keeps its promises, training is reproducible, bad
settings get a message naming the value, a diverging run stops with its last finite weights, and the
trainer run on the chapter's own corpus and initial weights follows the chapter's (float32) run."""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from attnlib.companions import learning, trainer


def _autograd(w: dict[str, np.ndarray], batch: dict[str, np.ndarray]) -> tuple[float, dict[str, np.ndarray]]:
    """The loss and gradients of the same model, built from attnlib's torch SenseModel in float64."""
    d = w["w_q"].shape[0]
    model = learning.SenseModel(d).double()
    with torch.no_grad():
        model.embed = torch.nn.Parameter(torch.from_numpy(w["embed"].copy()))
        model.pos = torch.nn.Parameter(torch.from_numpy(w["pos"].copy()))
        for name in ("w_q", "w_k", "w_v", "w_c", "b_c"):
            setattr(model.attn, name, torch.nn.Parameter(torch.from_numpy(w[name].copy())))
    b = learning.SenseBatch(*(torch.from_numpy(batch[k]) for k in ("ids", "lengths", "query", "query", "labels")))
    loss = torch.nn.functional.cross_entropy(model(b)[0], b.labels)
    loss.backward()
    got = {"embed": model.embed.grad, "pos": model.pos.grad, **{k: getattr(model.attn, k).grad for k in
                                                                 ("w_q", "w_k", "w_v", "w_c", "b_c")}}
    return float(loss.detach()), {k: v.numpy() for k, v in got.items()}


def _rel(a: np.ndarray, b: np.ndarray) -> float:
    scale = max(np.abs(a).max(), np.abs(b).max())
    return 0.0 if scale == 0 else float(np.abs(a - b).max() / scale)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), d=st.integers(1, 12), n_train=st.integers(1, 40),
       scale=st.sampled_from([0.1, 1.0, 3.0]), drop=st.integers(0, 5))
def test_gradients_equal_autograd(seed: int, d: int, n_train: int, scale: float, drop: int) -> None:
    scale_of_weights = scale
    senses = [dict(s, cues=s["cues"][: max(1, 6 - drop)]) for s in trainer.DEFAULTS["senses"]]
    corpus = trainer.make_corpus({"senses": senses, "n_train": n_train, "n_test": 5, "seed": seed})
    w = trainer.init_weights(len(corpus.vocab), d, len(corpus.senses), seed)
    w = {k: x * scale for k, x in w.items()}
    w["b_c"] = np.linspace(-1, 1, len(corpus.senses))
    f = trainer.forward(w, corpus.train)
    grads = trainer.backward(w, corpus.train, f)
    loss, want = _autograd(w, corpus.train)
    assert abs(f["loss"] - loss) <= 1e-12 * max(1.0, loss)
    # relative to the whole gradient: a saturated softmax makes the W_Q and W_K parts tiny differences of
    # large numbers, equally rounded in both computations
    scale = max(float(np.abs(g).max()) for g in want.values())
    for name in trainer.PARAMS:
        assert grads[name].shape == want[name].shape, name
        assert np.abs(grads[name] - want[name]).max() <= 1e-10 * scale, (name, _rel(grads[name], want[name]))
    if scale_of_weights <= 1.0:  # away from saturation, each parameter's own gradient agrees too
        assert all(_rel(grads[k], want[k]) < 1e-10 for k in trainer.PARAMS), {k: _rel(grads[k], want[k]) for k in want}


def test_corpus_keeps_its_promises() -> None:
    c = trainer.make_corpus({"n_train": 300, "n_test": 200, "seed": 5})
    assert c.vocab[:2] == ("bank", "bat") and len(set(c.vocab)) == len(c.vocab)
    held = set(c.held_out_pairs)
    assert len(held) == 14
    for batch, inside in ((c.train, False), (c.test, True)):
        for i in range(len(batch["ids"])):
            n, q = int(batch["lengths"][i]), int(batch["query"][i])
            words = [c.vocab[j] for j in batch["ids"][i, :n]]
            word, sense = c.senses[int(batch["labels"][i])].split(":")
            cue = [j for j, w in enumerate(words) if w in learning.CUES[word][sense]]
            assert words[q] == word and len(cue) == 1 and ((q, cue[0]) in held) == inside
            assert learning.MIN_LEN <= n <= learning.MAX_LEN and not batch["ids"][i, n:].any()


def test_settings_change_the_corpus() -> None:
    senses = [dict(s) for s in trainer.DEFAULTS["senses"]]
    senses[0] = dict(senses[0], cues=[*senses[0]["cues"], "canoe"])
    senses[1] = dict(senses[1], cues=[c for c in senses[1]["cues"] if c != "coins"])
    own = [{"sense": "bank:river", "text": "the canoe at the bank"}]
    c = trainer.make_corpus({"senses": senses, "sentences": own, "n_train": 50, "n_test": 10})
    assert "canoe" in c.vocab and "coins" not in c.vocab
    assert len(c.train["ids"]) == 51 and c.senses[int(c.train["labels"][-1])] == "bank:river"
    assert [c.vocab[j] for j in c.train["ids"][-1, :5]] == ["the", "canoe", "at", "the", "bank"]
    assert int(c.train["query"][-1]) == 4


def test_training_is_reproducible_and_learns() -> None:
    small = {"n_train": 200, "n_test": 200, "steps": 60, "seed": 7}
    a, b = trainer.train(small), trainer.train(small)
    assert a.losses == b.losses and all(np.array_equal(a.weights[k], b.weights[k]) for k in trainer.PARAMS)
    assert len(a.losses) == len(a.accuracies) == len(a.rows) == 61 and a.stopped is None
    assert a.losses[-1] < 0.5 * a.losses[0] and a.accuracies[-1] > a.accuracies[0]
    c = trainer.train({**small, "seed": 8})
    assert c.losses[0] != a.losses[0]


def test_stop_and_continue_equal_one_run() -> None:
    small = {"n_train": 100, "n_test": 50, "steps": 20, "seed": 3}
    whole = trainer.train(small)
    parts = trainer.Trainer(small).run(stop=lambda t: t.step == 7)
    assert parts.step == 7
    parts.run()
    assert parts.losses == whole.losses and all(np.array_equal(parts.weights[k], whole.weights[k]) for k in trainer.PARAMS)


def test_divergence_stops_and_keeps_the_last_finite_weights() -> None:
    bad = {"n_train": 200, "n_test": 50, "steps": 50, "lr": 0.6, "seed": 0}
    run = trainer.train(bad)
    assert run.stopped is not None and "diverged" in run.stopped and "0.6" in run.stopped
    assert 1 <= run.step < 50 and all(np.isfinite(x).all() for x in run.weights.values())
    again = trainer.Trainer(bad).run(stop=lambda t: t.step == run.step)
    assert again.stopped is None and again.losses == run.losses
    assert all(np.array_equal(again.weights[k], run.weights[k]) for k in trainer.PARAMS)
    before = run.step
    run.run()  # continuing a diverged run changes nothing
    assert run.step == before


@pytest.mark.parametrize(("settings", "message"), [
    ({"n_train": 0}, "the corpus is empty"),
    ({"senses": [dict(trainer.DEFAULTS["senses"][0], cues=[]), *trainer.DEFAULTS["senses"][1:]]},
     "the sense 'bank:river' has no sentence"),
    ({"sentences": [{"sense": "bank:river", "text": "the river was quiet"}]}, "needs exactly one ambiguous word"),
    ({"sentences": [{"sense": "bank:river", "text": "the bank by the volcano"}]}, "['volcano']"),
    ({"sentences": [{"sense": "bank:river", "text": "the bat by the river"}]}, "its ambiguous word is 'bat'"),
    ({"sentences": [{"sense": "bank:shore", "text": "the bank"}]}, "'bank:shore'"),
    ({"lr": 0}, "got 0"),
    ({"lr": -0.1}, "got -0.1"),
    ({"lr": float("nan")}, "got nan"),
    ({"lr": float("inf")}, "got inf"),
    ({"weight_decay": -1}, "got -1"),
    ({"d_model": 0}, "d_model must be a whole number from 1 to 32, got 0"),
    ({"steps": 2.5}, "got 2.5"),
    ({"seed": -1}, "got -1"),
    ({"senses": [trainer.DEFAULTS["senses"][0]]}, "at least two senses"),
    ({"senses": [*trainer.DEFAULTS["senses"], dict(trainer.DEFAULTS["senses"][0])]}, "listed twice"),
    ({"senses": [dict(trainer.DEFAULTS["senses"][0], cues=["bat"]), *trainer.DEFAULTS["senses"][1:]]}, "cannot be both"),
    ({"senses": [dict(trainer.DEFAULTS["senses"][0], cues=["river bank"]), *trainer.DEFAULTS["senses"][1:]]},
     "'river bank' is not a word"),
    ({"watch": "the river"}, "the watched sentence"),
    ({"colour": "red"}, "unknown setting(s) ['colour']"),
    ({"lr": float("-1e308")}, "got -1e308"),
    ({"steps": "9" * 2000}, f"got '{'9' * 20}…' (2000 characters)"),
])
def test_bad_settings_name_the_value(settings: dict, message: str) -> None:
    with pytest.raises(ValueError) as err:
        trainer.Trainer(settings)
    assert message in str(err.value)


def test_the_chapters_run_agrees() -> None:
    """From the chapter's corpus and initial weights, the float64 trainer's losses follow the chapter's
    float32 torch run: the same computation, at float32's precision."""
    corpus = learning.make_corpus(300, 100, seed=0)
    run = learning.train_sense_model(corpus, seed=0, steps=40, n_checkpoints=4)
    ours = trainer.replay_chapter_run(corpus, run)
    gap = np.abs(np.array(ours.losses) - np.array(run.losses)).max()
    assert gap < 1e-3, gap
    assert ours.accuracies[-1] == pytest.approx(run.checkpoint(-1).metrics["accuracy"])


LONG = "x" * 2000


@pytest.mark.parametrize("settings", [
    {"sentences": [{"sense": "bank:river", "text": f"the bank by the {LONG}"}]},
    {"sentences": [{"sense": LONG, "text": "the bank"}]},
    {"watch": f"the bank {LONG}"},
    {"watch": LONG},
    {"senses": [dict(trainer.DEFAULTS["senses"][0], cues=[LONG + "1"]), *trainer.DEFAULTS["senses"][1:]]},
    {"senses": [dict(trainer.DEFAULTS["senses"][0], word=LONG, cues=[LONG]), *trainer.DEFAULTS["senses"][1:]]},
    {"senses": [dict(trainer.DEFAULTS["senses"][0], sense=LONG, cues=[]), *trainer.DEFAULTS["senses"][1:]]},
])
def test_a_pasted_paragraph_is_quoted_short(settings: dict) -> None:
    """Issue 51: a 2,000-character word is quoted by its first 20 characters and its length, never in full."""
    with pytest.raises(ValueError) as err:
        trainer.Trainer(settings)
    text = str(err.value)
    assert "x" * 21 not in text and re.search(r"…' \(20\d\d characters\)", text), text[:300]
    assert len(text) < 300, text[:300]


@pytest.mark.parametrize(("x", "digits", "text"), [
    (1e308, 6, "1e308"), (1e-5, 6, "1e-5"), (0.02, 6, "0.02"), (100.0, 3, "100"), (18.5123, 3, "18.5"),
    (1234.5, 3, "1.23e3"), (123456789.0, 6, "1.23457e8"), (-0.1, 6, "-0.1"), (float("nan"), 3, "nan"),
])
def test_short_number_writes_a_number_as_a_reader_types_it(x: float, digits: int, text: str) -> None:
    assert trainer.short_number(x, digits) == text


def test_a_huge_learning_rate_stops_with_a_message_in_words() -> None:
    """Issue 51: a learning rate of 1e308 stops at step 1 with neither "nan" nor "1e+308" in its message."""
    with np.errstate(over="ignore", invalid="ignore"):
        run = trainer.train({"n_train": 60, "n_test": 20, "steps": 5, "lr": 1e308})
    assert run.stopped is not None and run.step == 0
    assert "no longer a finite number" in run.stopped and "learning rate 1e308 is too large" in run.stopped, run.stopped
    assert "nan" not in run.stopped.lower() and "e+" not in run.stopped
