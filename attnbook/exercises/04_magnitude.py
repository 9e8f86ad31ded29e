"""Exercises of chapter 04, "Dot products and the magnitude problem": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/04_magnitude.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import math

import numpy as np
import torch

from attnlib.companions import examples

from ._helpers import randn
from ._registry import ChapterCode, Numbers

code = ChapterCode(__name__)


Q = examples.MAGNITUDE_QUERY.double()
K = {name.split()[0]: k.double() for name, k in examples.MAGNITUDE_KEYS.items()}
D = Q.shape[0]

code.add(  # 04.1
    ex1_answer=lambda: float(Q @ K["K2"]) / math.sqrt(D),
    ex1_missing_scale=lambda: float(Q @ K["K2"]),
    ex1_divide_by_dk=lambda: float(Q @ K["K2"]) / D,
)


code.add(  # 04.2
    ex2_correct=lambda: "a" if Q @ K["K2"] > Q @ K["K3"] > Q @ K["K1"] else "?",
)


@code.function
def scaled_reference(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return q @ k.T / math.sqrt(q.shape[-1])  # (n_q, n_k)


@code.function
def scaled_none(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return q @ k.T  # (n_q, n_k)


@code.function
def scaled_by_dk(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return q @ k.T / q.shape[-1]  # (n_q, n_k)


@code.function
def scaled_by_n(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return q @ k.T / math.sqrt(k.shape[0])  # (n_q, n_k)


@code.function
def scaled_cases(rng: np.random.Generator) -> list[tuple]:
    return [(Q[None, :].clone(), torch.stack(list(K.values()))),
            *((randn(rng, n, d), randn(rng, m, d)) for n, m, d in ((3, 5, 4), (2, 7, 16), (4, 4, 9)))]


code.values(
    q=Numbers(Q),
    k2=Numbers(K["K2"]),
    d=D,
    k1=Numbers(K["K1"]),
    k3=Numbers(K["K3"]),
    raw_k2=float(Q @ K["K2"]),
    scaled_k2=float(Q @ K["K2"]) / math.sqrt(D),
    q_dot_k2=" + ".join(f"{a:g}·{b:g}" for a, b in zip(Q.tolist(), K["K2"].tolist())),
)
