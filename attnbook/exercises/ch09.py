"""Exercises of chapter 09, "Attention maps": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/ch09.yml``; it names the functions registered here on
``code`` and shows the values of :meth:`~attnbook.exercises._registry.ChapterCode.values` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

import attnlib
from attnlib import examples

from ._helpers import randn
from ._registry import ChapterCode, Numbers

code = ChapterCode("09")


Q = examples.STEP_Q.double().numpy()  # (3, 4), K = Q
V = examples.STEP_V.double().numpy()  # (3, 4)
D = Q.shape[1]
S = Q @ Q.T  # (3, 3)
W = attnlib.softmax(S / math.sqrt(D))  # (3, 3)


@code.function
def ex1_answer() -> Any:
    return S[0] / math.sqrt(D)


@code.function
def ex1_missing_scale() -> Any:
    return S[0]


@code.function
def ex1_divide_by_dk() -> Any:
    return S[0] / D


@code.function
def ex2_answer() -> Any:
    return W[2] @ V


@code.function
def ex2_mixed_queries() -> Any:
    return W[2] @ Q


@code.function
def ex2_unscaled_softmax() -> Any:
    return attnlib.softmax(S)[2] @ V


@code.function
def w_reference(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(q, k, k)[1]  # (B, n_q, n_k)


@code.function
def w_columns(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return attnlib.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-2)  # (B, n_q, n_k)


@code.function
def w_unscaled(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(q, k, k, scale=1.0)[1]  # (B, n_q, n_k)


@code.function
def w_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, b, n, d), randn(rng, b, m, d)) for b, n, m, d in ((1, 3, 3, 4), (2, 4, 5, 8), (3, 2, 6, 3))]


code.values(
    q_0=Numbers(Q[0]),
    q_1=Numbers(Q[1]),
    q_2=Numbers(Q[2]),
    d=D,
    v_0=Numbers(V[0]),
    v_1=Numbers(V[1]),
    v_2=Numbers(V[2]),
    sqrt_d=math.sqrt(D),
)
