"""Exercises of chapter 09, "Attention maps": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/09_attention_maps.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import math

import numpy as np
import torch

import attnlib
from attnlib.companions import examples

from ._helpers import randn
from ._registry import ChapterCode, Rows

code = ChapterCode(__name__)


Q = examples.STEP_Q.double().numpy()  # (3, 4), K = Q
V = examples.STEP_V.double().numpy()  # (3, 4)
D = Q.shape[1]
S = Q @ Q.T  # (3, 3)
W = attnlib.softmax(S / math.sqrt(D))  # (3, 3)

code.add(  # 09.1
    ex1_answer=lambda: S[0] / math.sqrt(D),
    ex1_missing_scale=lambda: S[0],
    ex1_divide_by_dk=lambda: S[0] / D,
)


code.add(  # 09.2
    ex2_answer=lambda: W[2] @ V,  # (4,)
    ex2_mixed_queries=lambda: W[2] @ Q,  # (4,)
    ex2_unscaled_softmax=lambda: attnlib.softmax(S)[2] @ V,  # (4,)
)


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
    q_rows=Rows(Q),
    d=D,
    v_rows=Rows(V),
    sqrt_d=math.sqrt(D),
)
