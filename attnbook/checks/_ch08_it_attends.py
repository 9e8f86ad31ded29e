"""Checks of the rows in book/_data/errata/08_it_attends.yml, one function per row id."""

from __future__ import annotations

import math

import torch

import attnlib
from attnlib import examples

from ._registry import Value, check


@check("it-hand-logits")
def it_hand_logits() -> Value:
    """scaled scores (logits) of animal, street, because."""
    return examples.IT_KEYS.double() @ examples.IT_QUERY.double() / math.sqrt(2)


@check("it-hand-exp-animal")
def it_hand_exp_animal() -> Value:
    """exp of the logit of animal."""
    return torch.exp(examples.IT_KEYS.double() @ examples.IT_QUERY.double() / math.sqrt(2))[0]


@check("it-hand-exp-street")
def it_hand_exp_street() -> Value:
    """exp of the logit of street."""
    return torch.exp(examples.IT_KEYS.double() @ examples.IT_QUERY.double() / math.sqrt(2))[1]


@check("it-hand-exp-sum")
def it_hand_exp_sum() -> Value:
    """sum of the three exponentials (softmax denominator)."""
    return torch.exp(examples.IT_KEYS.double() @ examples.IT_QUERY.double() / math.sqrt(2)).sum()


@check("it-hand-term-because")
def it_hand_term_because() -> Value:
    """weighted value of because, weight × V_because."""
    return (
        attnlib.scaled_dot_product_attention(
            examples.IT_QUERY.double()[None], examples.IT_KEYS.double(), examples.IT_VALUES.double()
        )[1][0, 2]
        * examples.IT_VALUES.double()[2]
    )


@check("it-code-scores-correct")
def it_code_scores_correct() -> Value:
    """scores q·k of animal, street, because."""
    return examples.IT_KEYS.double() @ examples.IT_QUERY.double()


@check("it-code-scaled-correct")
def it_code_scaled_correct() -> Value:
    """scaled scores of animal, street, because."""
    return examples.IT_KEYS.double() @ examples.IT_QUERY.double() / math.sqrt(2)


@check("it-code-weights-correct")
def it_code_weights_correct() -> Value:
    """attention weights of animal, street, because."""
    return attnlib.scaled_dot_product_attention(
        examples.IT_QUERY.double()[None], examples.IT_KEYS.double(), examples.IT_VALUES.double()
    )[1][0]


@check("it-weights-percent-correct")
def it_weights_percent_correct() -> Value:
    """attention weights in percent."""
    return (
        100
        * attnlib.scaled_dot_product_attention(
            examples.IT_QUERY.double()[None], examples.IT_KEYS.double(), examples.IT_VALUES.double()
        )[1][0]
    )


@check("it-context-correct")
def it_context_correct() -> Value:
    """context vector of 'it'."""
    return attnlib.scaled_dot_product_attention(
        examples.IT_QUERY.double()[None], examples.IT_KEYS.double(), examples.IT_VALUES.double()
    )[0][0]


@check("it-hand-sqrt2-correct")
def it_hand_sqrt2_correct() -> Value:
    """√d_k for d_k = 2."""
    return math.sqrt(examples.IT_QUERY.shape[-1])


@check("it-hand-exp-because-correct")
def it_hand_exp_because_correct() -> Value:
    """exp of the logit of because."""
    return torch.exp(examples.IT_KEYS.double() @ examples.IT_QUERY.double() / math.sqrt(2))[2]


@check("it-hand-terms-correct")
def it_hand_terms_correct() -> Value:
    """weighted values of animal and street, weight × V."""
    return (
        attnlib.scaled_dot_product_attention(
            examples.IT_QUERY.double()[None], examples.IT_KEYS.double(), examples.IT_VALUES.double()
        )[1][0, :2, None]
        * examples.IT_VALUES.double()[:2]
    )


@check("it-appendix-scores-correct")
def it_appendix_scores_correct() -> Value:
    """scores of animal, street, because."""
    return examples.IT_KEYS.double() @ examples.IT_QUERY.double()
