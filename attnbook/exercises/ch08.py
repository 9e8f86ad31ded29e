"""Exercises of chapter 08, "Worked example: 'it' attends"."""

from __future__ import annotations

import math

import numpy as np

import attnlib
from attnlib import examples

from ._core import Choice, Exercise, FindError, Misconception, Mistake, Numeric, Section, fmt

CH = "08_it_attends"
STEPS = Section(CH, "Step by step")
HAND = Section(CH, "The document's hand derivation")
ROUNDED = Section(CH, "The context vector from rounded weights")
GEOMETRY = Section(CH, "Steps 2–3: scaling and softmax")

Q = examples.IT_QUERY.double().numpy()  # (2,)
K = examples.IT_KEYS.double().numpy()  # (3, 2)
V = examples.IT_VALUES.double().numpy()  # (3, 2)
WORDS = examples.IT_WORDS
D = Q.shape[0]
RAW = K @ Q  # (3,)
SCALED = RAW / math.sqrt(D)
W = attnlib.softmax(SCALED)  # (3,)

_keys = ", ".join(f"{w} = {fmt(k, 1)}" for w, k in zip(WORDS, K))
_values = ", ".join(f"{w} = {fmt(v, 1)}" for w, v in zip(WORDS, V))

E08_1 = Exercise(
    id="08.1", kind="compute", skill="the attention weights of one query",
    prompt=(f"The query of “it” is {fmt(Q, 1)}; the keys are {_keys} (d_k = {D}). Enter the three attention "
            "weights, 3 decimals."),
    answer=Numeric(lambda: W, tol=5e-4, expect="3 numbers"),
    mistakes=[
        Mistake(Misconception("unscaled-softmax", "softmax of the unscaled scores",
                              "Divide the scores by √2 before the softmax.", STEPS),
                value=lambda: attnlib.softmax(RAW)),
        Mistake(Misconception("scores-as-weights", "scores given where weights are asked",
                              "Those are scaled scores; softmax turns them into weights that sum to 1.", STEPS),
                value=lambda: SCALED),
    ],
    hint="Scores q·k, divide by √2, then softmax.",
    section=STEPS, why="“animal” takes most of the weight: its key points the same way as the query.",
)

E08_2 = Exercise(
    id="08.2", kind="compute", skill="the context vector",
    prompt=(f"With the weights of 08.1 and the values {_values}, enter the context vector of “it” "
            "(2 numbers, 3 decimals)."),
    answer=Numeric(lambda: W @ V, tol=5e-4, expect="2 numbers"),
    mistakes=[
        Mistake(Misconception("rounded-early", "rounding too early",
                              "Use the weights unrounded; two decimals move the result in the second decimal.",
                              ROUNDED), value=lambda: np.round(W, 2) @ V),
        Mistake(Misconception("weights-times-keys", "keys mixed instead of values",
                              "The weights mix the value vectors, not the keys.", STEPS), value=lambda: W @ K),
    ],
    hint="Σ weightⱼ · valueⱼ, one component at a time.",
    section=STEPS, why="Close to the value of “animal”, pulled a little towards the others.",
)

SLIP_DIV = 1.41  # the slip: a rounded √2
SLIP = RAW / SLIP_DIV
EXP_SLIP = np.exp(SLIP)

E08_3 = Exercise(
    id="08.3", kind="find-error", skill="the hand derivation of the weights",
    prompt=("A reader derives the weights of “it” by hand. One step has a slip: which one, and what is the right "
            "value of its first number (3 decimals)?"),
    answer=FindError(
        steps=[("a", f"scores q·k: {fmt(RAW, 1)}"),
               ("b", f"scaled: {fmt(SLIP, 3)}"),
               ("c", f"exponentials: {fmt(EXP_SLIP, 1)}"),
               ("d", f"weights: {fmt(EXP_SLIP / EXP_SLIP.sum(), 3)}")],
        wrong_step="b", value=Numeric(lambda: SCALED[0], tol=5e-4, expect="one number"),
        value_hint="Step b is the one: divide by √2 to more decimals than 1.41."),
    mistakes=[
        Mistake(Misconception("exp-doubted", "the exponentials doubted",
                              "Step c is right for its inputs; the error is upstream.", HAND), option="c"),
        Mistake(Misconception("blamed-the-result", "the step that shows the slip, not the one that made it",
                              "Step d is right for the exponentials it was given; the slip is before.", HAND),
                option="d"),
        Mistake(Misconception("copied-the-slip", "the slipped value copied",
                              "That is 10 / 1.41; √2 = 1.41421…", HAND), value=lambda: SLIP[0]),
        Mistake(Misconception("missing-scale", "the 1/√d_k factor forgotten",
                              "The scaled score is q·k / √2, not q·k.", GEOMETRY), value=lambda: RAW[0]),
    ],
    hint="Check every step against the one before it, to 3 decimals.",
    section=HAND, why="A rounded divisor: 1.41 instead of √2 moves the second decimal of the scaled scores.",
)

E08_4 = Exercise(
    id="08.4", kind="predict", skill="longer queries sharpen the weights",
    prompt="Predict, then run: the query of “it” doubles to 2q. What happens to the weight of “animal”?",
    answer=Choice([("a", "It grows."), ("b", "It stays the same: softmax normalises."), ("c", "It shrinks."), ("d", "It becomes exactly 1.")],
                  "a" if attnlib.softmax(2 * SCALED)[0] > W[0] else "c"),
    mistakes=[
        Mistake(Misconception("softmax-normalises-length", "softmax undoes any scaling of the scores",
                              "Softmax is invariant to adding a constant, not to multiplying: doubling the "
                              "gaps sharpens it.", GEOMETRY), option="b"),
        Mistake(Misconception("doubling-flattens", "larger scores flatten the weights",
                              "Larger gaps between scores make the largest weight larger.", GEOMETRY), option="c"),
    ],
    hint="Doubling q doubles every score and every gap between scores.",
    section=GEOMETRY, why="Doubling the scores acts like halving the temperature: sharper weights.",
)

EXERCISES = [E08_1, E08_2, E08_3, E08_4]
