"""Checks of the rows in book/_data/errata/14_at_scale.yml, one function per row id."""

from __future__ import annotations

from attnlib import cost

from ._registry import Value, check


@check("at-scale-ideal-for-long-sequences")
def at_scale_ideal_for_long_sequences() -> Value:
    """claim: parallel computation makes self-attention highly scalable and ideal for l."""
    return all(
        cost.score_matrix_bytes(1, 1, 2 * n) == 4 * cost.score_matrix_bytes(1, 1, n)
        and cost.attention_flops(1, 1, 2 * n, 2 * n, 64) == 4 * cost.attention_flops(1, 1, n, n, 64)
        for n in (128, 1024, 8192)
    )


@check("at-scale-quadratic-memory")
def at_scale_quadratic_memory() -> Value:
    """claim: a longer sequence costs quadratic memory."""
    return all(cost.score_matrix_bytes(8, 8, n) == 8 * 8 * n * n * 4 for n in (128, 2048, 8192))
