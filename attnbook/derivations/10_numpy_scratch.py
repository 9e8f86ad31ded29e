"""Checks of the rows in book/_data/errata/10_numpy_scratch.yml, one function per row id."""

from __future__ import annotations

import numpy as np

from attnlib.companions import examples, scratch

from ..evidence import Finding
from ._registry import Value, derives


@derives("scratch-order-blind")
def scratch_order_blind() -> Value:
    """Claim: attention, being matrix multiplication, ignores the order of the words."""
    demo, order = scratch.build_demo(examples.ORDER_SENTENCES), [3, 1, 2, 0]
    z = scratch.self_attention(demo.x, demo.w_q, demo.w_k, demo.w_v)[0]
    z_permuted = scratch.self_attention(demo.x[order], demo.w_q, demo.w_k, demo.w_v)[0]
    return Finding(
        holds=bool(np.allclose(z_permuted, z[order])),
        edge="the reason given: matrix multiplication does depend on order (a recurrent network multiplies matrices too)",
        shown={
            "permuted input gives the permuted output": bool(np.allclose(z_permuted, z[order])),
            "output unchanged by the permutation": bool(np.allclose(z_permuted, z)),
        },
    )


@derives("scratch-wv-change-as-evidence")
def scratch_wv_change_as_evidence() -> Value:
    """Claim: a dramatic change of W_V after training verifies that the mechanism learns."""
    demo = scratch.build_demo(examples.ORDER_SENTENCES)
    good, bad = demo.train(lr=0.1, steps=30), demo.train(lr=0.25, steps=30)
    return Finding(
        holds=good.losses[-1] < good.losses[0] and good.relative_change > 0,
        edge="a too-large step (lr 0.25) changes W_V more while the loss explodes",
        shown={
            "relative change of W_V, lr 0.1": good.relative_change,
            "loss, lr 0.1: first": good.losses[0],
            "loss, lr 0.1: last": good.losses[-1],
            "relative change of W_V, lr 0.25": bad.relative_change,
            "loss, lr 0.25: first": bad.losses[0],
            "loss, lr 0.25: last": bad.losses[-1],
        },
    )


@derives("scratch-attention-weights-untrained")
def scratch_attention_weights_untrained() -> Value:
    """Claim: the W_V training loop integrates the whole attention mechanism into learning."""
    run = scratch.build_demo(examples.ORDER_SENTENCES).train(lr=0.1, steps=30)
    change = float(np.abs(run.weights_end - run.weights_start).max())
    return Finding(holds=change > 0, shown={"largest change of any attention weight after training": change})


@derives("scratch-chain-exact")
def scratch_chain_exact() -> Value:
    """claim: the three-link chain dL/dz0 → dL/dV → dL/dW_V is an accurate gradient."""
    d = scratch.build_demo(examples.ORDER_SENTENCES)
    return bool(
        np.allclose(
            scratch.manual_grad_w_v(d.x, d.w_q, d.w_k, d.w_v, d.predictor, d.target)[1].grad_w_v,
            scratch.autograd_grad_w_v(d.x, d.w_q, d.w_k, d.w_v, d.predictor, d.target),
            rtol=1e-10,
            atol=1e-12,
        )
    )
