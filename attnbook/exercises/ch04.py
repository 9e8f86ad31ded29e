"""Exercises of chapter 04, "Dot products and the magnitude problem"."""

from __future__ import annotations

import math

import numpy as np
import torch

from attnlib import examples

from ._core import Choice, Code, Exercise, Misconception, Mistake, Numeric, Section, fmt
from ._helpers import randn

CH = "04_magnitude"
KEYS_SEC = Section(CH, "One query, three keys")
SCALE = Section(CH, "Scaling by $\\sqrt{d_k}$")
WHAT = Section(CH, "What scaling does, and what it does not do")

Q = examples.MAGNITUDE_QUERY.double()
K = {name.split()[0]: k.double() for name, k in examples.MAGNITUDE_KEYS.items()}
D = Q.shape[0]

E04_1 = Exercise(
    id="04.1", kind="compute", skill="a scaled score",
    prompt=(f"q = {fmt(Q, 1)} and K2 = {fmt(K['K2'], 1)} (d_k = {D}). Compute the scaled score q·K2 / √d_k, "
            "3 decimals."),
    answer=Numeric(lambda: float(Q @ K["K2"]) / math.sqrt(D), tol=5e-4, expect="one number"),
    mistakes=[
        Mistake(Misconception("missing-scale", "the 1/√d_k factor forgotten",
                              "Divide the dot product by √d_k.", SCALE), value=lambda: float(Q @ K["K2"])),
        Mistake(Misconception("divide-by-dk", "divided by d_k instead of √d_k",
                              "The factor is 1/√d_k (here 1/√2), not 1/d_k.", SCALE),
                value=lambda: float(Q @ K["K2"]) / D),
    ],
    hint="q·K2 = 3·4.5 + 1·1.5, then divide by √2.",
    section=SCALE, why="√d_k keeps the spread of the scores about 1 whatever d_k is.",
)

E04_2 = Exercise(
    id="04.2", kind="predict", skill="dot products reward length and direction",
    prompt=(f"q = {fmt(Q, 1)}; K1 = {fmt(K['K1'], 1)}, K2 = {fmt(K['K2'], 1)}, K3 = {fmt(K['K3'], 1)}. "
            "Predict the ranking of the raw scores q·K, largest first."),
    answer=Choice([("a", "K2, K3, K1"), ("b", "K1 and K2 tie, then K3"), ("c", "K3, K2, K1"), ("d", "K1, K2, K3")],
                  "a" if (Q @ K["K2"] > Q @ K["K3"] > Q @ K["K1"]) else "?"),
    mistakes=[
        Mistake(Misconception("direction-only", "judged by direction only (cosine)",
                              "A dot product grows with length too: K2 is K1 three times longer.", KEYS_SEC),
                option="b"),
        Mistake(Misconception("perpendicular-wins", "the most different key ranked first",
                              "Aligned vectors give large dot products; K3 points away from q.", KEYS_SEC),
                option="c"),
    ],
    hint="Compute the three dot products: 3·x + 1·y.",
    section=KEYS_SEC, why="K2 is aligned and long; K3 is long but misaligned; K1 is aligned but short.",
)

E04_3 = Exercise(
    id="04.3", kind="predict", skill="scaling never changes the ranking",
    prompt="Predict: after dividing all three scores by √d_k, how does their ranking change?",
    answer=Choice([("a", "It does not change."), ("b", "The long key K2 drops below K3."),
                   ("c", "All three become equal."), ("d", "It reverses.")], "a"),
    mistakes=[
        Mistake(Misconception("scaling-reorders", "scaling reorders the scores",
                              "Dividing every score by the same positive number keeps their order.", WHAT),
                option="b"),
        Mistake(Misconception("scaling-normalises", "scaling normalises away the differences",
                              "The gaps shrink by the same factor; they do not vanish.", WHAT), option="c"),
    ],
    hint="What does dividing by one positive constant do to an order?",
    section=WHAT, why="One positive factor for all: the order is kept, only the gaps shrink.",
)


def _scaled_reference(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return q @ k.T / math.sqrt(q.shape[-1])  # (n_q, n_k)


def _scaled_none(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return q @ k.T  # (n_q, n_k)


def _scaled_by_dk(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return q @ k.T / q.shape[-1]  # (n_q, n_k)


def _scaled_by_n(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return q @ k.T / math.sqrt(k.shape[0])  # (n_q, n_k)


def _scaled_cases(rng: np.random.Generator) -> list[tuple]:
    return [(Q[None, :].clone(), torch.stack(list(K.values()))),
            *((randn(rng, n, d), randn(rng, m, d)) for n, m, d in ((3, 5, 4), (2, 7, 16), (4, 4, 9)))]


E04_4 = Exercise(
    id="04.4", kind="code", skill="scaled scores",
    prompt=("Write scaled_scores(q, k): q is (n_q, d_k), k is (n_k, d_k). Return the (n_q, n_k) scaled "
            "scores q kᵀ / √d_k."),
    answer=Code("def scaled_scores(q, k):", "an (n_q, n_k) tensor", _scaled_reference, _scaled_cases),
    mistakes=[
        Mistake(Misconception("missing-scale", "the 1/√d_k factor forgotten",
                              "Divide by √d_k, the width of q and k.", SCALE), impl=_scaled_none),
        Mistake(Misconception("divide-by-dk", "divided by d_k instead of √d_k",
                              "Use math.sqrt(d_k): the variance of q·k is d_k, its spread √d_k.", SCALE),
                impl=_scaled_by_dk),
        Mistake(Misconception("sqrt-of-length", "√(number of keys) instead of √d_k",
                              "d_k is the width of each vector (q.shape[-1]), not how many keys there are.",
                              SCALE), impl=_scaled_by_n),
    ],
    hint="q @ k.T, then divide by math.sqrt(q.shape[-1]).",
    section=SCALE,
)

EXERCISES = [E04_1, E04_2, E04_3, E04_4]
