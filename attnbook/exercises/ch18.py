"""Exercises of chapter 18, "Attention we can check"."""

from __future__ import annotations

import math

import numpy as np
import torch

from attnlib import lookup

from ._core import Code, Exercise, FindError, Misconception, Mistake, Numeric, Section, fmt

CH = "18_known_attention"
TASK = Section(CH, "The task")
HAND = Section(CH, "The layer that solves it by hand")
TRAINED = Section(CH, "Training one head and two heads")
N_LETTERS, N_DIGITS, WIDTH = len(lookup.LETTERS), len(lookup.DIGITS), 12
ASKED = N_LETTERS + N_DIGITS  # the first feature of the asked-letter part


def _hand_qk(beta: float) -> tuple[torch.Tensor, torch.Tensor]:
    model = lookup.ideal_model(beta=beta, d_model=WIDTH)
    return model.w_q.detach().double(), model.w_k.detach().double()  # (D_IN, 12) each


def _hand_qk_no_beta(beta: float) -> tuple[torch.Tensor, torch.Tensor]:
    return _hand_qk(1.0)  # plain one-hot copies: the scores stay small


def _hand_qk_beta_squared(beta: float) -> tuple[torch.Tensor, torch.Tensor]:
    return _hand_qk(beta * beta)  # each matrix already carries β²: the score is β⁴/√d


def _hand_qk_item_query(beta: float) -> tuple[torch.Tensor, torch.Tensor]:
    w_k = _hand_qk(beta)[1]
    return w_k.clone(), w_k  # W_Q reads the item-letter part, which the query token leaves at 0


def _beta_cases(rng: np.random.Generator) -> list[tuple]:
    return [(2.0,), (6.0,), (round(float(rng.uniform(0.3, 0.8)), 2),)]


E18_1 = Exercise(
    id="18.1", kind="code", skill="a hand-built key-value lookup",
    prompt=(f"Write lookup_qk(beta): a token has {lookup.D_IN} features: {N_LETTERS} for an item's letter "
            f"(one-hot, features 0–{N_LETTERS - 1}), {N_DIGITS} for its digit, and {N_LETTERS} for the asked "
            f"letter (features {ASKED}–{lookup.D_IN - 1}, set only on the query token). Return (w_q, w_k), each "
            f"({lookup.D_IN}, {WIDTH}): W_Q sends asked letter i to coordinate i times beta, W_K sends an item's "
            "letter i to coordinate i times beta; every other entry is 0."),
    answer=Code("def lookup_qk(beta):", f"a tuple of two ({lookup.D_IN}, {WIDTH}) arrays (w_q, w_k)", _hand_qk,
                _beta_cases),
    mistakes=[
        Mistake(Misconception("beta-forgotten", "the factor beta left out",
                              "Both matrices carry beta, so the matching score is beta² / √12: large enough to "
                              "win the softmax.", HAND), impl=_hand_qk_no_beta),
        Mistake(Misconception("beta-squared-twice", "beta² in each matrix",
                              "Each matrix carries beta once; their product gives beta².", HAND),
                impl=_hand_qk_beta_squared),
        Mistake(Misconception("query-reads-item", "W_Q reading the item's letter",
                              f"The query token's letter is in features {ASKED}–{lookup.D_IN - 1}; its item part "
                              "is 0, so this W_Q gives it a zero query.", TASK), impl=_hand_qk_item_query),
    ],
    hint=f"w_q[{ASKED} + i, i] = beta and w_k[i, i] = beta for each letter i; zeros elsewhere.",
    section=HAND, why="The query for letter i and the key of item letter i meet on coordinate i, and nowhere else.",
)

BETA = 3.0
_SEQUENCES = lookup.make_lookup_data(n_train=1, n_test=8, seed=0)[1]
_S = BETA**2 / math.sqrt(WIDTH)


def _weight_formula(s: float, others: int = lookup.N_ITEMS) -> float:
    return math.exp(s) / (math.exp(s) + others)


E18_2 = Exercise(
    id="18.2", kind="compute", skill="the weight on the asked item",
    prompt=(f"The hand-built layer with beta = {BETA:g} and a head {WIDTH} wide: the query scores the matching item "
            f"beta² / √{WIDTH} and every other token (the other {lookup.N_ITEMS - 1} items and the query itself) 0. "
            "What weight does the query put on the matching item (3 decimals)?"),
    answer=Numeric(lambda: lookup.lookup_metrics(lookup.ideal_model(beta=BETA), _SEQUENCES)["head1_weight_on_match"],
                   tol=5e-4, expect="one number"),
    mistakes=[
        Mistake(Misconception("missing-scale", "the 1/√d_k forgotten",
                              "The score is beta² / √12, not beta².", HAND),
                value=lambda: _weight_formula(BETA**2)),
        Mistake(Misconception("query-own-key-forgotten", "the query's own key left out of the softmax",
                              "The query attends to itself too (score 0): e^s + 4 in the denominator.", HAND),
                value=lambda: _weight_formula(_S, lookup.N_ITEMS - 1)),
        Mistake(Misconception("beta-not-squared", "beta instead of beta²",
                              "W_Q and W_K each carry beta: the score has beta twice.", HAND),
                value=lambda: _weight_formula(BETA / math.sqrt(WIDTH))),
    ],
    hint="e^s / (e^s + 4) with s = beta² / √12.",
    section=HAND, why="The weight tends to 1 as beta grows, but never reaches it.",
)

_ROW = np.array([0.05, 0.85, 0.04, 0.03, 0.03])  # a learned row; the asked item is token 2 (index 1)
_IDEAL = np.eye(len(_ROW))[1]


def _tv(row: np.ndarray) -> float:
    return float(0.5 * np.abs(row - _IDEAL).sum())


E18_3 = Exercise(
    id="18.3", kind="compute", skill="how far a learned row is from the ideal",
    prompt=(f"A trained head's row over the five tokens is {fmt(_ROW, 2)}; the asked item is token 2. What is the "
            "total-variation distance of this row from the ideal one-hot row (2 decimals)?"),
    answer=Numeric(lambda: _tv(_ROW), tol=5e-3, expect="one number"),
    mistakes=[
        Mistake(Misconception("tv-no-half", "the sum of absolute differences, without the half",
                              "The total-variation distance is half that sum: it lies between 0 and 1.", TRAINED),
                value=lambda: 2 * _tv(_ROW)),
        Mistake(Misconception("weight-not-distance", "the weight on the item given",
                              "That is the similarity; the distance of a one-hot target is 1 minus it.", TRAINED),
                value=lambda: _ROW[1]),
        Mistake(Misconception("euclidean", "the Euclidean distance",
                              "Total variation sums absolute differences (and halves); it does not square them.",
                              TRAINED), value=lambda: np.linalg.norm(_ROW - _IDEAL)),
    ],
    hint="Half the sum of |row − ideal| over the five tokens.",
    section=TRAINED, why="For a one-hot target it is 1 minus the weight on the item.",
)

BETA_SMALL = 2.0
S_SMALL = BETA_SMALL**2 / math.sqrt(WIDTH)
DENOMINATOR = math.exp(S_SMALL) + lookup.N_ITEMS  # the matching item, 3 other items and the query at e⁰ = 1
DENOMINATOR_SLIP = DENOMINATOR - 1  # the slip: the query's own key left out

E18_4 = Exercise(
    id="18.4", kind="find-error", skill="the hand-built weight, by hand",
    prompt=(f"A reader computes the weight on the asked item for the hand-built layer with beta = {BETA_SMALL:g} "
            f"(head width {WIDTH}, {lookup.N_ITEMS} items and the query token). One step has a slip: which one, "
            "and what is the right value of the number it got wrong (3 decimals)?"),
    answer=FindError(
        steps=[("a", f"score of the matching item: beta² / √{WIDTH} = {S_SMALL:.3f}"),
               ("b", "score of the three other items and of the query's own key: 0"),
               ("c", f"softmax denominator: e^{S_SMALL:.3f} + 3 = {DENOMINATOR_SLIP:.3f}"),
               ("d", f"weight on the item: e^{S_SMALL:.3f} / {DENOMINATOR_SLIP:.3f} = "
                     f"{math.exp(S_SMALL) / DENOMINATOR_SLIP:.3f}")],
        wrong_step="c", value=Numeric(lambda: DENOMINATOR, tol=5e-4, expect="one number"),
        value_hint="Step c is the one: count every token the query attends to, itself included."),
    mistakes=[
        Mistake(Misconception("blamed-the-result", "the step that shows the slip, not the one that made it",
                              "Step d divides correctly by the denominator step c gave it.", HAND), option="d"),
        Mistake(Misconception("zero-scores-doubted", "the zero scores doubted",
                              "Step b is right: W_Q and W_K share no coordinate for different letters, and the "
                              "query's key is 0.", HAND), option="b"),
        Mistake(Misconception("query-own-key-forgotten", "the query's own key left out of the softmax",
                              "That is the slip itself: the query attends to 5 tokens, 4 of them with score 0.",
                              HAND), value=lambda: DENOMINATOR_SLIP),
        Mistake(Misconception("exp-zero-is-zero", "e⁰ taken as 0",
                              "A score of 0 gives e⁰ = 1, not 0: each of those tokens adds 1.", HAND),
                value=lambda: math.exp(S_SMALL)),
    ],
    hint="Check each step: every token gets e^(its score) in the denominator, and e⁰ = 1.",
    section=HAND, why="The 4 tokens with score 0 each add e⁰ = 1: that is the 4 in e^s / (e^s + 4).",
)

EXERCISES = [E18_1, E18_2, E18_3, E18_4]
