"""Checks of the rows in book/_data/errata/audit_001.yml, one function per row id."""

from __future__ import annotations

import math

import numpy as np
import torch

import attnlib
from attnlib.companions import examples, scaling, text

from .. import printed
from ..evidence import MadeUp
from ._registry import Value, derives


@derives("doc001-one-hot")
def doc001_one_hot() -> Value:
    """vocabulary size and the one-hot vectors of apple, banana, cat, dog."""
    return [
        len(examples.OHE_VOCAB),
        *text.one_hot(list(examples.OHE_VOCAB), list(examples.OHE_VOCAB)).ravel().tolist(),
    ]


@derives("doc001-one-hot-equidistant")
def doc001_one_hot_equidistant() -> Value:
    """claim: all one-hot words are equally distant; cat is no closer to dog than to ba."""
    o = text.one_hot(list(examples.OHE_VOCAB), list(examples.OHE_VOCAB))
    return bool(
        len({round(float(np.linalg.norm(o[i] - o[j])), 9) for i in range(4) for j in range(4) if i != j}) == 1
    )


@derives("doc001-tfidf-rare-high")
def doc001_tfidf_rare_high() -> Value:
    """claim: a word found in almost every document ('banana') gets a low score, a rare."""
    c, v = (examples.TFIDF_CORPUS, text.build_vocab(examples.TFIDF_CORPUS))
    w = text.tf_idf(c, v)
    return bool(w[2, v.index("banana")] < w[2, v.index("tasty")])


@derives("doc001-king-queen")
def doc001_king_queen() -> Value:
    """Claim: king − man + woman ≈ queen (shown only on the book's toy embeddings)."""
    nearest = text.nearest(
        text.analogy_vector(examples.TOY_EMBEDDINGS, plus=["king", "woman"], minus=["man"]),
        examples.TOY_EMBEDDINGS,
        k=1,
    )[0][0]
    return MadeUp(confirmed=nearest == "queen", shown={"nearest word, book's toy embeddings": nearest})


@derives("doc001-apple-counts")
def doc001_apple_counts() -> Value:
    """sentences in the data set, fruit uses and company uses of 'apple'."""
    return [
        sum(examples.APPLE_USES.values()),
        examples.APPLE_USES["apple (fruit)"],
        examples.APPLE_USES["apple (company)"],
    ]


@derives("doc001-apple-axes")
def doc001_apple_axes() -> Value:
    """embedding width and the position of the technology and taste axes."""
    return [
        len(examples.APPLE_AXES),
        examples.APPLE_AXES.index("technology") + 1,
        examples.APPLE_AXES.index("taste") + 1,
    ]


@derives("doc001-apple-leans-taste")
def doc001_apple_leans_taste() -> Value:
    """Claim: trained on mostly fruit uses, the static 'apple' leans toward the taste axis (toy senses)."""
    apple = text.usage_weighted_average(
        torch.stack(list(examples.APPLE_SENSES.values())), list(examples.APPLE_USES.values())
    )
    return MadeUp(
        confirmed=bool(apple[1] > 4 * apple[0]),
        shown={"averaged 'apple', toy senses (technology, taste)": apple.tolist()},
    )


@derives("doc001-hand-weights-printed")
def doc001_hand_weights_printed() -> Value:
    """the six hand-picked weight rows, as printed (the book's verdict on them is the i."""
    return torch.stack(list(printed.DOC001_HAND_WEIGHTS.values()))


@derives("doc001-softmax-sums-to-one")
def doc001_softmax_sums_to_one() -> Value:
    """claim: after the softmax all weights are positive and add up to 1."""
    e = torch.stack([examples.BANK_EMBEDDINGS[w] for w in examples.BANK_SENTENCES[0]])
    w = attnlib.softmax(e @ e.T)
    return bool((w > 0).all() and torch.allclose(w.sum(-1), torch.ones(3)))


@derives("doc001-matrix-shapes")
def doc001_matrix_shapes() -> Value:
    """shapes of the embedding matrix and of the score matrix for 'money bank grows'."""
    e = torch.stack([examples.BANK_EMBEDDINGS[w] for w in examples.BANK_SENTENCES[0]])
    return [e.shape[0], *(e @ e.T).shape]


@derives("doc001-order-lost")
def doc001_order_lost() -> Value:
    """claim: without positions the sentence is a bag of words: reordering the words on."""
    e, p = (
        torch.stack([examples.BANK_EMBEDDINGS[w] for w in examples.BANK_SENTENCES[0]]),
        torch.tensor([2, 0, 1]),
    )
    return bool(
        torch.allclose(
            attnlib.scaled_dot_product_attention(e[p], e[p], e[p], scale=1.0)[0],
            attnlib.scaled_dot_product_attention(e, e, e, scale=1.0)[0][p],
            atol=1e-06,
        )
    )


@derives("doc001-no-parameters")
def doc001_no_parameters() -> Value:
    """claim: the parameter-free attention has no weights and no biases, so nothing to ."""
    return sum(p.numel() for p in attnlib.ScaledDotProductAttention(scale=1.0).parameters()) == 0


@derives("doc001-qkv-shapes")
def doc001_qkv_shapes() -> Value:
    """shapes for three words (the seeded bank/river/loan projections): X 3 × d, Q and ."""
    e, g = (examples.BRL_EMBEDDINGS, torch.Generator().manual_seed(examples.BRL_SEED))
    q, k, v = [e @ (torch.randn(4, 4, generator=g) * 0.5) for _ in range(3)]
    return [
        e.shape[0],
        q.shape[0],
        k.shape[0],
        v.shape[0],
        *(q @ k.T).shape,
        *attnlib.scaled_dot_product_attention(q, k, v)[1].shape,
    ]


@derives("doc001-dk-dv")
def doc001_dk_dv() -> Value:
    """claim: Q and K must share d_k; V may have another width d_v."""
    x, g = (examples.JOURNEY_INPUTS, torch.Generator().manual_seed(0))
    q, k, v = (
        x @ torch.rand(3, 2, generator=g),
        x @ torch.rand(3, 2, generator=g),
        x @ torch.rand(3, 4, generator=g),
    )
    return attnlib.scaled_dot_product_attention(q, k, v)[0].shape[-1] == 4 and bool(
        q.shape[-1] == k.shape[-1]
    )


@derives("doc001-dot-spread")
def doc001_dot_spread() -> Value:
    """claim: dot products of random vectors spread more as the dimension grows (std of."""
    s = [scaling.random_dot_products(d, 1000, seed=0).std() for d in (3, 100, 1000)]
    return bool(s[0] < s[1] < s[2])


@derives("doc001-softmax-sums-to-one-s8")
def doc001_softmax_sums_to_one_s8() -> Value:
    """claim: softmax turns raw scores into a probability distribution whose values sum."""
    w = attnlib.softmax(np.array([2.0, 1.0, 0.1, -1.0]))
    return bool((w > 0).all() and abs(w.sum() - 1) < 1e-12)


@derives("doc001-peaky")
def doc001_peaky() -> Value:
    """claim: with high-variance scores softmax gets very peaky, one token taking almos."""
    return scaling.saturation(scaling.random_scores(1024, 8, trials=500, seed=0))["max_weight"] > 0.95


@derives("doc001-var-c-squared")
def doc001_var_c_squared() -> Value:
    """claim: scaling a random variable by c scales its variance by c² (1000 seeded dot."""
    x = scaling.random_dot_products(1000, 1000, seed=0)
    return math.isclose(float(np.var(x / math.sqrt(1000))), float(np.var(x)) / 1000, rel_tol=1e-09)


@derives("doc001-var-table")
def doc001_var_table() -> Value:
    """the variance at d = 1, 2, 3 is about d times Var(X) (here Var(X) = 1; 1000 seede."""
    return bool(
        np.all(
            np.abs(scaling.variance_by_dimension([1, 2, 3], 1000, seed=0)[:, 1] / np.array([1, 2, 3]) - 1)
            < 0.1
        )
    )
