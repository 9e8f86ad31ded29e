"""Exercises of chapter 05, "Softmax"."""

from __future__ import annotations

import numpy as np
import torch

import attnlib

from ._core import Choice, Code, Exercise, FindError, Misconception, Mistake, Numeric, Section, fmt
from ._helpers import randn

CH = "05_softmax"
DEF = Section(CH, "The definition")
OVERFLOW = Section(CH, "Why the textbook formula overflows")
SHIFT = Section(CH, "Shift invariance")
TEMP = Section(CH, "Temperature")

E05_1 = Exercise(
    id="05.1", kind="predict", skill="softmax is shift-invariant",
    prompt="Predict, then run: every score of a row gets +5. What happens to the row's softmax weights?",
    answer=Choice([("a", "Nothing: the weights are exactly the same."), ("b", "Every weight grows by 5."),
                   ("c", "They get sharper: the largest weight grows."),
                   ("d", "They all become equal.")], "a"),
    mistakes=[
        Mistake(Misconception("shifted-weights", "the weights shifted instead of the scores",
                              "Weights always sum to 1; the common factor e⁵ cancels in the ratio.", SHIFT),
                option="b"),
        Mistake(Misconception("shift-is-temperature", "adding confused with multiplying",
                              "Multiplying scores (a temperature) sharpens; adding a constant changes nothing.",
                              TEMP), option="c"),
    ],
    hint="Write exp(s + 5) = e⁵ · exp(s) and look at the ratio.",
    section=SHIFT, why="e⁵ multiplies the numerator and the denominator alike.",
)

SCORES = np.array([2.0, 1.0, 0.1])

E05_2 = Exercise(
    id="05.2", kind="compute", skill="softmax by hand",
    prompt=f"Compute softmax({fmt(SCORES, 1)}): enter the 3 weights, 3 decimals.",
    answer=Numeric(lambda: attnlib.softmax(SCORES), tol=5e-4, expect="3 numbers"),
    mistakes=[
        Mistake(Misconception("sum-not-softmax", "scores divided by their sum, no exp",
                              "Softmax exponentiates first: exp(sᵢ) / Σ exp(sⱼ).", DEF),
                value=lambda: SCORES / SCORES.sum()),
        Mistake(Misconception("not-normalised", "the exponentials not normalised",
                              "Divide each exp(sᵢ) by their sum so the weights add up to 1.", DEF),
                value=lambda: np.exp(SCORES)),
    ],
    hint="exp of each score, then divide each by the sum of the three.",
    section=DEF, why="The weights are positive and sum to 1; the largest score gets the largest weight.",
)


def _rows_reference(x: torch.Tensor) -> torch.Tensor:
    return attnlib.softmax(x, dim=-1)  # (n, m)


def _rows_columns(x: torch.Tensor) -> torch.Tensor:
    return attnlib.softmax(x, dim=0)  # (n, m), columns sum to 1


def _rows_naive(x: torch.Tensor) -> torch.Tensor:
    e = torch.exp(x)  # overflows to inf for scores above ~709 (float64)
    return e / e.sum(dim=-1, keepdim=True)  # (n, m)


def _rows_cases(rng: np.random.Generator) -> list[tuple]:
    big = torch.tensor([[1000.0, 999.0, 998.0], [-5.0, 0.0, 800.0]], dtype=torch.float64)
    return [(randn(rng, 3, 4),), (randn(rng, 2, 5) * 3,), (big,)]


E05_3 = Exercise(
    id="05.3", kind="code", skill="a stable row softmax",
    prompt=("Write softmax_rows(x): x is a 2-d float tensor of scores. Return the softmax of every row "
            "(each row sums to 1). It must work for scores as large as 1000."),
    answer=Code("def softmax_rows(x):", "a tensor of the same shape as x", _rows_reference, _rows_cases),
    mistakes=[
        Mistake(Misconception("column-softmax", "softmax over the wrong axis",
                              "Normalise each row: sum along the last axis (dim=-1), not down the columns.",
                              DEF), impl=_rows_columns),
        Mistake(Misconception("overflow", "the textbook formula, which overflows",
                              "exp(1000) is inf: subtract the row's maximum before exp (softmax is shift-invariant).",
                              OVERFLOW), impl=_rows_naive),
    ],
    hint="m = x.max(dim=-1, keepdim=True).values; e = exp(x - m); divide e by its row sums.",
    section=OVERFLOW,
)

T = 2.0
RAW = np.array([2.0, 1.0, 0.0])
SLIP = RAW * T  # the slip: multiplied by T
E_SLIP = np.exp(SLIP)

E05_4 = Exercise(
    id="05.4", kind="find-error", skill="softmax at a temperature, by hand",
    prompt=(f"A reader computes softmax({fmt(RAW, 0)} / T) at temperature T = {T:g}. One step has a slip: "
            "which one, and what is the right value of its first number (3 decimals)?"),
    answer=FindError(
        steps=[("a", f"scores at temperature T: {fmt(SLIP, 3)}"),
               ("b", f"exponentials: {fmt(E_SLIP, 3)}"),
               ("c", f"their sum: {E_SLIP.sum():.3f}"),
               ("d", f"weights: {fmt(E_SLIP / E_SLIP.sum(), 3)}")],
        wrong_step="a", value=Numeric(lambda: RAW[0] / T, tol=5e-4, expect="one number"),
        value_hint="Step a is the one: at temperature T the scores are divided by T."),
    mistakes=[
        Mistake(Misconception("blamed-the-result", "the step that shows the slip, not the one that made it",
                              "Step d divides correctly by the sum it was given; follow the numbers back.", TEMP),
                option="d"),
        Mistake(Misconception("exp-doubted", "the exponentials doubted",
                              "Step b is right for its inputs: e to the power of each number of step a.", DEF),
                option="b"),
        Mistake(Misconception("copied-the-slip", "the slipped value copied",
                              "That is score × T; a temperature divides.", TEMP), value=lambda: SLIP[0]),
        Mistake(Misconception("weight-not-score", "the final weight given",
                              "Give the first number of the step with the slip, not the final weight.", TEMP),
                value=lambda: attnlib.softmax(RAW, temperature=T)[0]),
    ],
    hint="Check each step: scores / T, exp, sum, divide.",
    section=TEMP, why="Multiplying by T sharpens the weights; the definition divides, which flattens them for T > 1.",
)

EXERCISES = [E05_1, E05_2, E05_3, E05_4]
