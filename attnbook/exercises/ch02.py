"""Exercises of chapter 02, "Context changes meaning"."""

from __future__ import annotations

import numpy as np
import torch

import attnlib
from attnlib import examples

from ._core import Choice, Code, Exercise, FindError, Misconception, Mistake, Numeric, Section, fmt
from ._helpers import arr, randn

CH = "02_context"
DOT = Section(CH, "Weights from dot products: one word")
MATRIX = Section(CH, "All words at once: the matrix form")
ORDER = Section(CH, "Two problems: word order and learning")


def _sentence(words: tuple[str, ...]) -> np.ndarray:
    return np.stack([examples.BANK_EMBEDDINGS[w].double().numpy() for w in words])  # (3, 2)


MONEY = _sentence(examples.BANK_SENTENCES[0])
RIVER = _sentence(examples.BANK_SENTENCES[1])
S_MONEY = MONEY @ MONEY.T  # (3, 3)

E02_1 = Exercise(
    id="02.1", kind="compute", skill="weights from dot products and softmax",
    prompt=("In “money bank grows” the vectors are money = " + fmt(MONEY[0], 1) + ", bank = " + fmt(MONEY[1], 1)
            + ", grows = " + fmt(MONEY[2], 1) + ". Score every word against “bank” by the dot product (no "
            "scaling, as in this chapter) and turn the scores into weights. Enter the 3 weights of “bank”'s "
            "row, 3 decimals."),
    answer=Numeric(lambda: attnlib.softmax(S_MONEY)[1], tol=5e-4, expect="3 numbers"),
    mistakes=[
        Mistake(Misconception("scores-as-weights", "scores given where weights are asked",
                              "Those are the dot products; softmax turns them into weights that sum to 1.", DOT),
                value=lambda: S_MONEY[1]),
        Mistake(Misconception("sum-not-softmax", "scores divided by their sum, no exp",
                              "Softmax exponentiates first: exp(sᵢ) / Σ exp(sⱼ).", DOT),
                value=lambda: S_MONEY[1] / S_MONEY[1].sum()),
        Mistake(Misconception("column-softmax", "softmax over the wrong axis",
                              "Normalise “bank”'s row across the words it looks at, not each column.", MATRIX),
                value=lambda: attnlib.softmax(S_MONEY, dim=0)[1]),
    ],
    hint="Scores sⱼ = bank · wordⱼ, then weights = exp(sⱼ) / Σ exp(s).",
    section=DOT, why="“money” gets the largest weight: the new “bank” leans to finance.",
)


def _ctx_reference(e: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(e, e, e, scale=1.0)[0]  # (n, d)


def _ctx_column_softmax(e: torch.Tensor) -> torch.Tensor:
    return attnlib.softmax(e @ e.T, dim=0) @ e  # (n, d)


def _ctx_no_softmax(e: torch.Tensor) -> torch.Tensor:
    return (e @ e.T) @ e  # (n, d)


def _ctx_cases(rng: np.random.Generator) -> list[tuple]:
    return [(torch.from_numpy(MONEY.copy()),), (randn(rng, 4, 2),), (randn(rng, 5, 3),), (randn(rng, 2, 4),)]


E02_2 = Exercise(
    id="02.2", kind="code", skill="self-attention without weights, in matrix form",
    prompt=("Write context_vectors(e): e is an (n, d) tensor of word vectors. Return the (n, d) tensor whose "
            "row i mixes all rows of e with the weights softmax(e eᵀ) of row i (no scaling, as in this chapter)."),
    answer=Code("def context_vectors(e):", "an (n, d) tensor", _ctx_reference, _ctx_cases),
    mistakes=[
        Mistake(Misconception("column-softmax", "softmax over the wrong axis",
                              "Each row of weights must sum to 1: softmax along the last axis (dim=-1).",
                              MATRIX), impl=_ctx_column_softmax),
        Mistake(Misconception("no-softmax", "raw scores used as weights",
                              "Turn the scores e eᵀ into weights with a softmax before mixing.", MATRIX),
                impl=_ctx_no_softmax),
    ],
    hint="S = e @ e.T, W = softmax(S) along each row, then W @ e.",
    section=MATRIX,
)

E02_3 = Exercise(
    id="02.3", kind="predict", skill="attention without positions ignores word order",
    prompt=("Predict, then run: shuffle “money bank grows” to “grows money bank” and recompute the "
            "weightless self-attention of this chapter. What happens to the new vector of “bank”?"),
    answer=Choice([("a", "It is exactly the same as before."),
                   ("b", "It changes, because “bank” now sits at the end."),
                   ("c", "It becomes the vector of “grows”.")], "a"),
    mistakes=[
        Mistake(Misconception("sees-order", "attention sees word order",
                              "The scores use only the vectors, not their positions: a shuffle permutes rows, "
                              "nothing else.", ORDER), option="b"),
    ],
    hint="Which numbers does the new “bank” depend on? Do any of them encode a position?",
    section=ORDER, why="Same vectors, same dot products, same mix: order is invisible without positions.",
)

S_RIVER = RIVER @ RIVER.T  # (3, 3)
W_RIVER = arr(attnlib.softmax(S_RIVER)[1])  # (3,)
W_SLIP = S_RIVER[1] / S_RIVER[1].sum()  # the slip: no exponential

E02_4 = Exercise(
    id="02.4", kind="find-error", skill="the new vector of a word, by hand",
    prompt=("A reader rebuilds “bank” in “river bank flows” (river = " + fmt(RIVER[0], 1) + ", bank = "
            + fmt(RIVER[1], 1) + ", flows = " + fmt(RIVER[2], 1) + "), with no scaling. One step has a slip: "
            "which one, and what is the right weight of “river” (3 decimals)?"),
    answer=FindError(
        steps=[("a", f"scores bank · (river, bank, flows) = {fmt(S_RIVER[1], 2)}"),
               ("b", f"weights = scores / their sum = {fmt(W_SLIP, 3)}"),
               ("c", f"new bank = Σ weightⱼ · wordⱼ = {fmt(W_SLIP @ RIVER, 3)}")],
        wrong_step="b", value=Numeric(lambda: W_RIVER[0], tol=5e-4, expect="one number"),
        value_hint="Step b is the one: the weight of “river” is exp(s_river) / Σ exp(s)."),
    mistakes=[
        Mistake(Misconception("blamed-the-mix", "the step that shows the slip, not the one that made it",
                              "Step c mixes correctly with the weights it was given.", MATRIX), option="c"),
        Mistake(Misconception("dots-wrong", "the dot products doubted",
                              "Step a is right: 1·0.2 + 1·2.0 and so on.", DOT), option="a"),
        Mistake(Misconception("copied-the-slip", "the slipped value copied",
                              "That weight has no exponential in it; softmax needs one.", DOT),
                value=lambda: W_SLIP[0]),
        Mistake(Misconception("score-not-weight", "a score given where a weight is asked",
                              "Give the weight of “river”, after the softmax.", DOT), value=lambda: S_RIVER[1, 0]),
    ],
    hint="Redo each step: dot products, then softmax, then the weighted sum.",
    section=DOT, why="Dividing scores by their sum is not softmax: it ignores how much larger one score is.",
)

EXERCISES = [E02_1, E02_2, E02_3, E02_4]
