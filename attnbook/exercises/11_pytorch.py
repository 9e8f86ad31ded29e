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
def pad_cases(rng: np.random.Generator) -> list[tuple]:
    return [([2, 3], 3), ([1, 4, 0], 4), ([int(x) for x in rng.integers(1, 6, size=3)], 6)]


@code.function
def causal_padding_mask(lengths: list[int], n: int) -> torch.Tensor:
    return attnlib.causal_mask(n) & attnlib.padding_mask(lengths, n)  # (batch, n, n)


@code.function
def ex1_either_mask(lengths: list[int], n: int) -> torch.Tensor:
    return attnlib.causal_mask(n) | attnlib.padding_mask(lengths, n)  # (batch, n, n)


@code.function
def ex1_padded_queries(lengths: list[int], n: int) -> torch.Tensor:
    return attnlib.causal_mask(n) & attnlib.padding_mask(lengths, n).transpose(-2, -1)  # (batch, n, n)


@code.function
def ex1_mask_orientation(lengths: list[int], n: int) -> torch.Tensor:
    return attnlib.causal_mask(n).T & attnlib.padding_mask(lengths, n)  # (batch, n, n): the future allowed


@code.function
def left_padding_mask(lengths: list[int], n: int) -> torch.Tensor:
    return attnlib.padding_mask(lengths, n).flip(-1)  # (batch, 1, n): the real tokens are the last ones


@code.function
def ex2_right_padding(lengths: list[int], n: int) -> torch.Tensor:
    return attnlib.padding_mask(lengths, n)  # (batch, 1, n)


@code.function
def ex2_off_by_one(lengths: list[int], n: int) -> torch.Tensor:
    first_real = n - torch.tensor(lengths)  # (batch,)
    return torch.arange(n)[None, None, :] > first_real[:, None, None]  # (batch, 1, n): one real key dropped


@code.function
def ex2_no_query_axis(lengths: list[int], n: int) -> torch.Tensor:
    return attnlib.padding_mask(lengths, n).flip(-1)[:, 0, :]  # (batch, n)


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
