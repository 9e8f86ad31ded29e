"""Bad input raises ValueError/TypeError whose message names what it got. Never a silent NaN."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import attnlib
from attnlib import decoding, plots, positions
from attnlib.companions import foils, order, recurrence, report, scaling, scratch, text
from attnlib.widgets import (
    ContinueText,
    DecodingStepper,
    DotProductSpread,
    GeometricAttention,
    SoftmaxSharpening,
    TemperatureSlider,
)

from ..strategies import k3, nan_q, q3, v3

sdpa = attnlib.scaled_dot_product_attention

CASES = [
    # (id, callable, exception, substring expected in the message)
    ("q rank 1", lambda: sdpa(torch.randn(4), k3, v3), ValueError, "(4,)"),
    ("d_k mismatch", lambda: sdpa(q3, torch.randn(2, 5, 3), v3), ValueError, "(2, 5, 3)"),
    ("n of k != n of v", lambda: sdpa(q3, k3, torch.randn(2, 4, 6)), ValueError, "(2, 4, 6)"),
    ("mask does not broadcast", lambda: sdpa(q3, k3, v3, mask=torch.ones(3, 3, dtype=torch.bool)), ValueError, "(3, 3)"),
    ("mask wrong dtype", lambda: sdpa(q3, k3, v3, mask=torch.ones(3, 5, dtype=torch.int64)), ValueError, "torch.int64"),
    ("mask not an array", lambda: sdpa(q3, k3, v3, mask=[[True]]), TypeError, "list"),
    ("no features", lambda: sdpa(torch.randn(2, 3, 0), torch.randn(2, 5, 0), v3), ValueError, "(2, 3, 0)"),
    ("mixed dtypes", lambda: sdpa(q3.double(), k3, v3), TypeError, "torch.float64"),
    ("softmax dim out of range", lambda: attnlib.softmax(q3, dim=3), ValueError, "dim 3 is out of range"),
    ("softmax dim not an int", lambda: attnlib.softmax(q3, dim=1.0), TypeError, "float"),
    ("mha dtype differs from weights", lambda: attnlib.MultiHeadAttention(8, 2)(torch.randn(2, 3, 8).double()),
     TypeError, "torch.float64"),
    ("step with a cache of other heads", lambda: attnlib.MultiHeadAttention(8, 2).step(torch.randn(1, 1, 8),
                                                                                    attnlib.KVCache(1, 3, 4)),
     ValueError, "(1, 3, 4, 4)"),
    ("step without a KVCache", lambda: attnlib.MultiHeadAttention(8, 2).step(torch.randn(1, 1, 8), [torch.zeros(1)]),
     TypeError, "list"),
    ("generate with a rule, not a chooser", lambda: attnlib.generate(attnlib.TinyLM(5, n_layers=0), [1], 2, "greedy"),
     TypeError, "str"),
    ("mha batched and unbatched", lambda: attnlib.TorchCompatMultiHeadAttention(8, 2)(torch.randn(3, 8), torch.randn(1, 3, 8)),
     ValueError, "all be batched or all unbatched"),
    ("cache dtype mismatch", lambda: attnlib.KVCache(1, 2, 4).append(torch.ones(1, 2, 1, 4).double(),
                                                                        torch.ones(1, 2, 1, 4).double()),
     TypeError, "torch.float64"),
    ("mha_step with kdim", lambda: attnlib.MultiHeadAttention(8, 2, kdim=4, vdim=4).step(torch.randn(1, 1, 8), attnlib.KVCache(1, 2, 4)),
     ValueError, "kdim=4"),
    ("mha_step key_mask too short", lambda: attnlib.MultiHeadAttention(8, 2).step(torch.randn(1, 2, 8),
                                                                      attnlib.KVCache(1, 2, 4), key_mask=torch.ones(1, 1, dtype=torch.bool)),
     ValueError, "(1, 2)"),
    ("int dtype", lambda: sdpa(q3.long(), k3, v3), ValueError, "torch.int64"),
    ("bool dtype", lambda: sdpa(q3, k3.bool(), v3), ValueError, "torch.bool"),
    ("complex dtype", lambda: sdpa(np.ones((3, 4), complex), np.ones((5, 4)), np.ones((5, 6))), ValueError, "complex128"),
    ("list input", lambda: sdpa([[1.0]], k3, v3), TypeError, "list"),
    ("mixed backends", lambda: sdpa(q3, k3.numpy(), v3), TypeError, "ndarray"),
    ("NaN input", lambda: sdpa(nan_q, k3, v3), ValueError, "NaN"),
    ("inf input", lambda: sdpa(q3, k3, v3 * float("inf")), ValueError, "Inf"),
    ("scale zero", lambda: sdpa(q3, k3, v3, scale=0.0), ValueError, "0.0"),
    ("scale negative", lambda: sdpa(q3, k3, v3, scale=-1), ValueError, "-1"),
    ("temperature zero", lambda: attnlib.softmax(q3, temperature=0), ValueError, "temperature"),
    ("temperature negative", lambda: attnlib.softmax(q3, temperature=-2.0), ValueError, "-2.0"),
    ("softmax int", lambda: attnlib.softmax(torch.arange(3)), ValueError, "torch.int64"),
    ("softmax NaN", lambda: attnlib.softmax(np.array([1.0, np.nan])), ValueError, "NaN"),
    ("softmax string", lambda: attnlib.softmax("abc"), TypeError, "str"),
    ("softmax empty", lambda: attnlib.softmax(torch.empty(2, 0)), ValueError, "(2, 0)"),
    ("heads do not divide", lambda: attnlib.MultiHeadAttention(10, 3), ValueError, "d_out=10, num_heads=3"),
    ("heads zero", lambda: attnlib.MultiHeadAttention(8, 0), ValueError, "0"),
    ("mha wrong width", lambda: attnlib.MultiHeadAttention(8, 2)(torch.randn(2, 3, 6)), ValueError, "(2, 3, 6)"),
    ("v2 wrong width", lambda: attnlib.SelfAttentionV2(3, 2)(torch.randn(4, 5)), ValueError, "(4, 5)"),
    ("v1 numpy input", lambda: foils.SelfAttentionV1(3, 2)(np.ones((4, 3))), TypeError, "ndarray"),
    ("causal n zero", lambda: attnlib.causal_mask(0), ValueError, "0"),
    ("causal n float", lambda: attnlib.causal_mask(2.5), TypeError, "float"),
    ("padding length > n", lambda: attnlib.padding_mask([2, 7], 5), ValueError, "[2, 7]"),
    ("padding negative length", lambda: attnlib.padding_mask([-1], 5), ValueError, "[-1]"),
    ("padding float lengths", lambda: attnlib.padding_mask([1.5], 5), ValueError, "float"),
    # the PyTorch-style arguments (issue 14)
    ("is_causal string", lambda: sdpa(q3, k3, v3, is_causal="yes"), TypeError, "str"),
    ("alignment unknown", lambda: sdpa(q3, k3, v3, is_causal=True, causal_alignment="diagonal"), ValueError,
     "'diagonal'"),
    ("alignment without is_causal", lambda: sdpa(q3, k3, v3, causal_alignment="bottom_right"), ValueError,
     "'bottom_right'"),
    ("float mask NaN", lambda: sdpa(q3, k3, v3, mask=torch.tensor([0.0, float("nan"), 0, 0, 0])), ValueError, "NaN"),
    ("float mask +inf", lambda: sdpa(q3, k3, v3, mask=torch.full((5,), float("inf"))), ValueError, "+inf"),
    ("dropout_p one", lambda: sdpa(q3, k3, v3, dropout_p=1.0), ValueError, "1.0"),
    ("dropout_p string", lambda: sdpa(q3, k3, v3, dropout_p="0.1"), TypeError, "str"),
    ("dropout without generator", lambda: sdpa(q3, k3, v3, dropout_p=0.1), ValueError, "generator"),
    ("dropout numpy generator for torch", lambda: sdpa(q3, k3, v3, dropout_p=0.1,
                                                       generator=np.random.default_rng(0)), TypeError, "Generator"),
    ("heads without enable_gqa", lambda: sdpa(torch.randn(4, 3, 2), torch.randn(2, 5, 2), torch.randn(2, 5, 2)),
     ValueError, "enable_gqa=True"),
    ("gqa heads do not divide", lambda: sdpa(torch.randn(1, 3, 4, 2), torch.randn(1, 2, 5, 2), torch.randn(1, 2, 5, 2),
                                             enable_gqa=True), ValueError, "(1, 2, 5, 2)"),
    ("gqa without head axis", lambda: sdpa(torch.randn(4, 2), torch.randn(5, 2), torch.randn(5, 2), enable_gqa=True),
     ValueError, "(4, 2)"),
    ("enable_gqa string", lambda: sdpa(q3, k3, v3, enable_gqa="yes"), TypeError, "str"),
    ("causal_mask n_k zero", lambda: attnlib.causal_mask(3, 0), ValueError, "n_k"),
    ("causal_mask alignment", lambda: attnlib.causal_mask(3, 4, alignment="left"), ValueError, "'left'"),
    ("chunked old causal alias is gone", lambda: attnlib.chunked_attention(q3, k3, v3, causal=True),
     TypeError, "'causal'"),
    ("chunked float mask NaN", lambda: attnlib.chunked_attention(q3, k3, v3, mask=torch.full((5,), float("nan"))),
     ValueError, "NaN"),
    ("mha 3-d mask", lambda: attnlib.MultiHeadAttention(8, 2)(torch.randn(2, 3, 8), mask=torch.ones(2, 1, 3).bool()),
     ValueError, "key_mask"),
    ("mha 4-d mask heads", lambda: attnlib.MultiHeadAttention(8, 2)(torch.randn(2, 3, 8),
                                                                    mask=torch.ones(2, 3, 3, 3).bool()), ValueError,
     "(2, 3, 3, 3)"),
    ("mha key_mask shape", lambda: attnlib.MultiHeadAttention(8, 2)(torch.randn(2, 3, 8),
                                                                    key_mask=torch.ones(3, 3).bool()), ValueError, "(3, 3)"),
    ("mha kdim zero", lambda: attnlib.MultiHeadAttention(8, 2, kdim=0), ValueError, "kdim"),
    ("mha key width", lambda: attnlib.MultiHeadAttention(8, 2, kdim=4)(torch.randn(2, 3, 8)), ValueError, "(2, 3, 8)"),
    ("mha dropout 1.5", lambda: attnlib.TorchCompatMultiHeadAttention(8, 2, dropout=1.5), ValueError, "1.5"),
    ("mha dropout without generator", lambda: attnlib.TorchCompatMultiHeadAttention(8, 2, dropout=0.1).train()(
        torch.randn(2, 3, 8)), ValueError, "generator"),
    ("mha batch_first string", lambda: attnlib.TorchCompatMultiHeadAttention(8, 2, batch_first="no"), TypeError, "str"),
    ("mha need_weights string", lambda: attnlib.TorchCompatMultiHeadAttention(8, 2)(torch.randn(2, 3, 8), need_weights="no"),
     TypeError, "str"),
    ("mha batch mismatch", lambda: attnlib.MultiHeadAttention(8, 2)(torch.randn(2, 3, 8), torch.randn(3, 3, 8)),
     ValueError, "(3, 3, 8)"),
    ("load_from_torch bias", lambda: attnlib.TorchCompatMultiHeadAttention(8, 2).load_from_torch(
        torch.nn.MultiheadAttention(8, 2, bias=False, batch_first=True)), ValueError, "bias: torch False"),
    ("max_diff shapes", lambda: report.max_diff(torch.zeros(2, 3), torch.zeros(3, 2)), ValueError, "(3, 2)"),
    ("max_diff mixed", lambda: report.max_diff(torch.zeros(2), np.zeros(2)), TypeError, "ndarray"),
    ("show_shape list", lambda: report.show_shape("x", [1, 2], "list"), TypeError, "list"),
    ("cache capacity zero", lambda: attnlib.KVCache(1, 2, 4, capacity=0), ValueError, "capacity"),
    ("cache append shape", lambda: attnlib.KVCache(1, 2, 4, capacity=3).append(torch.zeros(1, 3, 1, 4),
                                                                                 torch.zeros(1, 3, 1, 4)),
     ValueError, "(1, 3, 1, 4)"),
    ("cache int dtype", lambda: attnlib.KVCache(1, 2, 4, capacity=3, dtype=torch.int64), TypeError, "torch.int64"),
    ("cache bytes layers zero", lambda: decoding.kv_cache_bytes(layers=0, kv_heads=1, n=2, d_k=2), ValueError,
     "layers"),
    ("decode flops t float", lambda: decoding.decode_step_flops(2.5, 8), TypeError, "float"),
    ("mha_step wrong width", lambda: attnlib.MultiHeadAttention(8, 2).step(torch.zeros(1, 2, 6),
                                                                attnlib.KVCache(1, 2, 4, capacity=3)), ValueError, "(1, 2, 6)"),
    ("generate prompt too long", lambda: decoding.teacher_forced_cached(attnlib.MultiHeadAttention(8, 2),
                                                                  torch.zeros(1, 2, 8), prompt=3), ValueError, "3"),
    # plot helpers
    ("heatmap 1-d", lambda: plots.heatmap(np.ones(3)), ValueError, "(3,)"),
    ("heatmap NaN", lambda: plots.heatmap(np.array([[np.nan]])), ValueError, "NaN"),
    ("heatmap labels", lambda: plots.heatmap(np.ones((2, 2)), row_labels=["a"]), ValueError, "(2, 2)"),
    ("vectors_2d 3-d vector", lambda: plots.vectors_2d({"a": [1, 2, 3]}), ValueError, "(3,)"),
    ("grouped_bars length", lambda: plots.grouped_bars({"a": [1, 2]}, ["x"]), ValueError, "(2,)"),
    ("histograms NaN", lambda: plots.histograms({"a": [1.0, np.nan]}), ValueError, "NaN"),
    ("growth zero on log axes", lambda: plots.growth([1, 2], {"t": [0.0, 1.0]}), ValueError, "'t' must be > 0"),
    ("tiling block_size 0", lambda: plots.tiling(8, 0), ValueError, "block_size must be a positive int, got 0"),
    ("tiling current out of range", lambda: plots.tiling(8, 4, current=(2, 0)), ValueError, "(2, 0)"),
    ("tiling causal future", lambda: plots.tiling(8, 4, current=(0, 1), causal=True), ValueError, "causal future"),
    # text
    ("one_hot unknown word", lambda: text.one_hot(["zebra"], ["cat", "dog"]), ValueError, "zebra"),
    ("cosine of zero vector", lambda: text.cosine_similarity([0, 0], [1, 0]), ValueError, "zero vector"),
    ("cosine shapes", lambda: text.cosine_similarity([1, 0, 0], [1, 0]), ValueError, "(3,) and (2,)"),
    ("usage negative count", lambda: text.usage_weighted_average(np.eye(2), [-1, 2]), ValueError, "-1.0"),
    # the NumPy pipeline
    ("tokenizer bad entry", lambda: scratch.Tokenizer(["a b"]), ValueError, "'a b'"),
    ("positional n zero", lambda: scratch.sinusoidal_positional_encoding(0, 4), ValueError, "0"),
    ("self_attention W_q shape", lambda: scratch.self_attention(np.ones((3, 4)), np.ones((5, 2)), np.ones((4, 2)),
                                                                 np.ones((4, 2))), ValueError, "(5, 2)"),
    ("rnn list input", lambda: recurrence.rnn_forward([[1.0]], np.ones((1, 1)), np.ones((1, 1))), TypeError, "list"),
    ("path unknown word", lambda: recurrence.path_counts(["a", "b"], "a", "z"), ValueError, "'z'"),
    # scaling experiments
    ("dot products d zero", lambda: scaling.random_dot_products(0, seed=0), ValueError, "0"),
    ("seed float", lambda: scaling.random_dot_products(3, seed=1.5), TypeError, "float"),
    ("seed negative", lambda: scaling.random_dot_products(3, seed=-1), ValueError, "-1"),
    ("entropy not normalised", lambda: scaling.entropy(np.array([0.5, 0.7])), ValueError, "sum to 1"),
    ("jacobian int", lambda: scaling.softmax_jacobian(np.array([1, 0])), ValueError, "int64"),
    # attention at scale
    ("chunked block_size zero", lambda: attnlib.chunked_attention(q3, k3, v3, block_size=0), ValueError, "0"),
    ("chunked numpy", lambda: attnlib.chunked_attention(q3.numpy(), k3.numpy(), v3.numpy()), TypeError, "ndarray"),
    ("online update v rows", lambda: attnlib.chunked.online_softmax_update(
        torch.zeros(2, 3), torch.zeros(4, 1), torch.zeros(2, 1), torch.zeros(2, 1), torch.zeros(2, 1)),
     ValueError, "(4, 1)"),
    ("chunked block_size float", lambda: attnlib.chunked_attention(q3, k3, v3, block_size=2.5), TypeError, "float"),
    ("chunked is_causal string", lambda: attnlib.chunked_attention(q3, k3, v3, is_causal="yes"), TypeError, "str"),
    ("chunked d_k mismatch", lambda: attnlib.chunked_attention(q3, torch.randn(2, 5, 3), v3), ValueError, "(2, 5, 3)"),
    ("matrix bytes n float", lambda: attnlib.companions.cost.score_matrix_bytes(1, 1, 2.5), TypeError, "float"),
    # widgets (Python side)
    ("widget temperature zero", lambda: TemperatureSlider([1.0, 2.0], temperature=0), ValueError, "0.0"),
    ("widget scores NaN", lambda: TemperatureSlider([1.0, float("nan")]), ValueError, "NaN"),
    ("widget one score", lambda: SoftmaxSharpening(scores=[1.0]), ValueError, "(1,)"),
    ("widget d_k string", lambda: SoftmaxSharpening(d_k="big"), TypeError, "str"),
    ("widget q/k mismatch", lambda: GeometricAttention(query=[1.0, 2.0, 3.0]), ValueError, "(3,)"),
    ("widget values rows", lambda: GeometricAttention(keys=np.ones((3, 2)), values=np.ones((2, 2))), ValueError,
     "(2, 2)"),
    ("decoding widget tokens", lambda: DecodingStepper(["one"]), ValueError, "['one']"),
    ("decoding widget step float", lambda: DecodingStepper(step=2.5), TypeError, "float"),
    ("widget seed negative", lambda: DotProductSpread(seed=-3), ValueError, "-3"),
    # positions ("Where words are: positions"); tests/lib/test_positions.py has the full catalogue
    ("rope odd width", lambda: positions.apply_rope(torch.randn(3, 5)), ValueError, "d=5"),
    ("rope positions shape", lambda: positions.apply_rope(torch.randn(3, 4), [0, 1]), ValueError, "(2,)"),
    ("rope negative position", lambda: positions.apply_rope(torch.randn(3, 4), [0, -1, 2]), ValueError, "-1"),
    ("rope fractional position", lambda: positions.apply_rope(torch.randn(3, 4), [0, 0.5, 2]), ValueError, "0.5"),
    ("sinusoidal odd width", lambda: positions.sinusoidal_table(8, 3), ValueError, "d=3"),
    ("mha rope odd head width", lambda: attnlib.MultiHeadAttention(6, 2, rope=True), ValueError, "d_k=3"),
    ("echo model start negative", lambda: order.PositionModel(4, 4, "rope", max_len=8)(torch.zeros(1, 2, dtype=torch.long),
                                                                                       start=-1), ValueError, "-1"),
    ("continue text: not a TinyLM", lambda: ContinueText(torch.nn.Linear(2, 2), list("ab\ncd")), TypeError, "Linear"),
    ("continue text: a character twice", lambda: ContinueText(attnlib.TinyLM(5, rope=True), list("ab\nca")), ValueError,
     "5 characters, each once"),
    ("continue text: no new line", lambda: ContinueText(attnlib.TinyLM(5, rope=True), list("abcde")), ValueError,
     "new line"),
]


# --- "Attention that learns" (issue 18): gradients, the trained sense model, the lookup task ------------
from attnlib.companions import grads, learning, lookup, trainer  # noqa: E402
from attnlib.widgets import AskModel, TrainingReplay, TrainItYourself  # noqa: E402

_X, _P, _T = grads.random_layer(seed=0)
_STATE = {"embed": np.zeros((len(learning.VOCAB), 4)), "pos": np.zeros((learning.MAX_LEN, 4)),
          **{k: np.zeros((4, 4)) for k in ("w_q", "w_k", "w_v")}, "w_c": np.zeros((4, len(learning.SENSES))),
          "b_c": np.zeros(len(learning.SENSES))}
_RUN = learning.TrainingRun(model=None, losses=[1.0], checkpoints=[learning.Checkpoint(0, _STATE, 1.0)])

LEARNING_CASES = [
    ("grads x 1-d", lambda: grads.manual_gradients(np.ones(3), _P, _T), ValueError, "(3,)"),
    ("grads missing w_c", lambda: grads.manual_gradients(_X, {k: _P[k] for k in ("w_q", "w_k", "w_v")}, _T),
     ValueError, "w_c"),
    ("grads w_q rows", lambda: grads.manual_gradients(_X, {**_P, "w_q": np.ones((7, 3))}, _T), ValueError, "(7, 3)"),
    ("grads target out of range", lambda: grads.manual_gradients(_X, _P, np.full(5, 9)), ValueError, "[0, 2)"),
    ("grads NaN input", lambda: grads.autograd_gradients(np.full_like(_X, np.nan), _P, _T), ValueError, "NaN"),
    ("grads eps zero", lambda: grads.numerical_gradients(_X, _P, _T, eps=0.0), ValueError, "0.0"),
    ("relative error shapes", lambda: grads.relative_error(np.ones(2), np.ones(3)), ValueError, "(3,)"),
    ("corpus held_out 1", lambda: learning.make_corpus(10, 10, held_out=1.0), ValueError, "1.0"),
    ("corpus n_train zero", lambda: learning.make_corpus(0), ValueError, "0"),
    ("predict unknown word", lambda: learning.predict_np(_STATE, "the bank by the volcano"), ValueError, "volcano"),
    ("predict empty sentence", lambda: learning.predict_np(_STATE, "   "), ValueError, "empty"),
    ("predict too long", lambda: learning.predict_np(_STATE, "the bank " + "the " * 8), ValueError, "10 words"),
    ("predict no ambiguous word", lambda: learning.predict_np(_STATE, "the river"), ValueError, "got 0"),
    ("predict not text", lambda: learning.predict_np(_STATE, 42), TypeError, "int"),
    ("predict bad state", lambda: learning.predict_np({**_STATE, "w_q": np.ones((3, 4))}, "bank river"),
     ValueError, "(3, 4)"),
    ("checkpoint out of range", lambda: _RUN.checkpoint(5), IndexError, "5"),
    ("checkpoint float", lambda: _RUN.checkpoint(1.0), TypeError, "float"),
    ("replay out of range", lambda: learning.replay_frame(_RUN, -2, "bank river"), IndexError, "-2"),
    ("readout heads", lambda: learning.AttentionReadout(4, 6, 2, n_heads=4), ValueError, "n_heads=4"),
    ("fit weight decay", lambda: learning.fit(torch.nn.Linear(1, 1), lambda: torch.zeros(()), steps=1, lr=0.1,
                                              n_checkpoints=1, metrics=dict, weight_decay=-1.0), ValueError, "-1.0"),
    ("lookup ideal d_model", lambda: lookup.ideal_model(d_model=4), ValueError, "4"),
    ("lookup head out of range", lambda: lookup.letter_match_matrix(lookup.ideal_model(), head=1), ValueError, "1"),
    ("diagonal cosine not square", lambda: lookup.diagonal_cosine(np.ones((2, 3))), ValueError, "(2, 3)"),
    # the widgets of "Attention that learns" (Python side)
    ("replay not a run", lambda: TrainingReplay({"a": 1}, ["bank river"]), TypeError, "dict"),
    ("replay index out of range", lambda: TrainingReplay(_RUN, ["bank river"], index=3), IndexError, "3"),
    ("replay no sentences", lambda: TrainingReplay(_RUN, []), ValueError, "[]"),
    ("replay unknown word", lambda: TrainingReplay(_RUN, ["bank volcano"]), ValueError, "volcano"),
    ("replay sentence index", lambda: TrainingReplay(_RUN, ["bank river"], sentence=2), ValueError, "2"),
    ("ask bad state", lambda: AskModel({"embed": np.ones((2, 2))}), ValueError, "w_q"),
    ("ask sentence not text", lambda: AskModel(_STATE, sentence=["bank"]), TypeError, "list"),
    # the float64 trainer of "Train it yourself" and its widget (issue 36)
    ("trainer settings not a mapping", lambda: trainer.check_settings([1]), TypeError, "list"),
    ("trainer lr NaN", lambda: trainer.train({"lr": float("nan")}), ValueError, "got nan"),
    ("trainer lr not a number", lambda: trainer.train({"lr": "fast"}), TypeError, "str"),
    ("trainer empty corpus", lambda: trainer.make_corpus({"n_train": 0}), ValueError, "the corpus is empty"),
    ("trainer sense without sentence", lambda: trainer.make_corpus(
        {"senses": [dict(trainer.DEFAULTS["senses"][0], cues=[]), *trainer.DEFAULTS["senses"][1:]]}), ValueError, "bank:river"),
    ("trainer unknown word", lambda: trainer.make_corpus(
        {"sentences": [{"sense": "bank:river", "text": "the bank by the volcano"}]}), ValueError, "volcano"),
    ("trainer d_model too wide", lambda: trainer.train({"d_model": 100}), ValueError, "got 100"),
    ("trainer widget bad lr", lambda: TrainItYourself({"lr": -1.0}), ValueError, "got -1"),
    ("trainer widget ask not text", lambda: TrainItYourself(ask=3), TypeError, "int"),
]


# --- attnbook.exercises (the exercise checker) -----------------------------------------------------
# A reader's bad *answer* is a verdict, never an exception (tests/book/test_exercises.py); these are bad
# arguments to the checker itself and to the exercise data types.
from attnbook import exercises as ex_mod  # noqa: E402

_MISC = ex_mod.Misconception("k", "name", "hint")

EXERCISE_CASES = [
    ("exercise id unknown", lambda: ex_mod.diagnose("99.9", 1.0), KeyError, "'99.9'"),
    ("exercise id not a str", lambda: ex_mod.check(7.2, 1.0), KeyError, "7.2"),
    ("show chapter unknown", lambda: ex_mod.show("99"), ValueError, "'99'"),
    ("numeric answer NaN", lambda: ex_mod.Numeric(lambda: float("nan"), tol=0.1, expect="x"), ValueError, "nan"),
    ("choice correct not an option", lambda: ex_mod.Choice([("a", "x")], "b"), ValueError, "'b'"),
    ("mistake with two answers", lambda: ex_mod.Mistake(_MISC, value=lambda: 1.0, option="a"), ValueError, "exactly one"),
    ("exercise id malformed", lambda: ex_mod.Exercise(
        "7.2", "compute", "s", "p", ex_mod.Numeric(lambda: 1.0, tol=0.1, expect="x"), [], "h",
        ex_mod.Section("07_i_am_happy", "t")), ValueError, "'7.2'"),
    ("exercise kind unknown", lambda: ex_mod.Exercise(
        "07.9", "guess", "s", "p", ex_mod.Numeric(lambda: 1.0, tol=0.1, expect="x"), [], "h",
        ex_mod.Section("07_i_am_happy", "t")), ValueError, "'guess'"),
]


ALL_CASES = CASES + LEARNING_CASES + EXERCISE_CASES


@pytest.mark.parametrize(("fn", "exc", "needle"), [c[1:] for c in ALL_CASES], ids=[c[0] for c in ALL_CASES])
def test_bad_input_raises_clear_error(fn, exc, needle) -> None:  # noqa: ANN001
    with pytest.raises(exc) as info:
        fn()
    assert needle in str(info.value), f"message {str(info.value)!r} does not name {needle!r}"
