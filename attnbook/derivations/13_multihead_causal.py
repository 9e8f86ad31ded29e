"""Checks of the rows in book/_data/errata/13_multihead_causal.yml, one function per row id."""

from __future__ import annotations

import torch

from attnlib.companions import examples, heads

from ..evidence import MadeUp
from ._registry import Value, derives

LARGEST = "largest weight of any pair, 8 untrained heads"


def _largest_untrained_weight() -> float:
    return float(heads.untrained_head_weights(examples.QUICK_FOX_TOKENS).max())


def _made_up_weight(below: float, *, also: bool = True, shown: dict[str, Value] | None = None) -> MadeUp:
    """A weight the document made up: confirmed when no pair of 8 untrained heads reaches ``below``
    (and ``also`` holds); shows ``shown``, then that largest weight."""
    largest = _largest_untrained_weight()
    return MadeUp(confirmed=also and largest < below, shown={**(shown or {}), LARGEST: largest})


@derives("multihead-fox-jumps")
def multihead_fox_jumps() -> Value:
    """Weight of 'fox' on 'jumps' (made up)."""
    return _made_up_weight(0.9)


@derives("multihead-dog-has-property")
def multihead_dog_has_property() -> Value:
    """Weight of 'dog' on 'has_property' (made up; no such key)."""
    present = "has_property" in examples.QUICK_FOX_TOKENS
    return _made_up_weight(0.7, also=not present, shown={"'has_property' is a token of the sentence": present})


@derives("multihead-adjective-noun")
def multihead_adjective_noun() -> Value:
    """Weights of 'quick' and 'brown' on 'fox', and of 'lazy' on 'dog' (made up)."""
    return _made_up_weight(0.8)


@derives("multihead-over-connects-fox-dog")
def multihead_over_connects_fox_dog() -> Value:
    """Weight with which 'over' connects 'fox' and 'dog' (made up; two weights of 0.8 exceed 1)."""
    rows_sum_to_one = bool(
        torch.allclose(heads.untrained_head_weights(examples.QUICK_FOX_TOKENS).sum(-1), torch.ones(8, 9))
    )
    return MadeUp(
        confirmed=rows_sum_to_one and 0.8 + 0.8 > 1 and _largest_untrained_weight() < 0.8,
        shown={"0.8 to fox + 0.8 to dog": 0.8 + 0.8, "every row of weights sums to 1": rows_sum_to_one},
    )
