"""Hand-derived gradients of one attention layer (attnlib.companions.grads) against torch autograd and central
finite differences, for several seeded layers and shapes."""

from __future__ import annotations

import numpy as np
import pytest

from attnlib.companions import grads


@pytest.mark.parametrize(("seed", "shape"), [(0, (5, 4, 3, 3, 2)), (1, (6, 3, 2, 4, 3)), (2, (3, 5, 4, 2, 4))])
def test_manual_gradients_match_autograd_and_finite_differences(seed, shape) -> None:  # noqa: ANN001
    x, params, targets = grads.random_layer(*shape, seed=seed)
    errors = grads.gradient_check(x, params, targets)
    for method, per_param in errors.items():
        assert set(per_param) == set(grads.PARAMS)
        for name, err in per_param.items():
            assert err < 1e-6, f"{method} vs hand-derived d L/d {name}: relative error {err:.2e}"


def test_check_detects_a_wrong_gradient() -> None:
    """The check is not vacuous: a softmax backward without the Jacobian's second term fails it."""
    x, params, targets = grads.random_layer(seed=0)

    def wrong(x, params, targets):  # noqa: ANN001, ANN202
        g = grads.manual_gradients(x, params, targets)
        g["w_q"] = g["w_q"] * 1.01
        return g

    errors = grads.gradient_check(x, params, targets, methods={"wrong": wrong})
    assert errors["wrong"]["w_q"] > 1e-3
    assert errors["wrong"]["w_k"] < 1e-12


def test_query_and_key_gradients_are_not_zero() -> None:
    """W_Q and W_K get a real gradient (the point of the section): not ~0 beside W_V's."""
    x, params, targets = grads.random_layer(seed=0)
    g = grads.manual_gradients(x, params, targets)
    assert np.linalg.norm(g["w_q"]) > 1e-3 and np.linalg.norm(g["w_k"]) > 1e-3


def test_forward_loss_matches_autograd_value() -> None:
    import torch

    x, params, targets = grads.random_layer(seed=3)
    f = grads.forward(x, params, targets)
    xt = torch.from_numpy(x)
    w = {k: torch.from_numpy(v) for k, v in params.items()}
    s = (xt @ w["w_q"]) @ (xt @ w["w_k"]).T / np.sqrt(params["w_q"].shape[1])
    logits = torch.softmax(s, -1) @ (xt @ w["w_v"]) @ w["w_c"]
    ref = torch.nn.functional.cross_entropy(logits, torch.from_numpy(targets))
    assert abs(f.loss - float(ref)) < 1e-12
    np.testing.assert_allclose(f.weights.sum(-1), 1.0, atol=1e-12)
