"""Checks of the rows in book/_data/errata/13_multihead_causal.yml, one function per row id."""

from __future__ import annotations

import torch

from attnlib import examples, heads

from ._registry import Value, check


@check("multihead-fox-jumps")
def multihead_fox_jumps() -> Value:
    """weight of 'fox' on 'jumps'."""
    return heads.untrained_head_weights(examples.QUICK_FOX_TOKENS).max().item() < 0.9


@check("multihead-dog-has-property")
def multihead_dog_has_property() -> Value:
    """weight of 'dog' on 'has_property'."""
    return (
        "has_property" not in examples.QUICK_FOX_TOKENS
        and heads.untrained_head_weights(examples.QUICK_FOX_TOKENS).max().item() < 0.7
    )


@check("multihead-adjective-noun")
def multihead_adjective_noun() -> Value:
    """weights of 'quick' and 'brown' on 'fox', and of 'lazy' on 'dog'."""
    return heads.untrained_head_weights(examples.QUICK_FOX_TOKENS).max().item() < 0.8


@check("multihead-over-connects-fox-dog")
def multihead_over_connects_fox_dog() -> Value:
    """weight with which 'over' connects 'fox' and 'dog'."""
    return (
        bool(
            torch.allclose(heads.untrained_head_weights(examples.QUICK_FOX_TOKENS).sum(-1), torch.ones(8, 9))
        )
        and 0.8 + 0.8 > 1
        and heads.untrained_head_weights(examples.QUICK_FOX_TOKENS).max().item() < 0.8
    )
