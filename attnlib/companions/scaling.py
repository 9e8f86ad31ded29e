"""The experiments behind the √d_k scaling: random dot products, their variance, and how a
saturating softmax loses its gradient.

Everything random takes an explicit ``seed`` (an ``int`` or a ``numpy.random.Generator``), so every
number and figure of the chapters is reproducible. Core module: NumPy and torch only.

Chapters: "Softmax" (random scores, entropy) and "Why divide by √d_k" (everything).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import torch

from .._validate import backend_of, require_finite, require_floating, require_positive_int
from ..softmax import ArrayT, softmax
from .checks import make_generator

Seed = int | np.random.Generator


def random_dot_products(d: int, n: int = 1000, *, seed: Seed) -> np.ndarray:
    """``n`` dot products ``q·k`` of independent pairs of vectors with i.i.d. standard-normal entries.

    ``d`` is the dimension of ``q`` and ``k``. With an ``int`` seed the sample depends only on
    ``(seed, d)``, so the same call gives the same numbers in a table, a histogram and a test.
    Returns a float64 array of shape ``(n,)``.
    Used in: "Why divide by √d_k".
    """
    d = require_positive_int(d, "d")
    n = require_positive_int(n, "n")
    rng = make_generator(seed, d)
    q = rng.standard_normal((n, d))  # (n, d)
    k = rng.standard_normal((n, d))  # (n, d)
    return np.einsum("nd,nd->n", q, k)  # (n,)


def expected_dot_variance(d: int, var_q: float = 1.0, var_k: float = 1.0) -> float:
    """Exact variance of ``q·k`` when the entries are independent, zero-mean, with variances
    ``var_q`` and ``var_k``: each product ``q_i k_i`` has variance ``var_q·var_k`` and the ``d``
    products are independent, so the variances add up to ``d·var_q·var_k``.
    Used in: "Why divide by √d_k".
    """
    d = require_positive_int(d, "d")
    for name, v in (("var_q", var_q), ("var_k", var_k)):
        if not math.isfinite(v) or v < 0:
            raise ValueError(f"{name} must be a finite number >= 0, got {v}")
    return d * var_q * var_k


def dot_excess_kurtosis(d: int) -> float:
    """Excess kurtosis of ``q·k`` for standard-normal entries: ``6 / d``.

    One product ``q_i k_i`` has fourth moment ``E[q⁴]·E[k⁴] = 3·3 = 9`` and variance 1, so excess
    kurtosis ``9 − 3 = 6``; a sum of ``d`` independent copies divides it by ``d``. The dot product is
    therefore heavier-tailed than a normal at small ``d`` and close to normal at large ``d``.
    Used in: "Why divide by √d_k".
    """
    return 6.0 / require_positive_int(d, "d")


def sample_variance_se(variance: float, n: int, excess_kurtosis: float = 0.0) -> float:
    """Standard error of the sample variance of ``n`` independent draws.

    ``Var(s²) ≈ σ⁴·(2/(n−1) + κ/n)`` where ``σ² = variance`` and ``κ`` is the excess kurtosis of one
    draw (0 for a normal variable). This is how far an unseeded run's variance typically lands from
    the true one.
    Used in: "Why divide by √d_k".
    """
    n = require_positive_int(n, "n")
    if n < 2:
        raise ValueError(f"a sample variance needs n >= 2 draws, got n={n}")
    if not math.isfinite(variance) or variance < 0:
        raise ValueError(f"variance must be a finite number >= 0, got {variance}")
    if not math.isfinite(excess_kurtosis) or excess_kurtosis < -2:
        raise ValueError(f"excess_kurtosis must be a finite number >= -2, got {excess_kurtosis}")
    return variance * math.sqrt(2.0 / (n - 1) + excess_kurtosis / n)


def variance_by_dimension(dims: Sequence[int], n: int = 1000, *, seed: Seed) -> np.ndarray:
    """Measured variance of ``n`` random dot products (``random_dot_products``) for each ``d`` in
    ``dims``, before and after dividing by ``√d``.

    Returns a float64 array of shape ``(len(dims), 3)`` with columns
    ``d``, ``Var(q·k)``, ``Var(q·k / √d)``. Uses ``ddof=1`` (the unbiased sample variance).
    Used in: "Why divide by √d_k".
    """
    if isinstance(dims, (str, bytes)) or not isinstance(dims, Sequence) or len(dims) == 0:
        raise ValueError(f"dims must be a non-empty sequence of positive ints, got {dims!r}")
    rows = []
    for d in dims:
        x = random_dot_products(d, n, seed=seed)  # (n,)
        rows.append((float(d), float(np.var(x, ddof=1)), float(np.var(x / math.sqrt(d), ddof=1))))
    return np.asarray(rows, dtype=np.float64)  # (len(dims), 3)


def repeated_variances(d: int, n: int = 1000, repeats: int = 200, *, seed: Seed) -> np.ndarray:
    """The sample variance (``ddof=1``) of ``n`` random dot products in dimension ``d``, for
    ``repeats`` independent runs: what ``repeats`` unseeded runs of the same experiment would print.

    Returns float64 of shape ``(repeats,)``. For judging a variance printed by one unseeded run
    (document 000's at ``d = 100``, on the documents' pages).
    """
    d = require_positive_int(d, "d")
    n = require_positive_int(n, "n")
    repeats = require_positive_int(repeats, "repeats")
    rng = make_generator(seed, d, n)
    return np.array([np.var(random_dot_products(d, n, seed=rng), ddof=1) for _ in range(repeats)])


def random_scores(d_k: int, n_keys: int, *, trials: int = 1, seed: Seed) -> np.ndarray:
    """Unscaled attention scores of ``trials`` random queries against ``n_keys`` random keys each,
    all entries i.i.d. standard normal. Row ``t`` holds ``K_t q_t``.

    Returns float64 of shape ``(trials, n_keys)``; depends only on ``(seed, d_k)`` for an int seed.
    Used in: "Softmax", "Why divide by √d_k".
    """
    d_k = require_positive_int(d_k, "d_k")
    n_keys = require_positive_int(n_keys, "n_keys")
    trials = require_positive_int(trials, "trials")
    rng = make_generator(seed, d_k)
    q = rng.standard_normal((trials, d_k))  # (trials, d_k)
    k = rng.standard_normal((trials, n_keys, d_k))  # (trials, n_keys, d_k)
    return np.einsum("tkd,td->tk", k, q)  # (trials, n_keys)


def _validate_probabilities(p: torch.Tensor | np.ndarray, name: str) -> str:
    backend = backend_of(p, name)
    require_floating(p, name)
    if p.ndim == 0 or p.shape[-1] == 0:
        raise ValueError(f"{name} must have a non-empty last dimension, got shape {tuple(p.shape)}")
    require_finite(p, name)
    if bool((p < 0).any()):
        raise ValueError(f"{name} must be a probability vector (entries >= 0), got shape {tuple(p.shape)} with a negative entry")
    sums = p.sum(-1)
    worst = float((sums - 1).abs().max()) if backend == "torch" else float(np.abs(sums - 1).max())
    if worst > 1e-3:
        raise ValueError(
            f"{name} must sum to 1 along its last axis, got shape {tuple(p.shape)} with a sum off by {worst:.4g}"
        )
    return backend


def entropy(p: ArrayT) -> ArrayT:
    """Shannon entropy in nats of the distributions along the last axis, ``−Σ p log p``, with
    ``0·log 0 = 0``. ``log n`` for a uniform distribution over ``n`` items, 0 for a one-hot one.

    Shape ``(..., n) -> (...)``; returns the input's type.
    Used in: "Softmax", "Why divide by √d_k".
    """
    backend = _validate_probabilities(p, "p")
    if backend == "torch":
        return -torch.special.xlogy(p, p).sum(dim=-1)  # (...)
    safe = np.where(p > 0, p, 1.0)
    return -np.sum(p * np.log(safe), axis=-1)  # (...)


def softmax_jacobian(p: ArrayT) -> ArrayT:
    """Jacobian of softmax at the point where it outputs ``p``: ``J = diag(p) − p pᵀ``.

    ``J[i, j] = ∂p_i / ∂s_j``. It depends only on the output ``p``: when ``p`` is nearly one-hot
    every entry is nearly 0, so almost no gradient flows back to the scores. Its spectral norm is at
    most 1/2 for every ``p``, so it can shrink but never blow up.

    Shape ``(..., n) -> (..., n, n)``; returns the input's type.
    Used in: "Why divide by √d_k".
    """
    backend = _validate_probabilities(p, "p")
    n = p.shape[-1]
    if backend == "torch":
        eye = torch.eye(n, dtype=p.dtype, device=p.device)
    else:
        eye = np.eye(n, dtype=p.dtype)
    col = p[..., :, None]  # (..., n, 1)
    row = p[..., None, :]  # (..., 1, n)
    return col * eye - col * row  # (..., n, n)


def saturation(scores: np.ndarray) -> dict[str, float]:
    """How saturated softmax is on each row of ``scores`` (shape ``(trials, n_keys)``), averaged
    over the rows: the largest weight, the entropy in nats, and the Frobenius norm of the softmax
    Jacobian (``softmax_jacobian``).
    Used in: "Why divide by √d_k".
    """
    if not isinstance(scores, np.ndarray) or scores.ndim != 2:
        raise ValueError(f"scores must be a 2-d numpy array (trials, n_keys), got {type(scores).__name__} "
                         f"with shape {getattr(scores, 'shape', None)}")
    require_finite(scores, "scores")
    p = softmax(scores.astype(np.float64, copy=False))  # (trials, n_keys)
    jac = softmax_jacobian(p)  # (trials, n_keys, n_keys)
    return {
        "max_weight": float(p.max(axis=-1).mean()),
        "entropy": float(entropy(p).mean()),
        "jacobian_norm": float(np.linalg.norm(jac, axis=(-2, -1)).mean()),
    }
