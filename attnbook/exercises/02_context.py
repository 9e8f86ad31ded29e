"""Exercises of chapter 02, "Context changes meaning": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/02_context.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import numpy as np
import torch

import attnlib
from attnlib.companions import examples

from ._helpers import arr, randn
from ._registry import ChapterCode, Numbers

code = ChapterCode(__name__)


def _sentence(words: tuple[str, ...]) -> np.ndarray:
    return np.stack([examples.BANK_EMBEDDINGS[w].double().numpy() for w in words])  # (3, 2)


MONEY = _sentence(examples.BANK_SENTENCES[0])
RIVER = _sentence(examples.BANK_SENTENCES[1])
S_MONEY = MONEY @ MONEY.T  # (3, 3)

code.add(  # 02.1
    ex1_answer=lambda: attnlib.softmax(S_MONEY)[1],
    ex1_scores_as_weights=lambda: S_MONEY[1],
    ex1_sum_not_softmax=lambda: S_MONEY[1] / S_MONEY[1].sum(),
    ex1_column_softmax=lambda: attnlib.softmax(S_MONEY, dim=0)[1],
)


@code.function
def ctx_reference(e: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(e, e, e, scale=1.0)[0]  # (n, d)


@code.function
def ctx_column_softmax(e: torch.Tensor) -> torch.Tensor:
    return attnlib.softmax(e @ e.T, dim=0) @ e  # (n, d)


@code.function
def ctx_no_softmax(e: torch.Tensor) -> torch.Tensor:
    return (e @ e.T) @ e  # (n, d)


@code.function
def ctx_cases(rng: np.random.Generator) -> list[tuple]:
    return [(torch.from_numpy(MONEY.copy()),), (randn(rng, 4, 2),), (randn(rng, 5, 3),), (randn(rng, 2, 4),)]


S_RIVER = RIVER @ RIVER.T  # (3, 3)
W_RIVER = arr(attnlib.softmax(S_RIVER)[1])  # (3,)
W_SLIP = S_RIVER[1] / S_RIVER[1].sum()  # the slip: no exponential

code.add(  # 02.4
    ex4_answer=lambda: W_RIVER[0],
    ex4_copied_the_slip=lambda: W_SLIP[0],
    ex4_score_not_weight=lambda: S_RIVER[1, 0],
)


code.values(
    money_0=Numbers(MONEY[0]),
    money_1=Numbers(MONEY[1]),
    money_2=Numbers(MONEY[2]),
    river_0=Numbers(RIVER[0]),
    river_1=Numbers(RIVER[1]),
    river_2=Numbers(RIVER[2]),
    scores_bank=Numbers(S_RIVER[1]),
    weights_slip=Numbers(W_SLIP),
    bank_slip=Numbers(W_SLIP @ RIVER),
    bank_dot_river=" + ".join(f"{b:g}·{r:.1f}" for b, r in zip(RIVER[1], RIVER[0])),
)
