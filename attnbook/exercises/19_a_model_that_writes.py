"""Exercises of chapter 19, "A model that writes": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/19_a_model_that_writes.yml``; it names the functions registered
here on ``code`` and shows the values of ``code.values(...)`` in its ``{name}`` fields.
"""

from __future__ import annotations

import numpy as np
import torch

from ._helpers import randn
from ._registry import ChapterCode

code = ChapterCode(__name__)


@code.function
def top_k_probs(logits: torch.Tensor, k: int) -> torch.Tensor:
    kth = logits.topk(k, dim=-1).values[..., -1:]  # (rows, 1): the k-th largest logit of each row
    kept = logits.masked_fill(logits < kth, float("-inf"))  # (rows, vocab): the others can never be drawn
    return torch.softmax(kept, dim=-1)  # (rows, vocab), each row sums to 1


@code.function
def top_k_not_renormalised(logits: torch.Tensor, k: int) -> torch.Tensor:
    kth = logits.topk(k, dim=-1).values[..., -1:]
    return torch.softmax(logits, dim=-1).masked_fill(logits < kth, 0.0)  # (rows, vocab): rows sum to less than 1


@code.function
def top_k_smallest(logits: torch.Tensor, k: int) -> torch.Tensor:
    kth = (-logits).topk(k, dim=-1).values[..., -1:]  # (rows, 1): minus the k-th smallest logit
    return torch.softmax(logits.masked_fill(-logits < kth, float("-inf")), dim=-1)  # the k least likely kept


@code.function
def top_k_one_more(logits: torch.Tensor, k: int) -> torch.Tensor:
    return top_k_probs(logits, min(k + 1, logits.shape[-1]))  # (rows, vocab): k + 1 words kept


@code.function
def top_k_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, rows, vocab) * 2, k) for rows, vocab, k in ((1, 6, 1), (3, 8, 3), (2, 10, 5), (4, 7, 6))]


CONTEXT = 256  # the positions of the story in 19.4
ROWS_UNCACHED = sum(range(1, CONTEXT + 1))  # step t recomputes the key and value rows of positions 1 … t
ROWS_CACHED = CONTEXT  # one new row a step

code.add(  # 19.4: the key/value rows computed without the cache, per row computed with it
    ex4_answer=lambda: ROWS_UNCACHED / ROWS_CACHED,
    ex4_full_context=lambda: CONTEXT * CONTEXT / ROWS_CACHED,
    ex4_half_square=lambda: CONTEXT * CONTEXT / 2 / ROWS_CACHED,
)

code.values(context=CONTEXT)
