"""Exercises of chapter 07, "Worked example: 'I am happy'"."""

from __future__ import annotations

import math

import numpy as np
import torch

import attnlib
from attnlib import examples

from ._core import Code, Exercise, FindError, Misconception, Mistake, Numeric, Section, fmt
from ._helpers import randn

CH = "07_i_am_happy"
SCORES_SEC = Section(CH, "Step 3: scores $QK^\\top$")
SCALE = Section(CH, "Step 4: scaling by $\\sqrt{d_k}$")
SOFTMAX = Section(CH, "Step 5: softmax, row by row")
CONTEXT = Section(CH, "Step 6: context vectors")
ROUNDED = Section(CH, "A rounded divisor and rounded exponentials")

E = examples.HAPPY_EMBEDDINGS.double().numpy()  # (3, 3), Q = K = V = E
D = E.shape[1]
S = E @ E.T  # (3, 3)
SCALED = S / math.sqrt(D)  # (3, 3)
WORDS = examples.HAPPY_WORDS

E07_1 = Exercise(
    id="07.1", kind="compute", skill="a row of scaled scores",
    prompt=(f"With Q = K = the embeddings {fmt(E[0], 1)}, {fmt(E[1], 1)}, {fmt(E[2], 1)} (d_k = {D}), the scores "
            f"of “am” are {fmt(S[1], 2)}. Enter its scaled scores, 3 decimals."),
    answer=Numeric(lambda: SCALED[1], tol=5e-4, expect="3 numbers"),
    mistakes=[
        Mistake(Misconception("missing-scale", "the 1/√d_k factor forgotten",
                              "Divide each score by √d_k = √3.", SCALE), value=lambda: S[1]),
        Mistake(Misconception("divide-by-dk", "divided by d_k instead of √d_k",
                              "The divisor is √3 ≈ 1.732, not 3.", SCALE), value=lambda: S[1] / D),
    ],
    hint="Divide each of the three scores by √3.",
    section=SCALE, why="Scaling shrinks all three by the same factor; their order is kept.",
)

E07_2 = Exercise(
    id="07.2", kind="compute", skill="a row of attention weights",
    prompt=f"The scaled scores of “I” are {fmt(SCALED[0], 4)}. Enter the attention weights of “I”, 3 decimals.",
    answer=Numeric(lambda: attnlib.softmax(SCALED)[0], tol=5e-4, expect="3 numbers"),
    mistakes=[
        Mistake(Misconception("scores-as-weights", "scores given where weights are asked",
                              "Those are the scaled scores; softmax turns them into weights that sum to 1.",
                              SOFTMAX), value=lambda: SCALED[0]),
        Mistake(Misconception("unscaled-softmax", "softmax of the unscaled scores",
                              "Apply softmax after dividing by √d_k.", SCALE),
                value=lambda: attnlib.softmax(S)[0]),
        Mistake(Misconception("column-softmax", "softmax over the wrong axis",
                              "Normalise the row of “I” across the keys, not each column across the queries.",
                              SOFTMAX), value=lambda: attnlib.softmax(SCALED, dim=0)[0]),
    ],
    hint="exp of each scaled score, divided by the sum of the three.",
    section=SOFTMAX, why="Small scores give nearly uniform weights, leaning slightly to “happy”.",
)

ROW = 2  # "happy"
EXP = np.exp(SCALED[ROW])
EXP_SLIP = EXP.copy()
EXP_SLIP[1] = np.exp(S[ROW, 1])  # the slip: exp of the unscaled middle score

E07_3 = Exercise(
    id="07.3", kind="find-error", skill="the softmax of one row, by hand",
    prompt=(f"A reader computes the weights of “{WORDS[ROW]}” by hand. One step has a slip: which one, and "
            "what is the right value of the number it got wrong (3 decimals)?"),
    answer=FindError(
        steps=[("a", f"scores: {fmt(S[ROW], 2)}"),
               ("b", f"scaled by √3: {fmt(SCALED[ROW], 3)}"),
               ("c", f"exponentials: {fmt(EXP_SLIP, 3)}"),
               ("d", f"sum: {EXP_SLIP.sum():.3f}"),
               ("e", f"weights: {fmt(EXP_SLIP / EXP_SLIP.sum(), 3)}")],
        wrong_step="c", value=Numeric(lambda: EXP[1], tol=5e-4, expect="one number"),
        value_hint="Step c is the one. Recompute the exponential of the middle scaled score."),
    mistakes=[
        Mistake(Misconception("scale-doubted", "the scaling doubted",
                              "Step b is right: each score divided by √3 ≈ 1.732.", SCALE), option="b"),
        Mistake(Misconception("blamed-the-result", "the step that shows the slip, not the one that made it",
                              "Steps d and e are right for the numbers they were given.", SOFTMAX), option="e"),
        Mistake(Misconception("copied-the-slip", "the slipped value copied",
                              "That is e to the unscaled score; use the scaled one from step b.", SCALE),
                value=lambda: EXP_SLIP[1]),
        Mistake(Misconception("rounded-early", "rounding too early",
                              "Keep the scaled score unrounded (or to 4 decimals) before exp.", ROUNDED),
                value=lambda: float(np.exp(np.round(SCALED[ROW, 1], 2)))),
    ],
    hint="Check each step against the one before it.",
    section=SOFTMAX, why="The middle exponential used the unscaled score, and every later number inherited it.",
)


def _sa_reference(x: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(x, x, x)[0]  # (n, d)


def _sa_unscaled(x: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(x, x, x, scale=1.0)[0]  # (n, d)


def _sa_columns(x: torch.Tensor) -> torch.Tensor:
    return attnlib.softmax(x @ x.T / math.sqrt(x.shape[-1]), dim=0) @ x  # (n, d)


def _sa_weights(x: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(x, x, x)[1]  # (n, n): the weights, not the output


def _sa_cases(rng: np.random.Generator) -> list[tuple]:
    return [(torch.from_numpy(E.copy()),), (randn(rng, 4, 3),), (randn(rng, 5, 2),), (randn(rng, 2, 6),)]


E07_4 = Exercise(
    id="07.4", kind="code", skill="scaled self-attention with Q = K = V",
    prompt=("Write self_attention(x): x is (n, d). With Q = K = V = x, return the (n, d) context vectors "
            "softmax(x xᵀ / √d) x."),
    answer=Code("def self_attention(x):", "an (n, d) tensor", _sa_reference, _sa_cases),
    mistakes=[
        Mistake(Misconception("missing-scale", "the 1/√d_k factor forgotten",
                              "Divide the scores by √d before the softmax.", SCALE), impl=_sa_unscaled),
        Mistake(Misconception("column-softmax", "softmax over the wrong axis",
                              "Each row of weights must sum to 1: softmax with dim=-1.", SOFTMAX), impl=_sa_columns),
        Mistake(Misconception("weights-not-output", "the weights returned, not the context vectors",
                              "Multiply the weights by V = x to get the context vectors.", CONTEXT),
                impl=_sa_weights),
    ],
    hint="w = softmax(x @ x.T / sqrt(d)) row by row; return w @ x.",
    section=CONTEXT,
)

EXERCISES = [E07_1, E07_2, E07_3, E07_4]
