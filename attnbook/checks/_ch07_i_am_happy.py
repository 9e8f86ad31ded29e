"""Checks of the rows in book/_data/errata/07_i_am_happy.yml, one function per row id."""

from __future__ import annotations

import math

import torch

import attnlib
from attnlib import examples

from ._registry import Value, check


@check("happy-divisor-1-73")
def happy_divisor_1_73() -> Value:
    """0.77/1.73 and 1.22/1.73, as written for the row of 'am'."""
    return (examples.HAPPY_EMBEDDINGS.double() @ examples.HAPPY_EMBEDDINGS.double().T)[1, 1:] / 1.73


@check("happy-row1-exp")
def happy_row1_exp() -> Value:
    """exp of the first row of scaled scores."""
    return torch.exp(
        examples.HAPPY_EMBEDDINGS.double() @ examples.HAPPY_EMBEDDINGS.double().T / math.sqrt(3)
    )[0]


@check("happy-row1-exp-sum")
def happy_row1_exp_sum() -> Value:
    """sum of the exponentials of the first row."""
    return torch.exp(
        examples.HAPPY_EMBEDDINGS.double() @ examples.HAPPY_EMBEDDINGS.double().T / math.sqrt(3)
    )[0].sum()


@check("happy-weights-am")
def happy_weights_am() -> Value:
    """attention weights of 'am'."""
    return attnlib.scaled_dot_product_attention(
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
    )[1][1]


@check("happy-weights-happy")
def happy_weights_happy() -> Value:
    """attention weights of 'happy'."""
    return attnlib.scaled_dot_product_attention(
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
    )[1][2]


@check("happy-context-i")
def happy_context_i() -> Value:
    """context vector of 'I'."""
    return attnlib.scaled_dot_product_attention(
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
    )[0][0]


@check("happy-context-am")
def happy_context_am() -> Value:
    """context vector of 'am'."""
    return attnlib.scaled_dot_product_attention(
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
    )[0][1]


@check("happy-context-happy")
def happy_context_happy() -> Value:
    """context vector of 'happy'."""
    return attnlib.scaled_dot_product_attention(
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
    )[0][2]


@check("happy-scores-correct")
def happy_scores_correct() -> Value:
    """Q·Kᵀ, all nine entries."""
    return examples.HAPPY_EMBEDDINGS.double() @ examples.HAPPY_EMBEDDINGS.double().T


@check("happy-sqrt3-correct")
def happy_sqrt3_correct() -> Value:
    """√d_k for d_k = 3."""
    return math.sqrt(examples.HAPPY_EMBEDDINGS.shape[-1])


@check("happy-scaled-correct")
def happy_scaled_correct() -> Value:
    """Q·Kᵀ/√3, all nine entries."""
    return examples.HAPPY_EMBEDDINGS.double() @ examples.HAPPY_EMBEDDINGS.double().T / math.sqrt(3)


@check("happy-weights-i-correct")
def happy_weights_i_correct() -> Value:
    """attention weights of 'I'."""
    return attnlib.scaled_dot_product_attention(
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
        examples.HAPPY_EMBEDDINGS.double(),
    )[1][0]
