"""Exercises of chapter 03, "Queries, keys and values"."""

from __future__ import annotations

import numpy as np
import torch

from attnlib import examples

from ._core import Choice, Code, Exercise, Misconception, Mistake, Numeric, Section
from ._helpers import randn

CH = "03_qkv"
PROJ = Section(CH, "Learned projections")
DIMS = Section(CH, "Which dimensions must match: $d_k$ and $d_v$")
JOURNEY = Section(CH, "The journey example, step by step")

N_TOK, D_IN = examples.JOURNEY_INPUTS.shape
D_K = 2
_Q = examples.JOURNEY_INPUTS @ torch.zeros(D_IN, D_K)  # (n, d_k): only its shape is used

E03_1 = Exercise(
    id="03.1", kind="compute", skill="the shape of the score matrix",
    prompt=(f"The journey sentence has {N_TOK} tokens of width {D_IN}; W_q and W_k are ({D_IN}, {D_K}). "
            "What is the shape of the score matrix Q Kᵀ? Enter two numbers, e.g. 4, 5."),
    answer=Numeric(lambda: (_Q @ _Q.T).shape, tol=0, expect="a shape (2 numbers)"),  # (n, n)
    mistakes=[
        Mistake(Misconception("qt-k", "Qᵀ K instead of Q Kᵀ",
                              "Scores pair tokens with tokens: (n, d_k) @ (d_k, n) gives (n, n).", JOURNEY),
                value=lambda: (_Q.T @ _Q).shape),
        Mistake(Misconception("shape-of-q", "the shape of Q, not of the scores",
                              "Q is (n, d_k); the scores have one entry per pair of tokens.", JOURNEY),
                value=lambda: _Q.shape),
    ],
    hint="(n, d_k) @ (d_k, n): the inner sizes cancel.",
    section=JOURNEY, why="One score for every (query token, key token) pair.",
)


def _scores_reference(x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor) -> torch.Tensor:
    q, k = x @ w_q, x @ w_k  # (n, d_k) each
    return q @ k.T  # (n, n)


def _scores_transposed(x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor) -> torch.Tensor:
    return (x @ w_k) @ (x @ w_q).T  # (n, n): keys as rows


def _scores_one_projection(x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor) -> torch.Tensor:
    q = x @ w_q  # (n, d_k)
    return q @ q.T  # (n, n)


def _scores_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, n, d), randn(rng, d, k), randn(rng, d, k)) for n, d, k in ((6, 3, 2), (4, 5, 3), (3, 2, 4))]


E03_2 = Exercise(
    id="03.2", kind="code", skill="scores from learned projections",
    prompt=("Write attention_scores(x, w_q, w_k): x is (n, d_in), w_q and w_k are (d_in, d_k). Project x to "
            "queries and keys and return the (n, n) scores, row i = query i against every key."),
    answer=Code("def attention_scores(x, w_q, w_k):", "an (n, n) tensor", _scores_reference, _scores_cases),
    mistakes=[
        Mistake(Misconception("scores-transposed", "keys as rows (K Qᵀ)",
                              "Row i belongs to query i: compute Q @ K.T, not K @ Q.T.", JOURNEY),
                impl=_scores_transposed),
        Mistake(Misconception("one-projection", "W_q used for the keys too",
                              "Keys come from their own projection W_k; that is what separate projections buy.",
                              PROJ), impl=_scores_one_projection),
    ],
    hint="q = x @ w_q, k = x @ w_k, scores = q @ k.T.",
    section=JOURNEY,
)

E03_3 = Exercise(
    id="03.3", kind="predict", skill="which dimensions must match",
    prompt="Which sizes must be equal for attention to run?",
    answer=Choice([("a", "The query and key width (d_q = d_k); the value width d_v is free."),
                   ("b", "The key and value widths (d_k = d_v)."),
                   ("c", "The input width and the key width (d_in = d_k)."),
                   ("d", "All of d_in, d_k and d_v.")], "a"),
    mistakes=[
        Mistake(Misconception("dk-equals-dv", "values must match keys",
                              "Values are only mixed, never multiplied with keys: d_v can be anything.", DIMS),
                option="b"),
        Mistake(Misconception("din-equals-dk", "projections keep the width",
                              "W_q maps d_in to any d_k: the projection may change the width.", DIMS), option="c"),
    ],
    hint="Which vectors enter a dot product with each other?",
    section=DIMS, why="q·k needs equal widths; the weighted sum of values does not care.",
)

EXERCISES = [E03_1, E03_2, E03_3]
