"""Checks of the rows in book/_data/errata/06_scaling.yml, one function per row id."""

from __future__ import annotations

import math

import numpy as np
import torch

import attnlib
from attnlib.companions import scaling

from ..evidence import Finding, MadeUp
from ._registry import Value, derives


def _unseeded(document: float, expected: float, variance: float) -> MadeUp:
    se = scaling.sample_variance_se(variance, 1000, scaling.dot_excess_kurtosis(100))
    return MadeUp(
        confirmed=abs(document - expected) < 2 * se,
        shown={
            "expected value": expected,
            "standard error for 1000 pairs": se,
            "distance of the document's value, in standard errors": abs(document - expected) / se,
        },
    )


@derives("scaling-variance-dim100-before")
def scaling_variance_dim100_before() -> Value:
    """Variance of random dot products at dimension 100, before scaling (one unseeded run)."""
    return _unseeded(107.4, scaling.expected_dot_variance(100), 100)


@derives("scaling-variance-dim100-after")
def scaling_variance_dim100_after() -> Value:
    """Variance of random dot products at dimension 100, after dividing by √100 (one unseeded run)."""
    return _unseeded(1.074, scaling.expected_dot_variance(100) / 100, 1.0)


@derives("scaling-exploding-gradients")
def scaling_exploding_gradients() -> Value:
    """Claim: the 1/√d_k factor prevents exploding gradients."""
    jacobian_max = max(
        float(
            np.linalg.norm(
                scaling.softmax_jacobian(
                    attnlib.softmax(scaling.random_scores(d, 8, trials=200, seed=0) / t)
                ),
                ord=2,
                axis=(-2, -1),
            ).max()
        )
        for d in (4, 64, 1024, 4096)
        for t in (1.0, math.sqrt(d))
    )
    grad = {d: query_gradient_norms(d) for d in (4, 64, 1024)}
    return Finding(
        holds=grad[64][0] > 1.5 * grad[4][0]
        and grad[1024][0] > 1.5 * grad[4][0]
        and grad[1024][1] < 1.2 * grad[4][1],
        edge="the softmax itself never explodes: its Jacobian's spectral norm stays at most 1/2 at every d_k, "
        "scaled or not, and the unscaled gradient grows slowly, far below √d_k",
        shown={
            "largest softmax Jacobian norm (d_k = 4 … 4096, scaled or not)": jacobian_max,
            **{f"mean |∂L/∂q| unscaled, d_k = {d}": g[0] for d, g in grad.items()},
            **{f"mean |∂L/∂q| scaled, d_k = {d}": g[1] for d, g in grad.items()},
        },
    )


def query_gradient_norms(d_k: int, n_keys: int = 8, trials: int = 2000, seed: int = 0) -> tuple[float, float]:
    """Mean norm of the gradient of a random linear loss of the weights w.r.t. the query, without and
    with the 1/√d_k factor, over ``trials`` seeded queries with ``n_keys`` standard-normal keys. Used in
    "Why scale by √d_k" (the gradient the scaling keeps from growing with d_k)."""
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(trials, d_k, generator=g, dtype=torch.float64)
    keys = torch.randn(trials, n_keys, d_k, generator=g, dtype=torch.float64)
    upstream = torch.randn(trials, n_keys, generator=g, dtype=torch.float64)
    norms = []
    for factor in (1.0, 1 / math.sqrt(d_k)):
        query = q.clone().requires_grad_(True)
        weights = torch.softmax(torch.einsum("td,tnd->tn", query, keys) * factor, dim=-1)  # (trials, n_keys)
        (weights * upstream).sum().backward()
        norms.append(float(query.grad.norm(dim=-1).mean()))
    return norms[0], norms[1]


@derives("scaling-variance-grows-like-d")
def scaling_variance_grows_like_d() -> Value:
    """claim: the variance of the dot product of 1000 standard-normal pairs grows linea."""
    return all(
        abs(v - d) < 3 * scaling.sample_variance_se(d, 1000, scaling.dot_excess_kurtosis(int(d)))
        for d, v, _ in scaling.variance_by_dimension([1, 2, 3, 10, 30, 100, 300, 1000], 1000, seed=0)
    )


@derives("scaling-derivation")
def scaling_derivation() -> Value:
    """claim: c = 1/√d_k brings the variance of the dot product back to Var(X) at every."""
    return all(
        abs(s - 1) < 3 * scaling.sample_variance_se(1.0, 1000, scaling.dot_excess_kurtosis(int(d)))
        for d, _, s in scaling.variance_by_dimension([1, 2, 3, 10, 30, 100, 300, 1000], 1000, seed=0)
    )
