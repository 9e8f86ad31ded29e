"""Exercises of chapter 11, "Attention in PyTorch": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/11_pytorch.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import numpy as np
import torch

import attnlib

from ._registry import ChapterCode

code = ChapterCode(__name__)


@code.function
def causal_cases(rng: np.random.Generator) -> list[tuple]:
    return [(n,) for n in (1, 3, 5, int(rng.integers(6, 10)))]


code.add(  # 11.1
    causal_mask=attnlib.causal_mask,
    ex1_mask_orientation=lambda n: torch.ones(n, n, dtype=torch.bool).triu(),
    ex1_diagonal_excluded=lambda n: torch.ones(n, n, dtype=torch.bool).tril(-1),
    ex1_mask_sign=lambda n: ~attnlib.causal_mask(n),
)


@code.function
def pad_cases(rng: np.random.Generator) -> list[tuple]:
    return [([2, 3], 3), ([1, 4, 0], 4), ([int(x) for x in rng.integers(1, 6, size=3)], 6)]


@code.function
def pad_no_query_axis(lengths: list[int], n: int) -> torch.Tensor:
    return attnlib.padding_mask(lengths, n)[:, 0, :]  # (batch, n)


@code.function
def pad_off_by_one(lengths: list[int], n: int) -> torch.Tensor:
    return torch.arange(n)[None, None, :] <= torch.tensor(lengths)[:, None, None]  # (batch, 1, n)


code.add(  # 11.2
    padding_mask=attnlib.padding_mask,
    ex2_mask_sign=lambda lengths, n: ~attnlib.padding_mask(lengths, n),
)


N_KEYS = 4  # 11.3: every key of a row masked with -1e9, then a plain softmax
UNIFORM = float(attnlib.softmax(torch.full((N_KEYS,), -1e9, dtype=torch.float64))[0])

_X = torch.zeros(2, 5, 16)  # (B, S, D): only the shape is used
_W = torch.zeros(16, 8)  # (D, d_k)

code.add(  # 11.4
    ex4_answer=lambda: ((_X @ _W) @ (_X @ _W).transpose(-2, -1)).shape,  # (B, S, S)
    ex4_qt_k=lambda: ((_X @ _W).transpose(-2, -1) @ (_X @ _W)).shape,  # (B, d_k, d_k)
    ex4_batch_dropped=lambda: (5, 5),
)

code.values(
    n_keys=N_KEYS,
    uniform=UNIFORM,
    x_shape=list(_X.shape),
    w_shape=tuple(_W.shape),
)
