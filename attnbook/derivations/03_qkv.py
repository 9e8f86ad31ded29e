"""Checks of the rows in book/_data/errata/03_qkv.yml, one function per row id."""

from __future__ import annotations

import torch

from attnlib.companions import examples

from ._registry import Value, derives


@derives("journey-scores")
def journey_scores() -> Value:
    """unscaled scores q_journey · k_j for the six tokens."""
    m, x = (examples.journey_self_attention(), examples.JOURNEY_INPUTS)
    return (x @ m.W_query)[1] @ (x @ m.W_key).T


@derives("journey-weights")
def journey_weights() -> Value:
    """softmax(scores / √2) for the six tokens."""
    return examples.journey_self_attention()(examples.JOURNEY_INPUTS, return_weights=True)[1][1]


@derives("brl-queries")
def brl_queries() -> Value:
    """Q = E @ W_Q for 'bank', 'river', 'loan' after torch.manual_seed(42), W = torch.r."""
    g = torch.Generator().manual_seed(examples.BRL_SEED)
    return examples.BRL_EMBEDDINGS @ (torch.randn(4, 4, generator=g) * 0.5)
