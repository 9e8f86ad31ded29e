"""Checks of the rows in book/_data/errata/16_at_scale.yml, one function per row id."""

from __future__ import annotations

from attnlib.companions import cost, recurrence

from ..evidence import Finding
from ._registry import Value, derives


@derives("at-scale-ideal-for-long-sequences")
def at_scale_ideal_for_long_sequences() -> Value:
    """Claim: parallel computation makes self-attention highly scalable and ideal for long sequences."""
    ratio_bytes = {
        n: cost.score_matrix_bytes(1, 1, 2 * n) / cost.score_matrix_bytes(1, 1, n) for n in (128, 1024, 8192)
    }
    ratio_flops = {
        n: cost.attention_flops(1, 1, 2 * n, 2 * n, 64) / cost.attention_flops(1, 1, n, n, 64)
        for n in (128, 1024, 8192)
    }
    steps = recurrence.path_counts([f"w{i}" for i in range(1, 101)], "w1", "w100").attention_steps_total
    return Finding(
        holds=steps == 1,
        edge="long sequences: the score matrix's memory and the arithmetic grow with n², so doubling n multiplies them by four",
        shown={
            "sequential attention steps for 100 words": steps,
            **{f"memory ratio, n = {2 * n} against n = {n}": r for n, r in ratio_bytes.items()},
            **{f"arithmetic ratio, n = {2 * n} against n = {n}": r for n, r in ratio_flops.items()},
        },
    )


@derives("at-scale-quadratic-memory")
def at_scale_quadratic_memory() -> Value:
    """claim: a longer sequence costs quadratic memory."""
    return all(cost.score_matrix_bytes(8, 8, n) == 8 * 8 * n * n * 4 for n in (128, 2048, 8192))
