"""Exercises of chapter 14, "Where words are: positions": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/14_positions.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import math

import numpy as np
import torch

from attnlib.positions import apply_rope, frequencies, sinusoidal_table

from ._helpers import randn
from ._registry import ChapterCode, Numbers

code = ChapterCode(__name__)


# --- 15.1: one entry of the sinusoidal table, by hand -------------------------------------------------
D1, POS1, PAIR1 = 8, 12, 1  # column 2·PAIR1 = 2 of an 8-wide table, at position 12
ANGLE1 = POS1 / 10000 ** (2 * PAIR1 / D1)

code.add(  # 14.1
    ex1_answer=lambda: float(sinusoidal_table(POS1 + 1, D1)[POS1, 2 * PAIR1]),
    ex1_cosine=lambda: math.cos(ANGLE1),  # the odd column's formula
    ex1_exponent_i=lambda: math.sin(POS1 / 10000 ** (PAIR1 / D1)),  # 10000^(i/d) instead of 10000^(2i/d)
    ex1_column_as_i=lambda: math.sin(POS1 / 10000 ** (2 * (2 * PAIR1) / D1)),  # the column number taken as i
    ex1_degrees=lambda: math.sin(math.radians(ANGLE1)),  # the angle read in degrees
)


# --- 15.2: a score after moving both positions ---------------------------------------------------------
_RNG2 = np.random.default_rng(15_2)
Q2, K2 = randn(_RNG2, 1, 4), randn(_RNG2, 1, 4)  # (1, d) each
M2, N2, SHIFT2 = 5, 2, 10


def _score(m: int, n: int) -> float:
    return float((apply_rope(Q2, [m]) * apply_rope(K2, [n])).sum())



# --- 15.3: a RoPE that turns only the query --------------------------------------------------------------
THETA3 = float(frequencies(2)[0])  # a single pair: one radian per position
M3, N3 = 2, 1
Q3 = torch.tensor([[1.0, 0.0]], dtype=torch.float64)  # (1, 2)
K3 = torch.tensor([[1.0, 0.0]], dtype=torch.float64)
Q3_TURNED = apply_rope(Q3, [M3])  # (1, 2)
ONLY_Q = float((Q3_TURNED * K3).sum())

code.add(  # 14.3
    ex3_answer=lambda: float((Q3_TURNED * apply_rope(K3, [N3])).sum()),
    ex3_only_query=lambda: ONLY_Q,
    ex3_angles_added=lambda: math.cos((M3 + N3) * THETA3),  # k turned the wrong way: the angles add up
)


# --- 15.4: write apply_rope ------------------------------------------------------------------------------
def _turn(x: torch.Tensor, angle: torch.Tensor, a_idx: slice | torch.Tensor, b_idx: slice | torch.Tensor,
          sign: float = 1.0) -> torch.Tensor:
    a, b = x[..., a_idx], x[..., b_idx]  # (n, d/2) each
    cos, sin = torch.cos(angle), sign * torch.sin(angle)
    out = torch.empty_like(x)
    out[..., a_idx], out[..., b_idx] = a * cos - b * sin, a * sin + b * cos
    return out  # (n, d)


@code.function
def rope_reference(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    return apply_rope(x, positions)  # (n, d), interleaved pairs


@code.function
def rope_halves(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    d = x.shape[-1]
    angle = positions[:, None].double() * frequencies(d)  # (n, d/2)
    return _turn(x, angle, slice(0, d // 2), slice(d // 2, d))  # pairs (i, i + d/2)


@code.function
def rope_clockwise(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    d = x.shape[-1]
    angle = positions[:, None].double() * frequencies(d)  # (n, d/2)
    return _turn(x, angle, slice(0, d, 2), slice(1, d, 2), sign=-1.0)  # turned the other way


@code.function
def rope_one_frequency(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    d = x.shape[-1]
    angle = positions[:, None].double().expand(-1, d // 2)  # (n, d/2): every pair turns one radian per position
    return _turn(x, angle, slice(0, d, 2), slice(1, d, 2))


@code.function
def rope_no_position(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    d = x.shape[-1]
    angle = frequencies(d).expand(x.shape[0], -1)  # (n, d/2): θ_i, not m·θ_i
    return _turn(x, angle, slice(0, d, 2), slice(1, d, 2))


@code.function
def rope_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, n, d), torch.from_numpy(rng.integers(0, 50, size=n))) for n, d in ((3, 2), (5, 4), (6, 8))]


code.values(
    pos1=POS1, col1=2 * PAIR1, d1=D1,
    m2=M2, n2=N2, shift2=SHIFT2, m2b=M2 + SHIFT2, n2b=N2 + SHIFT2, s2=_score(M2, N2),
    s2_cos=_score(M2, N2) * math.cos(SHIFT2),
    m3=M3, n3=N3, q3=Numbers(Q3[0]), k3=Numbers(K3[0]), q3_turned=Numbers(Q3_TURNED[0]), only_q=ONLY_Q,
)
