"""Exercises of chapter 16, "Attention at scale": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/16_at_scale.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import numpy as np
import torch

from attnlib.chunked import online_softmax_update
from attnlib.companions import cost

from ._helpers import randn
from ._registry import ChapterCode, Numbers

code = ChapterCode(__name__)


B, H, N = 8, 8, 1024
MIB = 2**20

code.add(  # 16.1
    ex1_answer=lambda: cost.score_matrix_bytes(B, H, N) / MIB,
    ex1_forgot_bytes=lambda: B * H * N * N / MIB,
    ex1_one_matrix=lambda: cost.score_matrix_bytes(1, 1, N) / MIB,
    ex1_float64=lambda: cost.score_matrix_bytes(B, H, N, dtype=torch.float64) / MIB,
)


@code.function
def online_reference(scores, v_blk, run_max, run_sum, acc):  # noqa: ANN001, ANN202 - same as attnlib's
    return online_softmax_update(scores, v_blk, run_max, run_sum, acc)


@code.function
def online_no_rescale(scores, v_blk, run_max, run_sum, acc):  # noqa: ANN001, ANN202
    new_max = torch.maximum(run_max, scores.amax(dim=-1, keepdim=True))  # (n_q, 1)
    p = torch.exp(scores - new_max)  # (n_q, b)
    return new_max, run_sum + p.sum(dim=-1, keepdim=True), acc + p @ v_blk  # old sums not rescaled


@code.function
def online_block_max(scores, v_blk, run_max, run_sum, acc):  # noqa: ANN001, ANN202
    block_max = scores.amax(dim=-1, keepdim=True)  # (n_q, 1): the running max is forgotten
    p = torch.exp(scores - block_max)  # (n_q, b)
    alpha = torch.exp(run_max - block_max)  # (n_q, 1)
    return block_max, alpha * run_sum + p.sum(dim=-1, keepdim=True), alpha * acc + p @ v_blk


@code.function
def online_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    for n_q, b, d_v in ((1, 3, 2), (2, 4, 3), (3, 2, 2)):
        first = randn(rng, n_q, b) * 2
        v1, v2 = randn(rng, b, d_v), randn(rng, b, d_v)
        start = (torch.full((n_q, 1), float("-inf"), dtype=torch.float64), torch.zeros(n_q, 1, dtype=torch.float64),
                 torch.zeros(n_q, d_v, dtype=torch.float64))
        cases.append((first.clone(), v1, *start))
        state = online_softmax_update(first.clone(), v1, *start)
        second = randn(rng, n_q, b) * 2 + 3  # a later block with a larger max
        cases.append((second, v2, *state))
        cases.append((randn(rng, n_q, b) - 6, v2, *state))  # a later block with a smaller max
    return cases


BLOCK1, BLOCK2 = np.array([1.0, 3.0]), np.array([4.0, 0.0])
M1 = BLOCK1.max()
L1 = np.exp(BLOCK1 - M1).sum()
M2 = max(M1, BLOCK2.max())
L1_RESCALED = L1 * np.exp(M1 - M2)

code.add(  # 16.3
    ex3_answer=lambda: L1_RESCALED,
    ex3_no_rescale=lambda: L1,
    ex3_rescale_sign=lambda: L1 * np.exp(M2 - M1),
)


code.add(  # 16.4
    ex4_correct=lambda: ("b" if cost.attention_flops(1, 1, 2 * N, 2 * N, 64) == 4 * cost.attention_flops(1, 1, N, N, 64)
                         else "?"),
)


code.values(
    b=B,
    h=H,
    n=N,
    block1=Numbers(BLOCK1),
    block2=Numbers(BLOCK2),
    m1=M1,
    l1=L1,
    m2=M2,
    n_doubled=2 * N,
)
