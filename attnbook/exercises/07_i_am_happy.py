"""Exercises of chapter 07, "Worked example: 'I am happy'": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/07_i_am_happy.yml``; it names the functions registered here on
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
from ._registry import ChapterCode, Numbers, Rows

code = ChapterCode(__name__)


E = examples.HAPPY_EMBEDDINGS.double().numpy()  # (3, 3), Q = K = V = E
D = E.shape[1]
S = E @ E.T  # (3, 3)
SCALED = S / math.sqrt(D)  # (3, 3)
WORDS = examples.HAPPY_WORDS

code.add(  # 07.1
    ex1_answer=lambda: SCALED[1],
    ex1_missing_scale=lambda: S[1],
    ex1_divide_by_dk=lambda: S[1] / D,
)


code.add(  # 07.2
    ex2_answer=lambda: attnlib.softmax(SCALED)[0],
    ex2_scores_as_weights=lambda: SCALED[0],
    ex2_unscaled_softmax=lambda: attnlib.softmax(S)[0],
    ex2_column_softmax=lambda: attnlib.softmax(SCALED, dim=0)[0],
)


ROW = 2  # "happy"
EXP = np.exp(SCALED[ROW])
EXP_SLIP = EXP.copy()
EXP_SLIP[1] = np.exp(S[ROW, 1])  # the slip: exp of the unscaled middle score

code.add(  # 07.3
    ex3_answer=lambda: EXP[1],
    ex3_copied_the_slip=lambda: EXP_SLIP[1],
    ex3_rounded_early=lambda: float(np.exp(np.round(SCALED[ROW, 1], 2))),
)


@code.function
def sa_reference(x: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(x, x, x)[0]  # (n, d)


@code.function
def sa_unscaled(x: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(x, x, x, scale=1.0)[0]  # (n, d)


@code.function
def sa_columns(x: torch.Tensor) -> torch.Tensor:
    return attnlib.softmax(x @ x.T / math.sqrt(x.shape[-1]), dim=0) @ x  # (n, d)


@code.function
def sa_weights(x: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(x, x, x)[1]  # (n, n): the weights, not the output


@code.function
def sa_cases(rng: np.random.Generator) -> list[tuple]:
    return [(torch.from_numpy(E.copy()),), (randn(rng, 4, 3),), (randn(rng, 5, 2),), (randn(rng, 2, 6),)]


code.values(
    embeddings=Rows(E),
    d=D,
    scores_am=Numbers(S[1]),
    scaled_i=Numbers(SCALED[0]),
    word=WORDS[ROW],
    scores_row=Numbers(S[ROW]),
    scaled_row=Numbers(SCALED[ROW]),
    exp_slip=Numbers(EXP_SLIP),
    sum_slip=EXP_SLIP.sum(),
    weights_slip=Numbers(EXP_SLIP / EXP_SLIP.sum()),
    sqrt_d=math.sqrt(D),
)
