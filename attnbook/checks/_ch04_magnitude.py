"""Checks of the rows in book/_data/errata/04_magnitude.yml, one function per row id."""

from __future__ import annotations

import math

import torch

from attnlib import examples

from ._registry import Value, check


@check("magnitude-focus-on-alignment")
def magnitude_focus_on_alignment() -> Value:
    """claim: dividing by √d_k makes the model focus on alignment, not magnitude."""
    return bool(
        torch.equal(
            torch.argsort(torch.stack(list(examples.MAGNITUDE_KEYS.values())) @ examples.MAGNITUDE_QUERY),
            torch.argsort(
                torch.stack(list(examples.MAGNITUDE_KEYS.values())) @ examples.MAGNITUDE_QUERY / math.sqrt(2)
            ),
        )
    )
