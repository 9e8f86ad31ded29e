"""Exercises of chapter 09, "Attention maps"."""

from __future__ import annotations

import math

import numpy as np
import torch

import attnlib
from attnlib import examples

from ._core import Code, Exercise, Misconception, Mistake, Numeric, Section, fmt
from ._helpers import randn

CH = "09_attention_maps"
STEP = Section(CH, "Three tokens, step by step")
HEAT = Section(CH, "The weights as a heatmap")

Q = examples.STEP_Q.double().numpy()  # (3, 4), K = Q
V = examples.STEP_V.double().numpy()  # (3, 4)
D = Q.shape[1]
S = Q @ Q.T  # (3, 3)
W = attnlib.softmax(S / math.sqrt(D))  # (3, 3)

E09_1 = Exercise(
    id="09.1", kind="compute", skill="scaled scores of a row",
    prompt=(f"The three tokens have Q = K with rows {fmt(Q[0], 0)}, {fmt(Q[1], 0)}, {fmt(Q[2], 0)} (d_k = {D}). "
            "Enter the scaled scores of the first token (3 numbers)."),
    answer=Numeric(lambda: S[0] / math.sqrt(D), tol=5e-4, expect="3 numbers"),
    mistakes=[
        Mistake(Misconception("missing-scale", "the 1/√d_k factor forgotten",
                              "Divide the dot products by √d_k = √4 = 2.", STEP), value=lambda: S[0]),
        Mistake(Misconception("divide-by-dk", "divided by d_k instead of √d_k",
                              "The divisor is √4 = 2, not 4.", STEP), value=lambda: S[0] / D),
    ],
    hint="Dot products of the first row with each row, divided by √4.",
    section=STEP, why="The largest is the token with itself: its key equals its query.",
)

E09_2 = Exercise(
    id="09.2", kind="compute", skill="an output row",
    prompt=(f"The values are {fmt(V[0], 1)}, {fmt(V[1], 1)}, {fmt(V[2], 1)}. Enter the output of the third token "
            "(4 numbers, 3 decimals)."),
    answer=Numeric(lambda: W[2] @ V, tol=5e-4, expect="4 numbers"),
    mistakes=[
        Mistake(Misconception("mixed-queries", "queries mixed instead of values",
                              "The weights multiply V, not Q (or K).", STEP), value=lambda: W[2] @ Q),
        Mistake(Misconception("unscaled-softmax", "softmax of the unscaled scores",
                              "Divide the scores by √4 = 2 before the softmax.", STEP),
                value=lambda: attnlib.softmax(S)[2] @ V),
    ],
    hint="Weights of row 3 (scaled scores, softmax), then the weighted sum of the value rows.",
    section=STEP, why="The second token's value dominates: row 3 gives it the largest weight.",
)


def _w_reference(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(q, k, k)[1]  # (B, n_q, n_k)


def _w_columns(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return attnlib.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-2)  # (B, n_q, n_k)


def _w_unscaled(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return attnlib.scaled_dot_product_attention(q, k, k, scale=1.0)[1]  # (B, n_q, n_k)


def _w_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, b, n, d), randn(rng, b, m, d)) for b, n, m, d in ((1, 3, 3, 4), (2, 4, 5, 8), (3, 2, 6, 3))]


E09_3 = Exercise(
    id="09.3", kind="code", skill="batched attention weights",
    prompt=("Write attention_weights(q, k): q is (B, n_q, d), k is (B, n_k, d). Return the (B, n_q, n_k) "
            "weights softmax(q kᵀ / √d), each row summing to 1."),
    answer=Code("def attention_weights(q, k):", "a (B, n_q, n_k) tensor", _w_reference, _w_cases),
    mistakes=[
        Mistake(Misconception("column-softmax", "softmax over the wrong axis",
                              "Each query's row sums to 1: softmax over the keys, dim=-1.", HEAT),
                impl=_w_columns),
        Mistake(Misconception("missing-scale", "the 1/√d_k factor forgotten",
                              "Divide the scores by √d before the softmax.", STEP), impl=_w_unscaled),
    ],
    hint="q @ k.transpose(-2, -1) keeps the batch axis; scale, then softmax(dim=-1).",
    section=STEP,
)

EXERCISES = [E09_1, E09_2, E09_3]
