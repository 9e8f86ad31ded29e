"""Checks of the rows in book/_data/errata/09_attention_maps.yml, one function per row id."""

from __future__ import annotations

import math

import attnlib
from attnlib.companions import examples

from ._registry import Value, derives


@derives("maps-step-scaled-correct")
def maps_step_scaled_correct() -> Value:
    """scaled scores Q·Kᵀ/√4 (K = Q)."""
    return examples.STEP_Q.double() @ examples.STEP_Q.double().T / math.sqrt(examples.STEP_Q.shape[-1])


@derives("maps-step-weights-correct")
def maps_step_weights_correct() -> Value:
    """attention weights."""
    return attnlib.scaled_dot_product_attention(
        examples.STEP_Q.double(), examples.STEP_Q.double(), examples.STEP_V.double()
    )[1]


@derives("maps-step-row-sums-correct")
def maps_step_row_sums_correct() -> Value:
    """row sums of the weights."""
    return attnlib.scaled_dot_product_attention(
        examples.STEP_Q.double(), examples.STEP_Q.double(), examples.STEP_V.double()
    )[1].sum(dim=-1)


@derives("maps-step-output-correct")
def maps_step_output_correct() -> Value:
    """output (context-aware representations)."""
    return attnlib.scaled_dot_product_attention(
        examples.STEP_Q.double(), examples.STEP_Q.double(), examples.STEP_V.double()
    )[0]
