"""Checks of the rows in book/_data/errata/08_it_attends.yml, one function per row id."""

from __future__ import annotations

import math

import numpy as np
import torch

import attnlib
from attnlib.companions import examples

from ..evidence import Exact, Route
from ._registry import Value, derives


def _scores() -> torch.Tensor:
    return examples.IT_KEYS.double() @ examples.IT_QUERY.double()  # (3,): q·k of animal, street, because


def _logits() -> torch.Tensor:
    return _scores() / math.sqrt(2)  # (3,)


def _attention() -> tuple[torch.Tensor, torch.Tensor]:
    """The context vector (1, 2) and the weights (1, 3) of the query of 'it', as attnlib computes them."""
    return attnlib.scaled_dot_product_attention(
        examples.IT_QUERY.double()[None], examples.IT_KEYS.double(), examples.IT_VALUES.double()
    )


@derives("it-hand-logits")
def it_hand_logits() -> Value:
    """Scaled scores (logits) of animal, street, because."""
    return Exact(
        exact=_logits(),
        route=Route(
            ("it-appendix-scores-correct", "it-hand-sqrt2-correct"),
            lambda s, r: s / r[0],
            "the divisor √2 rounded to 1.41",
        ),
    )


@derives("it-hand-exp-animal")
def it_hand_exp_animal() -> Value:
    """exp of the logit of animal."""
    return Exact(
        exact=torch.exp(_logits())[0],
        route=Route(("it-hand-logits",), lambda x: np.exp(x[0]), "the logit 7.09 of the 1.41 route"),
    )


@derives("it-hand-exp-street")
def it_hand_exp_street() -> Value:
    """exp of the logit of street."""
    return Exact(
        exact=torch.exp(_logits())[1],
        route=Route(("it-hand-logits",), lambda x: np.exp(x[1]), "the logit 4.96 of the 1.41 route"),
    )


@derives("it-hand-exp-sum")
def it_hand_exp_sum() -> Value:
    """Sum of the three exponentials (softmax denominator)."""
    return Exact(
        exact=torch.exp(_logits()).sum(),
        route=Route(
            ("it-hand-exp-animal", "it-hand-exp-street", "it-hand-exp-because-correct"),
            lambda a, b, c: a[0] + b[0] + c[0],
            "the sum of the printed exponentials",
        ),
    )


@derives("it-hand-term-because")
def it_hand_term_because() -> Value:
    """Weighted value of because, weight × V_because."""
    weights = _attention()[1]  # (1, 3)
    return Exact(
        exact=weights[0, 2] * examples.IT_VALUES.double()[2],
        route=Route(
            ("it-code-weights-correct", "doc004-it-inputs"),
            lambda w, inputs: w[2] * inputs[-2:],
            "the weight rounded to 0.03",
        ),
    )


@derives("it-code-scores-correct")
def it_code_scores_correct() -> Value:
    """scores q·k of animal, street, because."""
    return _scores()


@derives("it-code-scaled-correct")
def it_code_scaled_correct() -> Value:
    """scaled scores of animal, street, because."""
    return _logits()


@derives("it-code-weights-correct")
def it_code_weights_correct() -> Value:
    """attention weights of animal, street, because."""
    return _attention()[1][0]


@derives("it-weights-percent-correct")
def it_weights_percent_correct() -> Value:
    """attention weights in percent."""
    return 100 * _attention()[1][0]


@derives("it-context-correct")
def it_context_correct() -> Value:
    """context vector of 'it'."""
    return _attention()[0][0]


@derives("it-hand-sqrt2-correct")
def it_hand_sqrt2_correct() -> Value:
    """√d_k for d_k = 2."""
    return math.sqrt(examples.IT_QUERY.shape[-1])


@derives("it-hand-exp-because-correct")
def it_hand_exp_because_correct() -> Value:
    """exp of the logit of because."""
    return torch.exp(_logits())[2]


@derives("it-hand-terms-correct")
def it_hand_terms_correct() -> Value:
    """weighted values of animal and street, weight × V."""
    return _attention()[1][0, :2, None] * examples.IT_VALUES.double()[:2]  # (2, 2)


@derives("it-appendix-scores-correct")
def it_appendix_scores_correct() -> Value:
    """scores of animal, street, because."""
    return _scores()
