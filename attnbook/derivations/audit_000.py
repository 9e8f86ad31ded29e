"""Checks of the rows in book/_data/errata/audit_000.yml, one function per row id."""

from __future__ import annotations

import math

import numpy as np
import torch

from attnlib.companions import examples, scaling

from ..evidence import Exact, Route
from ._registry import Value, derives


@derives("doc000-dims")
def doc000_dims() -> Value:
    """tokens, input width and projected width of the journey example."""
    m, x = (examples.journey_self_attention(), examples.JOURNEY_INPUTS)
    return [x.shape[0], x.shape[1], (x @ m.W_query).shape[1], *m.W_query.shape]


@derives("doc000-shapes")
def doc000_shapes() -> Value:
    """shapes of queries, keys, scores and weights."""
    m, x = (examples.journey_self_attention(), examples.JOURNEY_INPUTS)
    q, k = (x @ m.W_query, x @ m.W_key)
    return [*q.shape, *k.shape, *(q @ k.T).shape, *m(x, return_weights=True)[1].shape]


@derives("doc000-dk")
def doc000_dk() -> Value:
    """d_k of the example (the scores are divided by √d_k)."""
    return examples.journey_self_attention().W_key.shape[1]


@derives("doc000-rows-are-distributions")
def doc000_rows_are_distributions() -> Value:
    """claim: every row of the weights lies between 0 and 1 and sums to 1."""
    w = examples.journey_self_attention()(examples.JOURNEY_INPUTS, return_weights=True)[1].detach()
    return bool(((w >= 0) & (w <= 1)).all() and torch.allclose(w.sum(-1), torch.ones(6)))


@derives("doc000-journey-percent")
def doc000_journey_percent() -> Value:
    """Share of attention 'journey' pays to 'Your' and to itself, in percent."""
    weights = examples.journey_self_attention()(examples.JOURNEY_INPUTS, return_weights=True)[1].detach()
    return Exact(
        exact=100 * weights[1, :2],
        route=Route(("journey-weights",), lambda w: 100 * w[:2], "the printed weights 0.15 and 0.22"),
    )


@derives("doc000-context-is-weighted-sum")
def doc000_context_is_weighted_sum() -> Value:
    """claim: the context vector of 'journey' is the weighted sum of all six value vect."""
    m, x = (examples.journey_self_attention(), examples.JOURNEY_INPUTS)
    out, w = m(x, return_weights=True)
    return bool(torch.allclose(out[1], sum(w[1, j] * (x @ m.W_value)[j] for j in range(6)), atol=1e-06))


@derives("doc000-peaky")
def doc000_peaky() -> Value:
    """claim: large unscaled dot products make softmax peaky, one token getting a proba."""
    return scaling.saturation(scaling.random_scores(1024, 8, trials=500, seed=0))["max_weight"] > 0.95


@derives("doc000-scaling-softer")
def doc000_scaling_softer() -> Value:
    """claim: dividing by √d_k gives a softer, more distributed attention (mean largest."""
    sc = scaling.random_scores(1024, 8, trials=500, seed=0)
    raw, scaled = (scaling.saturation(sc), scaling.saturation(sc / math.sqrt(1024)))
    return bool(scaled["max_weight"] < raw["max_weight"] and scaled["entropy"] > raw["entropy"])


@derives("doc000-scaled-variance-near-1")
def doc000_scaled_variance_near_1() -> Value:
    """claim: after dividing by √d_k the variance of the scores stays close to 1 at eve."""
    return bool(
        np.all(
            np.abs(scaling.variance_by_dimension([1, 2, 3, 10, 30, 100, 300, 1000], 1000, seed=0)[:, 2] - 1)
            < 0.1
        )
    )


@derives("doc000-linear-init")
def doc000_linear_init() -> Value:
    """claim: nn.Linear gives a more stable initialization than torch.rand (spread of t."""
    g = torch.Generator().manual_seed(42)
    x = torch.randn(2, 10, 512, generator=g)
    s_rand, s_linear = [
        float((x @ wq @ (x @ wk).transpose(-2, -1) / 8).std())
        for wq, wk in [
            (torch.rand(512, 64, generator=g), torch.rand(512, 64, generator=g)),
            (
                torch.nn.init.kaiming_uniform_(torch.empty(64, 512), a=math.sqrt(5), generator=g).T,
                torch.nn.init.kaiming_uniform_(torch.empty(64, 512), a=math.sqrt(5), generator=g).T,
            ),
        ]
    ]
    return bool(s_linear < 1 < 100 < s_rand)
