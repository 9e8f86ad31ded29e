"""Exercises of chapter 06, "Why divide by √d_k"."""

from __future__ import annotations

import math

import numpy as np
import torch

from attnlib import scaling

from ._core import Choice, Code, Exercise, Misconception, Mistake, Numeric, Section

CH = "06_scaling"
VARIANCE = Section(CH, "The variance grows like d")
CANCEL = Section(CH, "Cancelling the growth: c = 1/√dₖ")
PEAKY = Section(CH, "Large scores make softmax peaky")
GRAD = Section(CH, "The gradient vanishes")

D1 = 64

E06_1 = Exercise(
    id="06.1", kind="compute", skill="the spread of a dot product",
    prompt=(f"q and k have d_k = {D1} independent components, each of mean 0 and variance 1. What is the "
            "standard deviation of the raw score q·k?"),
    answer=Numeric(lambda: math.sqrt(scaling.expected_dot_variance(D1)), tol=5e-3, expect="one number"),
    mistakes=[
        Mistake(Misconception("variance-not-std", "the variance, not the standard deviation",
                              "Var(q·k) = d_k; the standard deviation is its square root.", VARIANCE),
                value=lambda: scaling.expected_dot_variance(D1)),
        Mistake(Misconception("already-scaled", "the spread after scaling",
                              "The raw score is not yet divided by √d_k; that is what brings it to 1.", CANCEL),
                value=lambda: 1.0),
    ],
    hint="Each product qᵢkᵢ has variance 1; d_k independent ones add their variances.",
    section=VARIANCE, why="The spread grows like √d_k, so raw scores get larger as the vectors get wider.",
)

D2 = 256

E06_2 = Exercise(
    id="06.2", kind="compute", skill="the factor that cancels the growth",
    prompt=(f"With d_k = {D2}, by what factor c must the scores be multiplied so that Var(c · q·k) = 1? "
            "Enter c, 4 decimals."),
    answer=Numeric(lambda: 1 / math.sqrt(scaling.expected_dot_variance(D2)), tol=5e-5, expect="one number"),
    mistakes=[
        Mistake(Misconception("divide-by-dk", "1/d_k instead of 1/√d_k",
                              "Var(c·x) = c²·Var(x), so c² = 1/d_k and c = 1/√d_k.", CANCEL),
                value=lambda: 1 / D2),
        Mistake(Misconception("not-inverted", "√d_k instead of 1/√d_k",
                              "The scores must shrink: multiply by 1/√d_k.", CANCEL), value=lambda: math.sqrt(D2)),
    ],
    hint="Var(c · x) = c² · Var(x); solve c² · d_k = 1.",
    section=CANCEL, why="c = 1/√d_k: the variance scales with c², so the square root is needed.",
)

E06_3 = Exercise(
    id="06.3", kind="predict", skill="unscaled softmax saturates",
    prompt=("Predict: the scores are NOT scaled and d_k grows from 4 to 4096 (random q and k). What happens "
            "to the largest softmax weight of a row?"),
    answer=Choice([("a", "It tends to 1: one key takes almost all the weight."),
                   ("b", "It tends to 1/n: the weights become uniform."),
                   ("c", "It stays about the same."), ("d", "It tends to 0.")], "a"),
    mistakes=[
        Mistake(Misconception("wider-spreads", "larger d_k spreads the weights",
                              "Larger d_k means larger score gaps, and softmax of large gaps is peaky.", PEAKY),
                option="b"),
        Mistake(Misconception("dimension-irrelevant", "the width does not matter",
                              "The spread of q·k grows like √d_k; softmax sees those larger gaps.", VARIANCE),
                option="c"),
    ],
    hint="How do the gaps between scores grow with d_k, and what does softmax do with large gaps?",
    section=PEAKY, why="Gaps of tens of units make one exp dwarf the rest: the softmax saturates.",
)


def _jac_reference(p: torch.Tensor) -> torch.Tensor:
    return scaling.softmax_jacobian(p)  # (n, n)


def _jac_diag_only(p: torch.Tensor) -> torch.Tensor:
    return torch.diag(p)  # (n, n)


def _jac_sign(p: torch.Tensor) -> torch.Tensor:
    return torch.outer(p, p) - torch.diag(p)  # (n, n)


def _jac_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    for n in (3, 5, 2):
        s = rng.standard_normal(n) * 2
        p = np.exp(s - s.max())
        cases.append((torch.from_numpy(p / p.sum()),))
    cases.append((torch.tensor([0.98, 0.01, 0.01], dtype=torch.float64),))
    return cases


E06_4 = Exercise(
    id="06.4", kind="code", skill="the softmax Jacobian",
    prompt=("Write softmax_jacobian(p): p is a 1-d tensor of softmax weights (n,). Return the (n, n) Jacobian "
            "∂pᵢ/∂sⱼ = pᵢ(δᵢⱼ − pⱼ)."),
    answer=Code("def softmax_jacobian(p):", "an (n, n) tensor", _jac_reference, _jac_cases),
    mistakes=[
        Mistake(Misconception("diag-only", "only the diagonal term",
                              "Every weight depends on every score: subtract the outer product p pᵀ.", GRAD),
                impl=_jac_diag_only),
        Mistake(Misconception("sign-flipped", "the sign flipped",
                              "Raising sᵢ raises pᵢ: the diagonal is pᵢ(1 − pᵢ) > 0. Use diag(p) − p pᵀ.", GRAD),
                impl=_jac_sign),
    ],
    hint="torch.diag(p) - torch.outer(p, p).",
    section=GRAD,
)

EXERCISES = [E06_1, E06_2, E06_3, E06_4]
