"""Checks of the rows in book/_data/errata/02_context.yml, one function per row id."""

from __future__ import annotations

import torch

import attnlib
from attnlib.companions import text

from .. import printed
from ..evidence import Finding, MadeUp
from ._registry import Value, derives


@derives("doc001-hand-picked-weights")
def doc001_hand_picked_weights() -> Value:
    """Mixing weights of 'money bank grows' and 'river bank flows'."""
    ratios = {s: text.softmax_cycle_ratio(w, [0, 1, 2]) for s, w in printed.DOC001_HAND_WEIGHTS.items()}
    return MadeUp(
        confirmed=all(abs(r - 1) > 0.5 for r in ratios.values()),
        shown={f"loop product of '{s}' (softmax rows give exactly 1)": r for s, r in ratios.items()},
    )


@derives("doc004-bank-river-weights")
def doc004_bank_river_weights() -> Value:
    """Weights of 'bank' on river / of / The in 'The bank of the river'."""
    total = sum(printed.BANK_OF_RIVER_WEIGHTS_PRINTED.values())
    return MadeUp(confirmed=abs(total - 0.95) < 1e-12, shown={"sum of the three printed weights": total})


@derives("doc004-scores-become-weights")
def doc004_scores_become_weights() -> Value:
    """Claim: the dot products 0.50, 0.30, 0.15 become the weights (50 % of V[river])."""
    river = float(attnlib.softmax(torch.tensor([0.50, 0.30, 0.15], dtype=torch.float64))[0])
    return Finding(
        holds=river >= 0.5, shown={"largest possible weight of river (softmax of the three scores)": river}
    )
