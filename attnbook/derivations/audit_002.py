"""Checks of the rows in book/_data/errata/audit_002.yml, one function per row id."""

from __future__ import annotations

import numpy as np
import torch

import attnlib
from attnlib.companions import examples, heads

from ..evidence import Exact, Route
from ._registry import Value, derives


@derives("doc002-eight-heads")
def doc002_eight_heads() -> Value:
    """number of heads in the formula and the example (the book's untrained model uses ."""
    return heads.untrained_head_weights(examples.QUICK_FOX_TOKENS).shape[0]


@derives("doc002-embeddings")
def doc002_embeddings() -> Value:
    """the embeddings of I, am, happy, used as Q, K and V."""
    return examples.HAPPY_EMBEDDINGS


@derives("doc002-k-transposed")
def doc002_k_transposed() -> Value:
    """Kᵀ as written next to Q."""
    return examples.HAPPY_EMBEDDINGS.T


@derives("doc002-dot-terms")
def doc002_dot_terms() -> Value:
    """the three products and the sum of each score of 'I' = [0.1, 0.2, 0.3] with I, am."""
    e = examples.HAPPY_EMBEDDINGS.double()
    return [[*(e[0] * e[j]).tolist(), float(e[0] @ e[j])] for j in range(3)]


@derives("doc002-dk-3")
def doc002_dk_3() -> Value:
    """d_k, the width of the query and key vectors."""
    return examples.HAPPY_EMBEDDINGS.shape[-1]


@derives("doc002-weights-are-probabilities")
def doc002_weights_are_probabilities() -> Value:
    """claim: softmax turns each row of scores into weights in [0, 1] that sum to 1."""
    e = examples.HAPPY_EMBEDDINGS.double()
    w = attnlib.scaled_dot_product_attention(e, e, e)[1]
    return bool(((w >= 0) & (w <= 1)).all() and torch.allclose(w.sum(-1), torch.ones(3, dtype=w.dtype)))


def _terms(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    return weights[:, None] * values.reshape(3, 3)  # (3, 3): weight j times value vector j


def _exact_terms(row: int) -> torch.Tensor:
    e = examples.HAPPY_EMBEDDINGS.double()
    return attnlib.scaled_dot_product_attention(e, e, e)[1][row][:, None] * e  # (3, 3)


@derives("doc002-context-terms-i")
def doc002_context_terms_i() -> Value:
    """The three terms weight × value of 'I'."""
    return Exact(
        exact=_exact_terms(0),
        route=Route(
            ("happy-weights-i-correct", "doc002-embeddings"), _terms, "the weights rounded to two decimals"
        ),
    )


@derives("doc002-context-terms-am")
def doc002_context_terms_am() -> Value:
    """The three terms weight × value of 'am'."""
    return Exact(
        exact=_exact_terms(1),
        route=Route(("happy-weights-am", "doc002-embeddings"), _terms, "the printed weights of 'am'"),
    )


@derives("doc002-context-terms-happy")
def doc002_context_terms_happy() -> Value:
    """The three terms weight × value of 'happy'."""
    return Exact(
        exact=_exact_terms(2),
        route=Route(("happy-weights-happy", "doc002-embeddings"), _terms, "the printed weights of 'happy'"),
    )
