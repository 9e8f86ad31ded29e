"""Exercises of chapter 13, "Multi-head attention and the causal mask": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/13_multihead_causal.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import numpy as np
import torch

import attnlib

from ._helpers import randn
from ._registry import ChapterCode, Numbers

code = ChapterCode(__name__)


@code.function
def split_reference(x: torch.Tensor, num_heads: int) -> torch.Tensor:
    b, n, d = x.shape
    return x.view(b, n, num_heads, d // num_heads).transpose(1, 2)  # (B, h, n, d_h)


@code.function
def split_no_transpose(x: torch.Tensor, num_heads: int) -> torch.Tensor:
    b, n, d = x.shape
    return x.reshape(b, num_heads, n, d // num_heads)  # (B, h, n, d_h), rows scrambled


@code.function
def split_interleaved(x: torch.Tensor, num_heads: int) -> torch.Tensor:
    b, n, d = x.shape
    return x.view(b, n, d // num_heads, num_heads).permute(0, 3, 1, 2)  # (B, h, n, d_h), strided features


@code.function
def split_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, b, n, d), h) for b, n, d, h in ((1, 3, 4, 2), (2, 5, 12, 3), (2, 4, 8, 4))]


@code.function
def merge_reference(x: torch.Tensor) -> torch.Tensor:
    b, h, n, d_h = x.shape
    return x.transpose(1, 2).reshape(b, n, h * d_h)  # (B, n, h·d_h)


@code.function
def merge_no_transpose(x: torch.Tensor) -> torch.Tensor:
    b, h, n, d_h = x.shape
    return x.reshape(b, n, h * d_h)  # (B, n, h·d_h), tokens and heads mixed up


@code.function
def merge_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, b, h, n, d),) for b, h, n, d in ((1, 2, 3, 2), (2, 3, 4, 5), (1, 4, 2, 3))]


code.add(  # 13.2
    ex2_heads_interleaved=lambda x: x.permute(0, 2, 3, 1).reshape(x.shape[0], x.shape[2], -1),  # (B, n, d_head·h)
)


D_MODEL, H = 512, 8
_MHA = attnlib.MultiHeadAttention(D_MODEL, H)

code.add(  # 13.3
    ex3_answer=lambda: _MHA.d_head if hasattr(_MHA, "d_head") else D_MODEL // H,
    ex3_full_width_heads=lambda: D_MODEL,
    ex3_multiplied=lambda: D_MODEL * H,
)


SC = np.array([1.0, 2.0, 3.0])  # the scores of token 2 (index 1) against keys 1, 2, 3
ALLOWED = attnlib.causal_mask(3)[1].numpy()  # (3,)
MASKED = np.where(ALLOWED, SC, -np.inf)
EXP = np.exp(MASKED)
EXP_SLIP = np.where(ALLOWED, EXP, 1.0)  # the slip: e^(−∞) written as 1

code.add(  # 13.4
    ex4_answer=lambda: EXP[2],
    ex4_exp_of_zero=lambda: EXP_SLIP[2],
    ex4_weight_not_exp=lambda: (EXP_SLIP / EXP_SLIP.sum())[2],
)


code.values(
    d_model=D_MODEL,
    h=H,
    scores=Numbers(SC),
    exp_slip=Numbers(EXP_SLIP),
    masked="[" + ", ".join(f"{x:.1f}" if np.isfinite(x) else "−∞" for x in MASKED) + "]",
)
