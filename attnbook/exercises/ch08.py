"""Exercises of chapter 08, "Worked example: 'it' attends": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/ch08.yml``; it names the functions registered here on
``code`` and shows the values of :meth:`~attnbook.exercises._registry.ChapterCode.values` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import attnlib
from attnlib import examples

from ._core import fmt
from ._registry import ChapterCode, Numbers

code = ChapterCode("08")


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


@code.function
def ex1_answer() -> Any:
    return W


@code.function
def ex1_unscaled_softmax() -> Any:
    return attnlib.softmax(RAW)


@code.function
def ex1_scores_as_weights() -> Any:
    return SCALED


@code.function
def ex2_answer() -> Any:
    return W @ V


@code.function
def ex2_rounded_early() -> Any:
    return np.round(W, 2) @ V


@code.function
def ex2_weights_times_keys() -> Any:
    return W @ K


SLIP_DIV = 1.41  # the slip: a rounded √2
SLIP = RAW / SLIP_DIV
EXP_SLIP = np.exp(SLIP)


@code.function
def ex3_answer() -> Any:
    return SCALED[0]


@code.function
def ex3_copied_the_slip() -> Any:
    return SLIP[0]


@code.function
def ex3_missing_scale() -> Any:
    return RAW[0]


@code.function
def ex4_correct() -> Any:
    return 'a' if attnlib.softmax(2 * SCALED)[0] > W[0] else 'c'


code.values(
    q=Numbers(Q),
    keys=_keys,
    d=D,
    values=_values,
    raw=Numbers(RAW),
    scaled_slip=Numbers(SLIP),
    exp_slip=Numbers(EXP_SLIP),
    weights_slip=Numbers(EXP_SLIP / EXP_SLIP.sum()),
    slip_div=SLIP_DIV,
    raw_0=RAW[0],
    sqrt_d=math.sqrt(D),
)
