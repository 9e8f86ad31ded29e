"""Checks of the rows in book/_data/errata/04_magnitude.yml, one function per row id."""

from __future__ import annotations

import math

import torch

from attnlib.companions import examples

from ..evidence import Finding
from ._registry import Value, derives


@derives("magnitude-focus-on-alignment")
def magnitude_focus_on_alignment() -> Value:
    """Claim: dividing by √d_k makes the model focus on alignment, not magnitude."""
    scores = torch.stack(list(examples.MAGNITUDE_KEYS.values())) @ examples.MAGNITUDE_QUERY  # (3,)
    scaled = scores / math.sqrt(2)
    names = list(examples.MAGNITUDE_KEYS)
    return Finding(
        holds=not torch.equal(torch.argsort(scores), torch.argsort(scaled)),
        shown={
            "key order by score, unscaled": [names[i] for i in torch.argsort(scores, descending=True)],
            "key order by score, divided by √2": [names[i] for i in torch.argsort(scaled, descending=True)],
        },
    )
