"""Checks of the rows in book/_data/errata/02_context.yml, one function per row id."""

from __future__ import annotations

import torch

import attnlib
from attnlib import examples, text

from ._registry import Value, check


@check("doc001-hand-picked-weights")
def doc001_hand_picked_weights() -> Value:
    """mixing weights of 'money bank grows' and 'river bank flows'."""
    return all(
        abs(text.softmax_cycle_ratio(w, [0, 1, 2]) - 1) > 0.5 for w in examples.DOC001_HAND_WEIGHTS.values()
    )


@check("doc004-bank-river-weights")
def doc004_bank_river_weights() -> Value:
    """weights of 'bank' on river / of / The in 'The bank of the river'."""
    return abs(sum(examples.BANK_OF_RIVER_WEIGHTS_PRINTED.values()) - 0.95) < 1e-12


@check("doc004-scores-become-weights")
def doc004_scores_become_weights() -> Value:
    """claim: the dot products Q[bank]·K[river] = 0.50, ·K[of] = 0.30, ·K[The] = 0.15 b."""
    return bool(attnlib.softmax(torch.tensor([0.50, 0.30, 0.15]))[0] < 0.5)
