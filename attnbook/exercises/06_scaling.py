"""Exercises of chapter 06, "Why divide by √d_k": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/06_scaling.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import math

import numpy as np
import torch

from attnlib.companions import scaling

from ._registry import ChapterCode

code = ChapterCode(__name__)


D1 = 64

code.add(  # 06.1
    ex1_answer=lambda: math.sqrt(scaling.expected_dot_variance(D1)),
    ex1_variance_not_std=lambda: scaling.expected_dot_variance(D1),
    ex1_already_scaled=lambda: 1.0,
)


D2 = 256

code.add(  # 06.2
    ex2_answer=lambda: 1 / math.sqrt(scaling.expected_dot_variance(D2)),
    ex2_divide_by_dk=lambda: 1 / D2,
    ex2_not_inverted=lambda: math.sqrt(D2),
)


@code.function
def jac_reference(p: torch.Tensor) -> torch.Tensor:
    return scaling.softmax_jacobian(p)  # (n, n)


@code.function
def jac_diag_only(p: torch.Tensor) -> torch.Tensor:
    return torch.diag(p)  # (n, n)


@code.function
def jac_sign(p: torch.Tensor) -> torch.Tensor:
    return torch.outer(p, p) - torch.diag(p)  # (n, n)


@code.function
def jac_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    for n in (3, 5, 2):
        s = rng.standard_normal(n) * 2
        p = np.exp(s - s.max())
        cases.append((torch.from_numpy(p / p.sum()),))
    cases.append((torch.tensor([0.98, 0.01, 0.01], dtype=torch.float64),))
    return cases


code.values(
    d1=D1,
    d2=D2,
)
