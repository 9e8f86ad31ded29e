"""Checks of the rows in book/_data/errata/06_scaling.yml, one function per row id."""

from __future__ import annotations

import math

import numpy as np

import attnlib
from attnlib import scaling

from ._registry import Value, check


@check("scaling-variance-dim100-before")
def scaling_variance_dim100_before() -> Value:
    """variance of random dot products at dimension 100, before scaling."""
    return scaling.expected_dot_variance(100) == 100 and abs(
        107.4 - scaling.expected_dot_variance(100)
    ) < 2 * scaling.sample_variance_se(100, 1000, scaling.dot_excess_kurtosis(100))


@check("scaling-variance-dim100-after")
def scaling_variance_dim100_after() -> Value:
    """variance of random dot products at dimension 100, after dividing by √100."""
    return scaling.expected_dot_variance(100) / 100 == 1 and abs(1.074 - 1) < 2 * scaling.sample_variance_se(
        1.0, 1000, scaling.dot_excess_kurtosis(100)
    )


@check("scaling-exploding-gradients")
def scaling_exploding_gradients() -> Value:
    """claim: the 1/√d_k factor prevents exploding gradients."""
    return (
        max(
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
        <= 0.5
        and scaling.saturation(scaling.random_scores(4096, 8, trials=200, seed=0))["jacobian_norm"]
        < 0.1 * scaling.saturation(scaling.random_scores(4096, 8, trials=200, seed=0) / 64.0)["jacobian_norm"]
    )


@check("scaling-variance-grows-like-d")
def scaling_variance_grows_like_d() -> Value:
    """claim: the variance of the dot product of 1000 standard-normal pairs grows linea."""
    return all(
        abs(v - d) < 3 * scaling.sample_variance_se(d, 1000, scaling.dot_excess_kurtosis(int(d)))
        for d, v, _ in scaling.variance_by_dimension([1, 2, 3, 10, 30, 100, 300, 1000], 1000, seed=0)
    )


@check("scaling-derivation")
def scaling_derivation() -> Value:
    """claim: c = 1/√d_k brings the variance of the dot product back to Var(X) at every."""
    return all(
        abs(s - 1) < 3 * scaling.sample_variance_se(1.0, 1000, scaling.dot_excess_kurtosis(int(d)))
        for d, _, s in scaling.variance_by_dimension([1, 2, 3, 10, 30, 100, 300, 1000], 1000, seed=0)
    )
