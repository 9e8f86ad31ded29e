"""Exercises of chapter 08, "Worked example: 'it' attends": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/08_it_attends.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import math

import numpy as np

import attnlib
from attnlib.companions import examples

from ._format import fmt
from ._registry import ChapterCode, Numbers

code = ChapterCode(__name__)


Q = examples.IT_QUERY.double().numpy()  # (2,)
K = examples.IT_KEYS.double().numpy()  # (3, 2)
V = examples.IT_VALUES.double().numpy()  # (3, 2)
WORDS = examples.IT_WORDS
D = Q.shape[0]
RAW = K @ Q  # (3,)
SCALED = RAW / math.sqrt(D)
W = attnlib.softmax(SCALED)  # (3,)

_keys = ", ".join(f"{w} = {fmt(k, 1)}" for w, k in zip(WORDS, K))
_values = ", ".join(f"{w} = {fmt(v, 1)}" for w, v in zip(WORDS, V))

code.add(  # 08.1
    ex1_answer=lambda: W,
    ex1_unscaled_softmax=lambda: attnlib.softmax(RAW),
    ex1_scores_as_weights=lambda: SCALED,
)


code.add(  # 08.2
    ex2_answer=lambda: W @ V,  # (2,)
    ex2_rounded_early=lambda: np.round(W, 2) @ V,  # (2,)
    ex2_weights_times_keys=lambda: W @ K,  # (2,)
)


NORM = float(np.linalg.norm(Q))

code.add(  # 08.3
    ex3_answer=lambda: RAW[1] / NORM,
    ex3_score=lambda: RAW[1],
    ex3_squared_length=lambda: RAW[1] / NORM**2,
    ex3_cosine=lambda: RAW[1] / (NORM * np.linalg.norm(K[1])),
)


code.add(  # 08.4
    ex4_correct=lambda: "a" if attnlib.softmax(2 * SCALED)[0] > W[0] else "c",
)


code.values(
    q=Numbers(Q),
    keys=_keys,
    d=D,
    values=_values,
    key_street=Numbers(K[1]),
    raw_street=RAW[1],
    raw_0=RAW[0],
    raw_because=RAW[2],
    percent_animal=100 * W[0],
    percent_because=100 * W[2],
)
