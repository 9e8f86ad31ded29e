"""Words as numbers: one-hot vectors, bag of words, TF-IDF, and helpers for dense embeddings.

Everything here works on NumPy arrays (torch tensors and lists are accepted and converted) and
returns NumPy arrays or plain floats. Tokens are whitespace-separated and case-sensitive, so "I"
and "i" are different words, as in document 001's vocabulary.

Chapters: "Words to numbers" (one-hot, bag of words, TF-IDF, nearest neighbours, analogies, the
usage-weighted average) and "Context changes meaning"; ``softmax_cycle_ratio`` serves the check of
document 001's hand-picked weights.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .checks import as_finite_array


def tokenize(text: str) -> list[str]:
    """Split ``text`` on whitespace; case and punctuation are kept. Used in: "Words to numbers"."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return text.split()


def _tokens(doc: str | Sequence[str], name: str) -> list[str]:
    if isinstance(doc, str):
        return tokenize(doc)
    if isinstance(doc, Sequence) and all(isinstance(t, str) for t in doc):
        return list(doc)
    raise TypeError(f"{name} must be a str or a sequence of str tokens, got {type(doc).__name__}")


def _docs(docs: Sequence[str | Sequence[str]]) -> list[list[str]]:
    if isinstance(docs, str) or not isinstance(docs, Sequence) or len(docs) == 0:
        raise ValueError(f"docs must be a non-empty sequence of documents, got {docs!r:.60}")
    out = [_tokens(d, f"docs[{i}]") for i, d in enumerate(docs)]
    for i, toks in enumerate(out):
        if not toks:
            raise ValueError(f"docs[{i}] has no tokens")
    return out


def _index(vocab: Sequence[str]) -> dict[str, int]:
    if isinstance(vocab, str) or not isinstance(vocab, Sequence) or len(vocab) == 0:
        raise ValueError(f"vocab must be a non-empty sequence of words, got {vocab!r:.60}")
    index = {w: i for i, w in enumerate(vocab)}
    if len(index) != len(vocab):
        dupes = sorted({w for w in vocab if list(vocab).count(w) > 1})
        raise ValueError(f"vocab has repeated words: {dupes}")
    return index


def _lookup(index: dict[str, int], word: str) -> int:
    try:
        return index[word]
    except KeyError:
        raise ValueError(f"word {word!r} is not in the vocabulary ({len(index)} words)") from None


def build_vocab(docs: Sequence[str | Sequence[str]]) -> list[str]:
    """Every distinct token of ``docs``, in order of first appearance. Used in: "Words to numbers"."""
    seen: dict[str, None] = {}
    for toks in _docs(docs):
        for t in toks:
            seen.setdefault(t, None)
    return list(seen)


def one_hot(tokens: str | Sequence[str], vocab: Sequence[str]) -> np.ndarray:
    """One row per token, a 1 in the column of that word and 0 elsewhere: shape ``(n_tokens, |vocab|)``.

    Used in: "Words to numbers".
    """
    index = _index(vocab)
    toks = _tokens(tokens, "tokens")
    out = np.zeros((len(toks), len(vocab)), dtype=np.int64)  # (n_tokens, V)
    for row, t in enumerate(toks):
        out[row, _lookup(index, t)] = 1
    return out


def bag_of_words(docs: Sequence[str | Sequence[str]], vocab: Sequence[str]) -> np.ndarray:
    """Word counts per document, shape ``(n_docs, |vocab|)``; word order is discarded.

    Equal to the column sums of each document's one-hot matrix. Used in: "Words to numbers".
    """
    index = _index(vocab)
    toks = _docs(docs)
    out = np.zeros((len(toks), len(vocab)), dtype=np.int64)  # (n_docs, V)
    for row, doc in enumerate(toks):
        for t in doc:
            out[row, _lookup(index, t)] += 1
    return out


def inverse_document_frequency(docs: Sequence[str | Sequence[str]], vocab: Sequence[str]) -> np.ndarray:
    """``idf(w) = ln(N / df(w))`` for each vocabulary word, shape ``(|vocab|,)``.

    ``N`` is the number of documents and ``df(w)`` how many of them contain ``w``. A word found
    in every document gets 0; the rarer a word, the larger its idf. A vocabulary word that occurs
    in no document raises ``ValueError`` (its idf would be infinite). Used in: "Words to numbers".
    """
    counts = bag_of_words(docs, vocab)  # (n_docs, V)
    df = (counts > 0).sum(axis=0)  # (V,)
    missing = [w for w, d in zip(vocab, df) if d == 0]
    if missing:
        raise ValueError(f"words {missing} occur in no document; their idf would be infinite")
    return np.log(counts.shape[0] / df)


def tf_idf(docs: Sequence[str | Sequence[str]], vocab: Sequence[str]) -> np.ndarray:
    """TF-IDF weights, shape ``(n_docs, |vocab|)``: ``tf(w, d) · idf(w)``.

    ``tf(w, d)`` is the count of ``w`` in ``d`` divided by the length of ``d``; ``idf`` is
    :func:`inverse_document_frequency`. Used in: "Words to numbers".
    """
    counts = bag_of_words(docs, vocab)  # (n_docs, V)
    tf = counts / counts.sum(axis=1, keepdims=True)  # (n_docs, V)
    return tf * inverse_document_frequency(docs, vocab)  # (n_docs, V)


def cosine_similarity(a: Any, b: Any) -> float:
    """Cosine of the angle between two vectors of the same length; zero vectors raise ``ValueError``.

    Used in: "Words to numbers".
    """
    u, v = as_finite_array(a, "a"), as_finite_array(b, "b")
    if u.ndim != 1 or u.shape != v.shape:
        raise ValueError(f"a and b must be 1-d vectors of the same length, got shapes {u.shape} and {v.shape}")
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if nu == 0.0 or nv == 0.0:
        raise ValueError(f"cosine similarity is undefined for a zero vector (norms {nu} and {nv})")
    return float(u @ v) / (nu * nv)


def _embedding_table(embeddings: Mapping[str, Any]) -> tuple[list[str], np.ndarray]:
    if not isinstance(embeddings, Mapping) or not embeddings:
        raise ValueError("embeddings must be a non-empty mapping of word -> vector")
    words = list(embeddings)
    rows = [as_finite_array(embeddings[w], f"embeddings[{w!r}]") for w in words]
    shapes = {r.shape for r in rows}
    if len(shapes) != 1 or next(iter(shapes)) == () or len(next(iter(shapes))) != 1:
        raise ValueError(f"every embedding must be a 1-d vector of one common length, got shapes {sorted(shapes)}")
    return words, np.stack(rows)  # (n_words, d)


def nearest(
    target: Any, embeddings: Mapping[str, Any], *, k: int = 1, exclude: Sequence[str] = ()
) -> list[tuple[str, float]]:
    """The ``k`` words whose vectors have the highest cosine similarity to ``target``.

    Returns ``[(word, cosine), ...]``, best first; words in ``exclude`` are skipped.
    Used in: "Words to numbers".
    """
    words, table = _embedding_table(embeddings)  # table: (n_words, d)
    t = as_finite_array(target, "target")
    if t.shape != table.shape[1:]:
        raise ValueError(f"target has shape {t.shape}, the embeddings have shape ({table.shape[1]},)")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive int, got {k!r}")
    scored = [(w, cosine_similarity(t, row)) for w, row in zip(words, table) if w not in set(exclude)]
    scored.sort(key=lambda pair: -pair[1])
    return scored[:k]


def analogy_vector(embeddings: Mapping[str, Any], *, plus: Sequence[str], minus: Sequence[str]) -> np.ndarray:
    """Sum of the ``plus`` vectors minus the ``minus`` vectors, e.g. king − man + woman.

    Used in: "Words to numbers".
    """
    words, table = _embedding_table(embeddings)  # (n_words, d)
    index = {w: i for i, w in enumerate(words)}
    out = np.zeros(table.shape[1])
    for sign, group in ((1.0, plus), (-1.0, minus)):
        for w in _tokens(group, "plus/minus"):
            out += sign * table[_lookup(index, w)]
    return out


def usage_weighted_average(vectors: Any, counts: Any) -> np.ndarray:
    """``Σ countᵢ · vectorᵢ / Σ countᵢ``: one static vector for a word used in several senses.

    ``vectors`` has shape ``(n_senses, d)`` and ``counts`` shape ``(n_senses,)`` with non-negative
    entries and a positive sum. Returns shape ``(d,)``. Used in: "Words to numbers" (the 900/100
    "apple" example).
    """
    v = as_finite_array(vectors, "vectors")
    c = as_finite_array(counts, "counts")
    if v.ndim != 2 or c.shape != (v.shape[0],):
        raise ValueError(f"vectors must be (n_senses, d) and counts (n_senses,), got {v.shape} and {c.shape}")
    if (c < 0).any() or c.sum() <= 0:
        raise ValueError(f"counts must be >= 0 with a positive sum, got {c.tolist()}")
    return (c @ v) / c.sum()  # (d,)


def softmax_cycle_ratio(weights: Any, cycle: Sequence[int]) -> float:
    """``∏ w[i, j] / w[j, i]`` around a closed cycle of positions ``i → j → … → i``.

    If the weights are a row-wise softmax of a *symmetric* score matrix (for example ``E Eᵀ``:
    self-attention with no projections), ``w[i, j] / w[j, i] = Z_j / Z_i`` and the product around
    any cycle is exactly 1. A ratio far from 1 proves the weights did not come from such scores.
    Used in: the check of document 001's hand-picked weights.
    """
    w = as_finite_array(weights, "weights")
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"weights must be a square (n, n) matrix, got shape {w.shape}")
    idx = list(cycle)
    n = w.shape[0]
    if len(idx) < 3 or len(set(idx)) != len(idx) or any(not 0 <= i < n for i in idx):
        raise ValueError(f"cycle must list >= 3 distinct positions in 0..{n - 1}, got {idx}")
    ratio = 1.0
    for i, j in zip(idx, idx[1:] + idx[:1]):
        if w[i, j] <= 0 or w[j, i] <= 0:
            raise ValueError(f"weights[{i}, {j}] and weights[{j}, {i}] must be > 0, got {w[i, j]} and {w[j, i]}")
        ratio *= w[i, j] / w[j, i]
    return float(ratio) if math.isfinite(ratio) else float("inf")
