"""Exercises of chapter 20, "Two layers that compose": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/20_induction_heads.yml``; it names the functions registered
here on ``code`` and shows the values of ``code.values(...)`` in its ``{name}`` fields.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from attnlib.companions import head_scores, induction
from attnlib.companions.sampler import Mulberry32

from ._registry import ChapterCode

code = ChapterCode(__name__)


@code.function
def prefix_matching(weights: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    return head_scores.prefix_matching_score(weights, tokens)  # (heads,): the chapter's own measure


def _score(weights: torch.Tensor, targets: torch.Tensor, counted: torch.Tensor) -> torch.Tensor:
    mass = (weights * targets[:, None]).sum(dim=-1)  # (batch, heads, n)
    return (mass * counted[:, None]).sum(dim=(0, -1)) / counted.sum().clamp(min=1)


@code.function
def prefix_on_duplicates(weights: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    n = tokens.shape[-1]
    same = (tokens[:, None, :] == tokens[:, :, None]) & (torch.arange(n)[None, :] < torch.arange(n)[:, None])
    return _score(weights, same, head_scores.induction_targets(tokens).any(dim=-1))  # the earlier occurrence itself


@code.function
def prefix_every_query(weights: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    targets = head_scores.induction_targets(tokens)
    return _score(weights, targets, torch.ones_like(targets[..., 0]))  # every query counted, seen before or not


@code.function
def prefix_previous(weights: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    n = tokens.shape[-1]
    previous = (torch.arange(n)[None, :] == torch.arange(n)[:, None] - 1).expand(tokens.shape[0], n, n)
    return _score(weights, previous, head_scores.induction_targets(tokens).any(dim=-1))


@code.function
def prefix_cases(rng: np.random.Generator) -> list[tuple]:
    out = []
    for batch, heads, n, vocab in ((2, 1, 6, 3), (3, 2, 8, 4), (1, 3, 10, 3), (4, 2, 12, 5)):
        tokens = torch.from_numpy(rng.integers(0, vocab, (batch, n)))
        tokens[:, n // 2:] = tokens[:, : n - n // 2]  # a repeat, so that every batch has queries to score
        scores = torch.from_numpy(rng.standard_normal((batch, heads, n, n)))
        weights = torch.softmax(scores.masked_fill(torch.ones(n, n).triu(1).bool(), float("-inf")), dim=-1)
        out.append((weights, tokens))
    return out


CONTEXT, LENGTH = 16, 8
BACK = LENGTH - 1  # the token after the earlier occurrence of position LENGTH + k is at k + 1


def _position_head_score(back: int) -> float:
    """The prefix-matching score of a head that looks ``back`` positions back, on the chapter's fixed-length data."""
    b = induction.draw_batch(Mulberry32(0), 64, 32, CONTEXT,
                             LENGTH, LENGTH)
    weights = torch.zeros(64, 1, CONTEXT, CONTEXT, dtype=torch.float64)
    for i in range(CONTEXT):
        weights[:, 0, i, max(i - back, 0)] = 1.0
    queries = torch.from_numpy(b.second_copy())
    return float(head_scores.prefix_matching_score(weights, torch.from_numpy(b.tokens), queries)[0])


code.add(  # 20.2: the position-only head on fixed-offset data
    ex2_answer=lambda: _position_head_score(BACK),
    ex2_zero=lambda: 0.0,
    ex2_seven_eighths=lambda: (LENGTH - 1) / LENGTH,
)

VOCAB = induction.DEFAULTS["vocab"]
code.values(context=CONTEXT, length=LENGTH, last=CONTEXT - 1, back=BACK, vocab=VOCAB, log_vocab=f"{math.log(VOCAB):.2f}")
