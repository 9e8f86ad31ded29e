"""Exercises of chapter 03, "Queries, keys and values": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/03_qkv.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import numpy as np
import torch

from attnlib.companions import examples

from ._helpers import randn
from ._registry import ChapterCode

code = ChapterCode(__name__)


N_TOK, D_IN = examples.JOURNEY_INPUTS.shape
D_K = 2
_Q = examples.JOURNEY_INPUTS @ torch.zeros(D_IN, D_K)  # (n, d_k): only its shape is used

code.add(  # 03.1
    ex1_answer=lambda: (_Q @ _Q.T).shape,  # (n, n)
    ex1_qt_k=lambda: (_Q.T @ _Q).shape,  # (d_k, d_k)
    ex1_shape_of_q=lambda: _Q.shape,
)


@code.function
def scores_reference(x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor) -> torch.Tensor:
    q, k = x @ w_q, x @ w_k  # (n, d_k) each
    return q @ k.T  # (n, n)


@code.function
def scores_transposed(x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor) -> torch.Tensor:
    return (x @ w_k) @ (x @ w_q).T  # (n, n): keys as rows


@code.function
def scores_one_projection(x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor) -> torch.Tensor:
    q = x @ w_q  # (n, d_k)
    return q @ q.T  # (n, n)


@code.function
def scores_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, n, d), randn(rng, d, k), randn(rng, d, k)) for n, d, k in ((6, 3, 2), (4, 5, 3), (3, 2, 4))]


code.values(
    n_tok=N_TOK,
    d_in=D_IN,
    d_k=D_K,
)
