"""Exercises of chapter 13, "Multi-head attention and the causal mask"."""

from __future__ import annotations

import numpy as np
import torch

import attnlib

from ._core import Code, Exercise, FindError, Misconception, Mistake, Numeric, Section, fmt
from ._helpers import randn

CH = "13_multihead_causal"
HEADS = Section(CH, "Heads, concatenation and $W_o$")
SHAPES = Section(CH, "The shape bookkeeping")
CAUSAL = Section(CH, "The causal mask")


def _split_reference(x: torch.Tensor, num_heads: int) -> torch.Tensor:
    b, n, d = x.shape
    return x.view(b, n, num_heads, d // num_heads).transpose(1, 2)  # (B, h, n, d_h)


def _split_no_transpose(x: torch.Tensor, num_heads: int) -> torch.Tensor:
    b, n, d = x.shape
    return x.reshape(b, num_heads, n, d // num_heads)  # (B, h, n, d_h), rows scrambled


def _split_interleaved(x: torch.Tensor, num_heads: int) -> torch.Tensor:
    b, n, d = x.shape
    return x.view(b, n, d // num_heads, num_heads).permute(0, 3, 1, 2)  # (B, h, n, d_h), strided features


def _split_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, b, n, d), h) for b, n, d, h in ((1, 3, 4, 2), (2, 5, 12, 3), (2, 4, 8, 4))]


E13_1 = Exercise(
    id="13.1", kind="code", skill="splitting into heads",
    prompt=("Write split_heads(x, num_heads): x is (B, n, d_model) with d_model divisible by num_heads. Return "
            "(B, num_heads, n, d_head): head h gets features h·d_head … (h+1)·d_head − 1 of every token."),
    answer=Code("def split_heads(x, num_heads):", "a (B, num_heads, n, d_head) tensor", _split_reference,
                _split_cases),
    mistakes=[
        Mistake(Misconception("reshape-no-transpose", "a reshape straight to (B, h, n, d_head)",
                              "First view as (B, n, h, d_head), then swap the n and h axes (transpose(1, 2)).",
                              SHAPES), impl=_split_no_transpose),
        Mistake(Misconception("interleaved-heads", "heads taken from interleaved features",
                              "Each head takes a contiguous block of d_head features: view (B, n, h, d_head).",
                              SHAPES), impl=_split_interleaved),
    ],
    hint="x.view(B, n, num_heads, d_model // num_heads).transpose(1, 2).",
    section=SHAPES,
)


def _merge_reference(x: torch.Tensor) -> torch.Tensor:
    b, h, n, d_h = x.shape
    return x.transpose(1, 2).reshape(b, n, h * d_h)  # (B, n, h·d_h)


def _merge_no_transpose(x: torch.Tensor) -> torch.Tensor:
    b, h, n, d_h = x.shape
    return x.reshape(b, n, h * d_h)  # (B, n, h·d_h), tokens and heads mixed up


def _merge_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, b, h, n, d),) for b, h, n, d in ((1, 2, 3, 2), (2, 3, 4, 5), (1, 4, 2, 3))]


E13_2 = Exercise(
    id="13.2", kind="code", skill="concatenating the heads",
    prompt=("Write merge_heads(x): x is (B, h, n, d_head), the output of every head. Return (B, n, h·d_head): "
            "for every token, head 0's features, then head 1's, and so on."),
    answer=Code("def merge_heads(x):", "a (B, n, h·d_head) tensor", _merge_reference, _merge_cases),
    mistakes=[
        Mistake(Misconception("reshape-no-transpose", "a reshape without moving the head axis",
                              "Bring tokens before heads first: x.transpose(1, 2), then reshape.", SHAPES),
                impl=_merge_no_transpose),
        Mistake(Misconception("heads-interleaved", "the features of the heads interleaved",
                              "Concatenate the heads: permute to (B, n, h, d_head), not (B, n, d_head, h).",
                              HEADS), impl=lambda x: x.permute(0, 2, 3, 1).reshape(x.shape[0], x.shape[2], -1)),
    ],
    hint="x.transpose(1, 2).reshape(B, n, h * d_head) (a view needs .contiguous() first).",
    section=SHAPES,
)

D_MODEL, H = 512, 8
_MHA = attnlib.MultiHeadAttention(D_MODEL, H)

E13_3 = Exercise(
    id="13.3", kind="compute", skill="the width of a head",
    prompt=f"A multi-head layer has d_model = {D_MODEL} and {H} heads. What is the width d_head of each head?",
    answer=Numeric(lambda: _MHA.d_head if hasattr(_MHA, "d_head") else D_MODEL // H, tol=0,
                   expect="one whole number"),
    mistakes=[
        Mistake(Misconception("full-width-heads", "each head as wide as the model",
                              "The heads split d_model between them: d_model / h each.", HEADS),
                value=lambda: D_MODEL),
        Mistake(Misconception("multiplied", "d_model multiplied by h",
                              "Splitting divides: the concatenation of h heads is d_model wide again.", HEADS),
                value=lambda: D_MODEL * H),
    ],
    hint="h heads of width d_head concatenate back to d_model.",
    section=HEADS, why="The heads together cost about as much as one full-width head.",
)

SC = np.array([1.0, 2.0, 3.0])  # the scores of token 2 (index 1) against keys 1, 2, 3
ALLOWED = attnlib.causal_mask(3)[1].numpy()  # (3,)
MASKED = np.where(ALLOWED, SC, -np.inf)
EXP = np.exp(MASKED)
EXP_SLIP = np.where(ALLOWED, EXP, 1.0)  # the slip: e^(−∞) written as 1

E13_4 = Exercise(
    id="13.4", kind="find-error", skill="causal weights by hand",
    prompt=(f"Token 2 of 3 has scores {fmt(SC, 1)} against keys 1, 2, 3, with a causal mask. A reader computes its "
            "weights; one step has a slip. Which step, and what is the right value of the number it got wrong?"),
    answer=FindError(
        steps=[("a", "allowed keys: 1 and 2 (key 3 is in the future)"),
               ("b", "masked scores: [1.0, 2.0, −∞]"),
               ("c", f"exponentials: {fmt(EXP_SLIP, 3)}"),
               ("d", f"weights: {fmt(EXP_SLIP / EXP_SLIP.sum(), 3)}")],
        wrong_step="c", value=Numeric(lambda: EXP[2], tol=5e-4, expect="one number"),
        value_hint="Step c is the one. What is e to the power −∞?"),
    mistakes=[
        Mistake(Misconception("mask-orientation", "the mask's orientation doubted",
                              "Step a is right: token 2 may see keys 1 and 2, not the future key 3.", CAUSAL),
                option="a"),
        Mistake(Misconception("blamed-the-result", "the step that shows the slip, not the one that made it",
                              "Step d divides correctly by the sum it was given.", CAUSAL), option="d"),
        Mistake(Misconception("exp-of-zero", "e^(−∞) taken as e⁰ = 1",
                              "exp(−∞) = 0: that is how a masked key gets weight exactly 0.", CAUSAL),
                value=lambda: EXP_SLIP[2]),
        Mistake(Misconception("weight-not-exp", "the slipped weight given",
                              "Give the exponential of step c, not a weight of step d.", CAUSAL),
                value=lambda: (EXP_SLIP / EXP_SLIP.sum())[2]),
    ],
    hint="Check each step: the mask, the masked scores, exp, normalise.",
    section=CAUSAL, why="exp(−∞) = 0, so the future key gets weight 0 and the others renormalise.",
)

EXERCISES = [E13_1, E13_2, E13_3, E13_4]
