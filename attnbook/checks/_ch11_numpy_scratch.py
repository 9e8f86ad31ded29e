"""Checks of the rows in book/_data/errata/11_numpy_scratch.yml, one function per row id."""

from __future__ import annotations

import numpy as np

from attnlib import examples, scratch

from ._registry import Value, check


@check("scratch-order-blind")
def scratch_order_blind() -> Value:
    """claim: attention, being matrix multiplication, ignores the order of the words."""
    return (
        lambda d, p: (lambda z, zp: bool(np.allclose(zp, z[p]) and not np.allclose(zp, z)))(
            scratch.self_attention(d.x, d.w_q, d.w_k, d.w_v)[0],
            scratch.self_attention(d.x[p], d.w_q, d.w_k, d.w_v)[0],
        )
    )(scratch.build_demo(examples.ORDER_SENTENCES), [3, 1, 2, 0])


@check("scratch-wv-change-as-evidence")
def scratch_wv_change_as_evidence() -> Value:
    """claim: a dramatic change of W_V after training verifies that the mechanism learn."""
    return (
        lambda d: (
            lambda good, bad: bool(
                bad.relative_change > good.relative_change
                and bad.losses[-1] > bad.losses[0]
                and good.losses[-1] < good.losses[0]
            )
        )(d.train(lr=0.1, steps=30), d.train(lr=0.25, steps=30))
    )(scratch.build_demo(examples.ORDER_SENTENCES))


@check("scratch-attention-weights-untrained")
def scratch_attention_weights_untrained() -> Value:
    """claim: the W_V training loop integrates the whole attention mechanism into learn."""
    return (lambda r: bool(np.array_equal(r.weights_start, r.weights_end)))(
        scratch.build_demo(examples.ORDER_SENTENCES).train(lr=0.1, steps=30)
    )


@check("scratch-chain-exact")
def scratch_chain_exact() -> Value:
    """claim: the three-link chain dL/dz0 → dL/dV → dL/dW_V is an accurate gradient."""
    return (
        lambda d: bool(
            np.allclose(
                scratch.manual_grad_w_v(d.x, d.w_q, d.w_k, d.w_v, d.predictor, d.target)[1].grad_w_v,
                scratch.autograd_grad_w_v(d.x, d.w_q, d.w_k, d.w_v, d.predictor, d.target),
                rtol=1e-10,
                atol=1e-12,
            )
        )
    )(scratch.build_demo(examples.ORDER_SENTENCES))
