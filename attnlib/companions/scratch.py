"""Self-attention built from scratch in NumPy, and trained by hand.

Document 003's pipeline, one piece per function: a word tokenizer, a seeded embedding table,
positional encodings (small random vectors and the standard sinusoids), ``self_attention`` on top of
attnlib's attention, a linear predictor with a mean-squared-error loss, the manual gradient into
``W_V`` and a short training loop; a torch-autograd gradient check of that manual gradient.
The recurrence that chapter 12 sets against this attention layer lives in ``attnlib.companions.recurrence``.

Core module: NumPy (and torch for the autograd check only), no plotting.
Chapters: "From scratch in NumPy, and learning" (11); "Why attention is parallel" (12) reuses its
tokenizer, embedding and ``self_attention``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import torch

from .._validate import require_positive, require_positive_int
from ..attention import scaled_dot_product_attention
from .checks import as_finite_array, make_generator
from .text import build_vocab, tokenize

Seed = int | np.random.Generator


def _matrix(x: object, name: str, shape: tuple[int | None, int | None] = (None, None)) -> np.ndarray:
    """``x`` as a finite float64 2-d array whose shape matches ``shape`` (None = any)."""
    return as_finite_array(x, name, shape=shape, ndarray_only=True)


def _vector(x: object, name: str, size: int | None = None) -> np.ndarray:
    return as_finite_array(x, name, shape=(size,), ndarray_only=True)


# --- input plumbing: tokens, embeddings, positions ---------------------------------------------


class Tokenizer:
    """A lookup table word → integer id, built from a vocabulary in first-seen order.

    Words are the whitespace-separated pieces of a text, taken as they are (case-sensitive, no
    punctuation handling: ``attnlib.companions.text.tokenize``). Encoding a word outside the vocabulary raises
    ``ValueError`` naming it.
    Used in: "From scratch in NumPy, and learning", "Why attention is parallel".
    """

    def __init__(self, words: Iterable[str]) -> None:
        vocab: dict[str, int] = {}
        for w in words:
            if not isinstance(w, str) or not w or w.split() != [w]:
                raise ValueError(f"vocabulary entries must be non-empty words without spaces, got {w!r}")
            vocab.setdefault(w, len(vocab))
        if not vocab:
            raise ValueError("the vocabulary is empty: give at least one word")
        self.vocab = vocab
        self.words = list(vocab)

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> Tokenizer:
        """The vocabulary of every word in ``texts``, numbered in order of first appearance."""
        if isinstance(texts, str):
            raise TypeError("texts must be an iterable of strings, got a single str; wrap it in a list")
        return cls(build_vocab(list(texts)))

    def __len__(self) -> int:
        return len(self.vocab)

    def encode(self, text: str) -> np.ndarray:
        """Ids of the words of ``text``, shape ``(L,)``, dtype int64."""
        words = tokenize(text)
        if not words:
            raise ValueError("text has no words to encode")
        unknown = [w for w in words if w not in self.vocab]
        if unknown:
            raise ValueError(f"unknown word(s) {unknown} in {text!r}; the vocabulary is {self.words}")
        return np.array([self.vocab[w] for w in words], dtype=np.int64)

    def decode(self, ids: Sequence[int] | np.ndarray) -> list[str]:
        """The words of ``ids`` (the inverse of ``encode``)."""
        arr = np.asarray(ids)
        if arr.ndim != 1 or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"ids must be a 1-d sequence of ints, got shape {arr.shape} dtype {arr.dtype}")
        bad = [int(i) for i in arr if not 0 <= i < len(self.words)]
        if bad:
            raise ValueError(f"ids {bad} are outside the vocabulary of size {len(self.words)}")
        return [self.words[int(i)] for i in arr]


class Embedding:
    """A table of one dense vector per token id, drawn once from a seeded normal distribution.

    ``Embedding(vocab_size, d_model, seed=0)(ids)`` returns ``X`` with shape ``(L, d_model)``.
    Used in: "From scratch in NumPy, and learning".
    """

    def __init__(self, vocab_size: int, d_model: int, *, seed: Seed, scale: float = 1.0) -> None:
        self.vocab_size = require_positive_int(vocab_size, "vocab_size")
        self.d_model = require_positive_int(d_model, "d_model")
        scale = require_positive(scale, "scale")
        self.table = make_generator(seed).normal(0.0, scale, size=(self.vocab_size, self.d_model))  # (vocab, d_model)

    def __call__(self, ids: Sequence[int] | np.ndarray) -> np.ndarray:
        arr = np.asarray(ids)
        if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"ids must be a non-empty 1-d array of ints, got shape {arr.shape} dtype {arr.dtype}")
        if arr.min() < 0 or arr.max() >= self.vocab_size:
            raise ValueError(f"ids {arr.tolist()} must lie in [0, {self.vocab_size}) (the vocabulary size)")
        return self.table[arr]  # (L, d_model)


def random_positional_encoding(n_positions: int, d_model: int, *, seed: Seed, scale: float = 0.1) -> np.ndarray:
    """Document 003's variant: one small random vector per position, shape ``(n_positions, d_model)``.

    Drawn once from ``N(0, scale²)``; the same position always gets the same vector.
    Used in: "From scratch in NumPy, and learning".
    """
    n = require_positive_int(n_positions, "n_positions")
    d = require_positive_int(d_model, "d_model")
    return make_generator(seed).normal(0.0, require_positive(scale, "scale"), size=(n, d))  # (n, d_model)


def sinusoidal_positional_encoding(n_positions: int, d_model: int, *, base: float = 10000.0) -> np.ndarray:
    """The standard sinusoidal encoding, shape ``(n_positions, d_model)``.

    Column ``2i`` holds ``sin(pos / base^(2i/d_model))`` and column ``2i+1`` the cosine of the same
    angle, so every entry lies in [-1, 1] and no randomness is involved.
    Used in: "From scratch in NumPy, and learning".
    """
    n = require_positive_int(n_positions, "n_positions")
    d = require_positive_int(d_model, "d_model")
    base = require_positive(base, "base")
    pos = np.arange(n, dtype=np.float64)[:, None]  # (n, 1)
    freq = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)  # (ceil(d/2),)
    angles = pos * freq[None, :]  # (n, ceil(d/2))
    pe = np.empty((n, d))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles[:, : d // 2])
    return pe  # (n, d_model)


# --- attention -----------------------------------------------------------------------------------


def init_projections(
    d_model: int, d_k: int, d_v: int | None = None, *, seed: Seed
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seeded ``W_Q (d_model, d_k)``, ``W_K (d_model, d_k)``, ``W_V (d_model, d_v)``, entries ~ N(0, 1/d_model).

    Used in: "From scratch in NumPy, and learning", "Why attention is parallel".
    """
    d_model = require_positive_int(d_model, "d_model")
    d_k = require_positive_int(d_k, "d_k")
    d_v = d_k if d_v is None else require_positive_int(d_v, "d_v")
    rng = make_generator(seed)
    std = 1.0 / math.sqrt(d_model)
    w_q = rng.normal(0.0, std, size=(d_model, d_k))
    w_k = rng.normal(0.0, std, size=(d_model, d_k))
    w_v = rng.normal(0.0, std, size=(d_model, d_v))
    return w_q, w_k, w_v


def self_attention(
    x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Project ``x`` to Q, K, V and attend: returns ``(Z, W)`` of shapes ``(L, d_v)`` and ``(L, L)``.

    ``x`` is ``(L, d_model)``; ``w_q`` and ``w_k`` are ``(d_model, d_k)``; ``w_v`` is ``(d_model, d_v)``.
    The attention itself is ``attnlib.scaled_dot_product_attention`` (float64 NumPy).
    Used in: "From scratch in NumPy, and learning", "Why attention is parallel".
    """
    x = _matrix(x, "x")
    d_model = x.shape[1]
    w_q = _matrix(w_q, "w_q", (d_model, None))
    w_k = _matrix(w_k, "w_k", (d_model, w_q.shape[1]))
    w_v = _matrix(w_v, "w_v", (d_model, None))
    q = x @ w_q  # (L, d_k)
    k = x @ w_k  # (L, d_k)
    v = x @ w_v  # (L, d_v)
    return scaled_dot_product_attention(q, k, v)


# --- the learning demo: predictor, manual gradient, training --------------------------------------


class LinearPredictor:
    """``ŷ = z W + b`` with a mean-squared-error loss; ``backward`` returns ``dL/dz``.

    In document 003 it reads the context vector of the first token and stands in for a classifier.
    Only its input gradient is used: the training loop updates ``W_V``, never the predictor.
    Used in: "From scratch in NumPy, and learning".
    """

    def __init__(self, weight: np.ndarray, bias: np.ndarray) -> None:
        self.weight = _matrix(weight, "weight")  # (d_in, d_out)
        self.bias = _vector(bias, "bias", self.weight.shape[1])  # (d_out,)

    @classmethod
    def random(cls, d_in: int, d_out: int, *, seed: Seed) -> LinearPredictor:
        """Seeded weights ~ N(0, 1/d_in) and a zero bias."""
        d_in = require_positive_int(d_in, "d_in")
        d_out = require_positive_int(d_out, "d_out")
        return cls(make_generator(seed).normal(0.0, 1.0 / math.sqrt(d_in), size=(d_in, d_out)), np.zeros(d_out))

    def forward(self, z: np.ndarray) -> np.ndarray:
        """Prediction for one input vector ``z`` of shape ``(d_in,)``: shape ``(d_out,)``."""
        z = _vector(z, "z", self.weight.shape[0])
        return z @ self.weight + self.bias  # (d_out,)

    def _target(self, target: np.ndarray) -> np.ndarray:
        return _vector(target, "target", self.weight.shape[1])

    def loss(self, z: np.ndarray, target: np.ndarray) -> float:
        """``mean((ŷ - target)²)`` over the ``d_out`` outputs."""
        err = self.forward(z) - self._target(target)  # (d_out,)
        return float(np.mean(err**2))

    def backward(self, z: np.ndarray, target: np.ndarray) -> np.ndarray:
        """``dL/dz``, shape ``(d_in,)``: ``dL/dŷ = 2(ŷ - target)/d_out`` pulled back through ``W``."""
        grad_pred = 2.0 * (self.forward(z) - self._target(target)) / self.weight.shape[1]  # (d_out,)
        return self.weight @ grad_pred  # (d_in,)


class ValueGradient(NamedTuple):
    """The three links of the chain from the loss into ``W_V`` (document 003, section 4.2)."""

    grad_z: np.ndarray  # (d_v,)  dL/dz_t, from the predictor
    grad_v: np.ndarray  # (L, d_v)  dL/dV = outer(w_t, dL/dz_t)
    grad_w_v: np.ndarray  # (d_model, d_v)  dL/dW_V = Xᵀ dL/dV


def value_gradient(x: np.ndarray, weights: np.ndarray, grad_z: np.ndarray, *, token: int = 0) -> ValueGradient:
    """Back-propagate ``dL/dz_token`` into ``V`` and then into ``W_V``, one link at a time.

    ``z_token = weights[token] @ V`` and ``V = x @ W_V``, and the weights do not depend on ``W_V``,
    so ``dL/dV = outer(weights[token], dL/dz)`` and ``dL/dW_V = xᵀ dL/dV`` are exact.
    Used in: "From scratch in NumPy, and learning".
    """
    x = _matrix(x, "x")
    weights = _matrix(weights, "weights", (x.shape[0], x.shape[0]))
    grad_z = _vector(grad_z, "grad_z")
    if isinstance(token, bool) or not isinstance(token, (int, np.integer)) or not 0 <= token < x.shape[0]:
        raise ValueError(f"token must be an int position in [0, {x.shape[0]}), got {token!r}")
    grad_v = np.outer(weights[token], grad_z)  # (L, d_v)
    grad_w_v = x.T @ grad_v  # (d_model, d_v)
    return ValueGradient(grad_z, grad_v, grad_w_v)


def manual_grad_w_v(
    x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray,
    predictor: LinearPredictor, target: np.ndarray, *, token: int = 0,
) -> tuple[float, ValueGradient, np.ndarray]:
    """One forward and manual backward pass: ``(loss, ValueGradient, attention weights)``.

    Used in: "From scratch in NumPy, and learning".
    """
    z, weights = self_attention(x, w_q, w_k, w_v)  # (L, d_v), (L, L)
    if not 0 <= token < z.shape[0]:
        raise ValueError(f"token must be a position in [0, {z.shape[0]}), got {token!r}")
    loss = predictor.loss(z[token], target)
    grad = value_gradient(x, weights, predictor.backward(z[token], target), token=token)
    return loss, grad, weights


def autograd_grad_w_v(
    x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray,
    predictor: LinearPredictor, target: np.ndarray, *, token: int = 0,
) -> np.ndarray:
    """``dL/dW_V`` from torch autograd in float64: the independent check of ``value_gradient``.

    Rebuilds the forward pass with torch tensors (attnlib's torch attention) and lets autograd
    differentiate it; nothing of the manual chain is reused. Used in: "From scratch in NumPy, and learning".
    """
    x, w_q, w_k = _matrix(x, "x"), _matrix(w_q, "w_q"), _matrix(w_k, "w_k")
    t = {name: torch.from_numpy(np.array(a, dtype=np.float64)) for name, a in
         (("x", x), ("w_q", w_q), ("w_k", w_k), ("w_v", _matrix(w_v, "w_v")), ("W", predictor.weight),
          ("b", predictor.bias), ("y", predictor._target(target)))}
    t["w_v"].requires_grad_(True)
    z, _ = scaled_dot_product_attention(t["x"] @ t["w_q"], t["x"] @ t["w_k"], t["x"] @ t["w_v"])  # (L, d_v)
    pred = z[token] @ t["W"] + t["b"]  # (d_out,)
    loss = torch.mean((pred - t["y"]) ** 2)
    loss.backward()
    return t["w_v"].grad.numpy()  # (d_model, d_v)


@dataclass(frozen=True)
class ValueProjectionRun:
    """What ``train_value_projection`` measured, with the learning rate and step count it used.
    Used in: "From scratch in NumPy, and learning"."""

    losses: np.ndarray  # (steps + 1,): the loss before every update and after the last
    w_v_start: np.ndarray  # (d_model, d_v)
    w_v_end: np.ndarray  # (d_model, d_v)
    weights_start: np.ndarray  # (L, L) attention weights before training
    weights_end: np.ndarray  # (L, L) attention weights after training
    lr: float  # the step size of plain gradient descent
    steps: int  # the number of updates

    @property
    def delta(self) -> np.ndarray:
        return self.w_v_end - self.w_v_start  # (d_model, d_v)

    @property
    def relative_change(self) -> float:
        """‖ΔW_V‖ / ‖W_V at the start‖ (Frobenius norms)."""
        return float(np.linalg.norm(self.delta) / np.linalg.norm(self.w_v_start))

    @property
    def delta_singular_values(self) -> np.ndarray:
        return np.linalg.svd(self.delta, compute_uv=False)


def train_value_projection(
    x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray,
    predictor: LinearPredictor, target: np.ndarray, *, lr: float = 0.1, steps: int = 30, token: int = 0,
) -> ValueProjectionRun:
    """Plain gradient descent on ``W_V`` alone, with the manual gradient; ``w_v`` is not modified.

    Used in: "From scratch in NumPy, and learning".
    """
    lr = require_positive(lr, "lr")
    steps = require_positive_int(steps, "steps")
    w_v_start = _matrix(w_v, "w_v").copy()
    w = w_v_start.copy()
    losses = []
    weights_start = None
    for _ in range(steps):
        loss, grad, weights = manual_grad_w_v(x, w_q, w_k, w, predictor, target, token=token)
        weights_start = weights if weights_start is None else weights_start
        losses.append(loss)
        w = w - lr * grad.grad_w_v  # (d_model, d_v)
    z, weights_end = self_attention(x, w_q, w_k, w)
    losses.append(predictor.loss(z[token], target))
    return ValueProjectionRun(np.array(losses), w_v_start, w, weights_start, weights_end, lr, steps)


@dataclass(frozen=True)
class Demo:
    """The chapter's inputs in one place, so the chapter, the tests and the errata use the same ones.

    Used in: "From scratch in NumPy, and learning".
    """

    tokenizer: Tokenizer
    ids: np.ndarray  # (L,)
    x: np.ndarray  # (L, d_model): embeddings + sinusoidal positions
    w_q: np.ndarray  # (d_model, d_k)
    w_k: np.ndarray  # (d_model, d_k)
    w_v: np.ndarray  # (d_model, d_v)
    predictor: LinearPredictor
    target: np.ndarray  # (d_out,)

    def train(self, *, lr: float = 0.1, steps: int = 30) -> ValueProjectionRun:
        return train_value_projection(self.x, self.w_q, self.w_k, self.w_v, self.predictor, self.target,
                                      lr=lr, steps=steps)


def build_demo(
    texts: Sequence[str], *, d_model: int = 8, d_k: int = 4, d_out: int = 3, seed: int = 0
) -> Demo:
    """Tokenizer over ``texts``; embeddings + sinusoidal positions of ``texts[0]``; seeded projections
    and predictor; a one-hot target for class 0. One generator, drawn in this order: embedding table,
    projections, predictor. Used in: "From scratch in NumPy, and learning".
    """
    tok = Tokenizer.from_texts(texts)
    rng = make_generator(seed)
    ids = tok.encode(texts[0])  # (L,)
    emb = Embedding(len(tok), d_model, seed=rng)
    x = emb(ids) + sinusoidal_positional_encoding(len(ids), d_model)  # (L, d_model)
    w_q, w_k, w_v = init_projections(d_model, d_k, seed=rng)
    predictor = LinearPredictor.random(d_k, d_out, seed=rng)
    target = np.eye(d_out)[0]  # (d_out,)
    return Demo(tok, ids, x, w_q, w_k, w_v, predictor, target)
