"""Exercises of chapter 10, "Attention in PyTorch"."""

from __future__ import annotations

import numpy as np
import torch

import attnlib

from ._core import Choice, Code, Exercise, Misconception, Mistake, Numeric, Section

CH = "10_pytorch"
MODULE = Section(CH, "The module")
MASK = Section(CH, "A large negative number, or $-\\infty$?")
BATCH = Section(CH, "Batches: `[B, S, D]`")


def _causal_cases(rng: np.random.Generator) -> list[tuple]:
    return [(n,) for n in (1, 3, 5, int(rng.integers(6, 10)))]


E10_1 = Exercise(
    id="10.1", kind="code", skill="a causal mask",
    prompt=("Write causal_mask(n): return an (n, n) boolean tensor, True where query i may attend to key j "
            "(keys 0..i: the past and itself)."),
    answer=Code("def causal_mask(n):", "an (n, n) boolean tensor", attnlib.causal_mask, _causal_cases),
    mistakes=[
        Mistake(Misconception("mask-orientation", "the mask's orientation flipped (the future allowed)",
                              "Row i is query i: keep j ≤ i, the lower triangle (torch.tril).", MASK),
                impl=lambda n: torch.ones(n, n, dtype=torch.bool).triu()),
        Mistake(Misconception("diagonal-excluded", "the diagonal excluded",
                              "A token may attend to itself: keep the diagonal (tril with diagonal=0).", MASK),
                impl=lambda n: torch.ones(n, n, dtype=torch.bool).tril(-1)),
        Mistake(Misconception("mask-sign", "the mask's sign inverted (True = masked)",
                              "In attnlib True means “may attend”.", MASK),
                impl=lambda n: ~attnlib.causal_mask(n)),
    ],
    hint="torch.ones(n, n, dtype=torch.bool).tril().",
    section=MASK,
)


def _pad_cases(rng: np.random.Generator) -> list[tuple]:
    return [([2, 3], 3), ([1, 4, 0], 4), ([int(x) for x in rng.integers(1, 6, size=3)], 6)]


def _pad_no_query_axis(lengths: list[int], n: int) -> torch.Tensor:
    return attnlib.padding_mask(lengths, n)[:, 0, :]  # (batch, n)


def _pad_off_by_one(lengths: list[int], n: int) -> torch.Tensor:
    return torch.arange(n)[None, None, :] <= torch.tensor(lengths)[:, None, None]  # (batch, 1, n)


E10_2 = Exercise(
    id="10.2", kind="code", skill="a padding mask",
    prompt=("Write padding_mask(lengths, n): lengths is a list of ints (real tokens per sequence), n the padded "
            "length. Return a (batch, 1, n) boolean tensor, True for real tokens (keys 0..length−1)."),
    answer=Code("def padding_mask(lengths, n):", "a (batch, 1, n) boolean tensor", attnlib.padding_mask, _pad_cases),
    mistakes=[
        Mistake(Misconception("no-query-axis", "the query axis missing",
                              "Return (batch, 1, n) so the mask broadcasts over the queries of (batch, n, n) scores.",
                              BATCH), impl=_pad_no_query_axis),
        Mistake(Misconception("off-by-one", "one padding key let in (≤ instead of <)",
                              "A sequence of length L has real keys 0..L−1: position < L.", BATCH),
                impl=_pad_off_by_one),
        Mistake(Misconception("mask-sign", "the mask's sign inverted (True = masked)",
                              "True means a real token that may be attended to.", MASK),
                impl=lambda lengths, n: ~attnlib.padding_mask(lengths, n)),
    ],
    hint="torch.arange(n) < torch.tensor(lengths)[:, None], then add the middle axis.",
    section=BATCH,
)

E10_3 = Exercise(
    id="10.3", kind="predict", skill="a fully masked row with a large negative fill",
    prompt=("Predict: all 4 keys of a row are masked with masked_fill(mask == 0, -1e9), then plain softmax. "
            "What weights does the row get?"),
    answer=Choice([("a", "0.25 each"), ("b", "0 each"), ("c", "NaN"), ("d", "1 each")], "a"),
    mistakes=[
        Mistake(Misconception("masked-means-zero", "masked always means weight 0",
                              "With every score equal to −1e9, softmax sees four equal scores: uniform.", MASK),
                option="b"),
        Mistake(Misconception("fill-is-inf", "−1e9 taken for −∞",
                              "NaN comes from −∞ (0/0); −1e9 is a finite number.", MASK), option="c"),
    ],
    hint="What does softmax give when every score of a row is the same number?",
    section=MASK, why="Equal scores give equal weights: 1/4 each, spread over keys it was told to ignore.",
)

_X = torch.zeros(2, 5, 16)  # (B, S, D): only the shape is used
_W = torch.zeros(16, 8)  # (D, d_k)

E10_4 = Exercise(
    id="10.4", kind="compute", skill="shapes in a batch",
    prompt=("x is [B, S, D] = [2, 5, 16] and W_q, W_k are (16, 8). What is the shape of the scores "
            "q @ k.transpose(-2, -1)? Enter 3 numbers."),
    answer=Numeric(lambda: ((_X @ _W) @ (_X @ _W).transpose(-2, -1)).shape, tol=0, expect="a shape (3 numbers)"),
    mistakes=[
        Mistake(Misconception("qt-k", "Qᵀ K instead of Q Kᵀ",
                              "Scores pair positions with positions: [B, S, S].", BATCH),
                value=lambda: ((_X @ _W).transpose(-2, -1) @ (_X @ _W)).shape),
        Mistake(Misconception("batch-dropped", "the batch axis dropped",
                              "Every sequence of the batch has its own score matrix.", BATCH), value=lambda: (5, 5)),
    ],
    hint="[B, S, d_k] @ [B, d_k, S].",
    section=BATCH, why="One S × S matrix per sequence of the batch.",
)

EXERCISES = [E10_1, E10_2, E10_3, E10_4]
