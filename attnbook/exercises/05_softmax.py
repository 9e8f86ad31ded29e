"""Exercises of chapter 05, "Softmax": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/05_softmax.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import numpy as np
import torch

import attnlib

from ._helpers import randn
from ._registry import ChapterCode, Numbers

code = ChapterCode(__name__)


SCORES = np.array([2.0, 1.0, 0.1])

code.add(  # 05.2
    ex2_answer=lambda: attnlib.softmax(SCORES),
    ex2_sum_not_softmax=lambda: SCORES / SCORES.sum(),
    ex2_not_normalised=lambda: np.exp(SCORES),
)


@code.function
def rows_reference(x: torch.Tensor) -> torch.Tensor:
    return attnlib.softmax(x, dim=-1)  # (n, m)


@code.function
def rows_columns(x: torch.Tensor) -> torch.Tensor:
    return attnlib.softmax(x, dim=0)  # (n, m), columns sum to 1


@code.function
def rows_naive(x: torch.Tensor) -> torch.Tensor:
    e = torch.exp(x)  # overflows to inf for scores above ~709 (float64)
    return e / e.sum(dim=-1, keepdim=True)  # (n, m)


@code.function
def rows_global_max(x: torch.Tensor) -> torch.Tensor:
    e = torch.exp(x - x.max())  # one max for the whole matrix: a row far below it underflows to 0/0
    return e / e.sum(dim=-1, keepdim=True)  # (n, m)


@code.function
def rows_mean_shift(x: torch.Tensor) -> torch.Tensor:
    e = torch.exp(x - x.mean(dim=-1, keepdim=True))  # the row mean: a wide row still overflows
    return e / e.sum(dim=-1, keepdim=True)  # (n, m)


@code.function
def rows_min_shift(x: torch.Tensor) -> torch.Tensor:
    e = torch.exp(x - x.min(dim=-1, keepdim=True).values)  # the row minimum: every other score is pushed up, and overflows
    return e / e.sum(dim=-1, keepdim=True)  # (n, m)


@code.function
def rows_cases(rng: np.random.Generator) -> list[tuple]:
    big = torch.tensor([[1000.0, 999.0, 998.0], [-5.0, 0.0, 800.0]], dtype=torch.float64)
    # rows far apart (one max for the matrix fails) and a row 2000 wide (shifting by its mean fails)
    apart = torch.tensor([[1000.0, 999.0, 998.0], [-1000.0, -999.0, -998.0], [-1000.0, -1000.0, 1000.0]],
                         dtype=torch.float64)
    return [(randn(rng, 3, 4),), (randn(rng, 2, 5) * 3,), (big,), (apart,)]


T = 2.0
RAW = np.array([2.0, 1.0, 0.0])
SLIP = RAW * T  # the slip: multiplied by T
E_SLIP = np.exp(SLIP)

code.add(  # 05.4
    ex4_answer=lambda: RAW[0] / T,
    ex4_copied_the_slip=lambda: SLIP[0],
    ex4_weight_not_score=lambda: attnlib.softmax(RAW, temperature=T)[0],
)


code.values(
    scores=Numbers(SCORES),
    raw=Numbers(RAW),
    t=T,
    scores_slip=Numbers(SLIP),
    exp_slip=Numbers(E_SLIP),
    sum_slip=E_SLIP.sum(),
    weights_slip=Numbers(E_SLIP / E_SLIP.sum()),
)
