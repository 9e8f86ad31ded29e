"""Exercises of chapter 18, "Attention we can check": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/18_known_attention.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import math

import numpy as np
import torch

from attnlib.companions import lookup

from ._registry import ChapterCode, Numbers

code = ChapterCode(__name__)
N_LETTERS, N_DIGITS, WIDTH = len(lookup.LETTERS), len(lookup.DIGITS), 12
ASKED = N_LETTERS + N_DIGITS  # the first feature of the asked-letter part


@code.function
def hand_qk(beta: float) -> tuple[torch.Tensor, torch.Tensor]:
    model = lookup.ideal_model(beta=beta, d_model=WIDTH)
    return model.w_q.detach().double(), model.w_k.detach().double()  # (D_IN, 12) each


@code.function
def hand_qk_no_beta(beta: float) -> tuple[torch.Tensor, torch.Tensor]:
    return hand_qk(1.0)  # plain one-hot copies: the scores stay small


@code.function
def hand_qk_beta_squared(beta: float) -> tuple[torch.Tensor, torch.Tensor]:
    return hand_qk(beta * beta)  # each matrix already carries β²: the score is β⁴/√d


@code.function
def hand_qk_item_query(beta: float) -> tuple[torch.Tensor, torch.Tensor]:
    w_k = hand_qk(beta)[1]
    return w_k.clone(), w_k  # W_Q reads the item-letter part, which the query token leaves at 0


@code.function
def beta_cases(rng: np.random.Generator) -> list[tuple]:
    return [(2.0,), (6.0,), (round(float(rng.uniform(0.3, 0.8)), 2),)]


BETA = 3.0
SEQUENCES = lookup.make_lookup_data(n_train=1, n_test=8, seed=0)[1]
S = BETA**2 / math.sqrt(WIDTH)


def _weight_formula(s: float, others: int = lookup.N_ITEMS) -> float:
    return math.exp(s) / (math.exp(s) + others)


code.add(  # 18.2
    ex2_answer=lambda: lookup.lookup_metrics(lookup.ideal_model(beta=BETA), SEQUENCES)["head1_weight_on_match"],
    ex2_missing_scale=lambda: _weight_formula(BETA**2),
    ex2_query_own_key_forgotten=lambda: _weight_formula(S, lookup.N_ITEMS - 1),
    ex2_beta_not_squared=lambda: _weight_formula(BETA / math.sqrt(WIDTH)),
)

ROW = np.array([0.05, 0.85, 0.04, 0.03, 0.03])  # a learned row; the asked item is token 2 (index 1)
IDEAL = np.eye(len(ROW))[1]


def _tv(row: np.ndarray) -> float:
    return float(0.5 * np.abs(row - IDEAL).sum())


code.add(  # 18.3
    ex3_answer=lambda: _tv(ROW),
    ex3_tv_no_half=lambda: 2 * _tv(ROW),
    ex3_weight_not_distance=lambda: ROW[1],
    ex3_euclidean=lambda: np.linalg.norm(ROW - IDEAL),
    ex3_cross_entropy=lambda: -np.log(ROW[1]),  # another distance from a one-hot target, near 1 − weight here
)

BETA_SMALL = 2.0
S_SMALL = BETA_SMALL**2 / math.sqrt(WIDTH)
DENOMINATOR = math.exp(S_SMALL) + lookup.N_ITEMS  # the matching item, 3 other items and the query at e⁰ = 1
DENOMINATOR_SLIP = DENOMINATOR - 1  # the slip: the query's own key left out

code.add(  # 18.4
    ex4_answer=lambda: DENOMINATOR,
    ex4_query_own_key_forgotten=lambda: DENOMINATOR_SLIP,
    ex4_exp_zero_is_zero=lambda: math.exp(S_SMALL),
)

code.values(
    d_in=lookup.D_IN,
    n_letters=N_LETTERS,
    n_digits=N_DIGITS,
    last_letter=N_LETTERS - 1,
    asked=ASKED,
    last_feature=lookup.D_IN - 1,
    width=WIDTH,
    beta=f"{BETA:g}",
    n_others=lookup.N_ITEMS - 1,
    n_items=lookup.N_ITEMS,
    row=Numbers(ROW),
    beta_small=f"{BETA_SMALL:g}",
    s_small=S_SMALL,
    denominator_slip=DENOMINATOR_SLIP,
)
