"""Checks of the rows in book/_data/errata/07_i_am_happy.yml (document 002, "I am happy"), one
function per row id. Routes recompute a step from the numbers the document printed for its inputs."""

from __future__ import annotations

import math

import numpy as np
import torch

import attnlib
from attnlib.companions import examples

from ..evidence import Exact, Route
from ._registry import Value, derives


def _embeddings() -> torch.Tensor:
    return examples.HAPPY_EMBEDDINGS.double()  # (3, 3): Q = K = V


def _scores() -> torch.Tensor:
    e = _embeddings()
    return e @ e.T  # (3, 3)


def _weights() -> torch.Tensor:
    e = _embeddings()
    return attnlib.scaled_dot_product_attention(e, e, e)[1]  # (3, 3)


def _context() -> torch.Tensor:
    e = _embeddings()
    return attnlib.scaled_dot_product_attention(e, e, e)[0]  # (3, 3)


def _softmax(x: np.ndarray) -> np.ndarray:
    return np.exp(x) / np.exp(x).sum()


@derives("happy-divisor-1-73")
def happy_divisor_1_73() -> Value:
    """Scaled scores of 'am' on am and happy, written as 0.77/1.73 and 1.22/1.73."""
    return Exact(
        exact=_scores()[1, 1:] / math.sqrt(3),
        route=Route(
            ("happy-scores-correct", "happy-sqrt3-correct"),
            lambda s, r: s[[4, 5]] / r[0],
            "the divisor written as 1.73",
        ),
    )


@derives("happy-row1-exp")
def happy_row1_exp() -> Value:
    """exp of the first row of scaled scores."""
    return Exact(
        exact=torch.exp(_scores() / math.sqrt(3))[0],
        route=Route(
            ("happy-scaled-correct",),
            lambda s: np.exp(s[:3]),
            "the logits rounded to two decimals (0.08, 0.18, 0.29)",
        ),
    )


@derives("happy-row1-exp-sum")
def happy_row1_exp_sum() -> Value:
    """Sum of the exponentials of the first row."""
    return Exact(
        exact=torch.exp(_scores() / math.sqrt(3))[0].sum(),
        route=Route(("happy-row1-exp",), lambda e: e.sum(), "the sum of the printed exponentials"),
    )


def _weights_of(token: int, word: str) -> Exact:
    """The attention weights of one token, and the document's route: softmax of its printed logits
    (the row ``token`` of the nine printed scaled scores)."""
    row = slice(3 * token, 3 * token + 3)
    return Exact(
        exact=_weights()[token],
        route=Route(("happy-scaled-correct",), lambda s: _softmax(s[row]), f"softmax of the printed logits of '{word}'"),
    )


@derives("happy-weights-am")
def happy_weights_am() -> Value:
    """Attention weights of 'am'."""
    return _weights_of(1, "am")


@derives("happy-weights-happy")
def happy_weights_happy() -> Value:
    """Attention weights of 'happy'."""
    return _weights_of(2, "happy")


def _sum_of_terms(terms: np.ndarray) -> np.ndarray:
    return terms.reshape(3, 3).sum(axis=0)  # (3,): the three printed terms added


def _context_of(token: int, *, printed_terms: str) -> Exact:
    """The context vector of one token, and the document's route: the sum of its printed terms."""
    return Exact(
        exact=_context()[token],
        route=Route((printed_terms,), _sum_of_terms, "the sum of the printed terms"),
    )


@derives("happy-context-i")
def happy_context_i() -> Value:
    """Context vector of 'I'."""
    return _context_of(0, printed_terms="doc002-context-terms-i")


@derives("happy-context-am")
def happy_context_am() -> Value:
    """Context vector of 'am'."""
    return _context_of(1, printed_terms="doc002-context-terms-am")


@derives("happy-context-happy")
def happy_context_happy() -> Value:
    """Context vector of 'happy'."""
    return _context_of(2, printed_terms="doc002-context-terms-happy")


@derives("happy-scores-correct")
def happy_scores_correct() -> Value:
    """Q·Kᵀ, all nine entries."""
    return _scores()


@derives("happy-sqrt3-correct")
def happy_sqrt3_correct() -> Value:
    """√d_k for d_k = 3."""
    return math.sqrt(examples.HAPPY_EMBEDDINGS.shape[-1])


@derives("happy-scaled-correct")
def happy_scaled_correct() -> Value:
    """Q·Kᵀ/√3, all nine entries."""
    return _scores() / math.sqrt(3)


@derives("happy-weights-i-correct")
def happy_weights_i_correct() -> Value:
    """Attention weights of 'I'."""
    return _weights()[0]
