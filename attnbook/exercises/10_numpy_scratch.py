"""Exercises of chapter 10, "From scratch in NumPy, and learning": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/10_numpy_scratch.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib.companions import scratch

from ._registry import ChapterCode, Numbers

code = ChapterCode(__name__)


@code.function
def gwv_reference(x: np.ndarray, weights: np.ndarray, grad_z: np.ndarray) -> np.ndarray:
    """dL/dW_V when every output row t has its own dL/dz_t: the sum of the one-row gradients."""
    return sum(scratch.value_gradient(x, weights, grad_z[t], token=t).grad_w_v for t in range(x.shape[0]))


@code.function
def gwv_no_xt(x: np.ndarray, weights: np.ndarray, grad_z: np.ndarray) -> np.ndarray:
    return weights.T @ grad_z  # (n, d_v): dL/dV, one link short


@code.function
def gwv_untransposed(x: np.ndarray, weights: np.ndarray, grad_z: np.ndarray) -> np.ndarray:
    return x.T @ (weights @ grad_z)  # (d_model, d_v): the weights' rows where their columns belong


@code.function
def gwv_first_row_only(x: np.ndarray, weights: np.ndarray, grad_z: np.ndarray) -> np.ndarray:
    return scratch.value_gradient(x, weights, grad_z[0], token=0).grad_w_v  # (d_model, d_v)


@code.function
def gwv_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    for length, d_model, d_v in ((4, 3, 2), (5, 6, 3), (3, 3, 3)):
        s = rng.standard_normal((length, length))
        w = np.exp(s - s.max(axis=1, keepdims=True))
        cases.append((rng.standard_normal((length, d_model)), w / w.sum(axis=1, keepdims=True),
                      rng.standard_normal((length, d_v))))
    return cases


@code.function
def csa_reference(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    return attnlib.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, is_causal=True)[0]  # (n, d_v)


@code.function
def csa_no_mask(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    return scratch.self_attention(x, w_q, w_k, w_v)[0]  # (n, d_v)


@code.function
def csa_mask_after_softmax(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    _, weights = scratch.self_attention(x, w_q, w_k, w_v)  # (n, n)
    return np.tril(weights) @ (x @ w_v)  # (n, d_v): the future zeroed, the rows no longer sum to 1


@code.function
def csa_mask_flipped(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    allowed = np.triu(np.ones((x.shape[0], x.shape[0]), dtype=bool))  # (n, n): the future, not the past
    return attnlib.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, mask=allowed)[0]  # (n, d_v)


@code.function
def csa_missing_scale(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    return attnlib.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, is_causal=True, scale=1.0)[0]


@code.function
def sa_cases(rng: np.random.Generator) -> list[tuple]:
    return [tuple(rng.standard_normal(s) for s in ((length, dm), (dm, dk), (dm, dk), (dm, dv)))
            for length, dm, dk, dv in ((4, 5, 4, 3), (3, 4, 9, 2), (6, 3, 16, 4))]


Y_HAT = np.array([0.5, -1.0, 2.0, 0.0])
TARGET = np.array([0.0, 0.0, 1.0, 1.0])


@code.function
def mse_grad() -> np.ndarray:
    """dL/dŷ of L = mean((ŷ − t)²), as ``scratch.LinearPredictor.backward`` takes it."""
    return 2.0 * (Y_HAT - TARGET) / Y_HAT.shape[0]


code.add(  # 10.3
    ex3_forgot_two=lambda: (Y_HAT - TARGET) / Y_HAT.shape[0],
    ex3_forgot_mean=lambda: 2.0 * (Y_HAT - TARGET),
    ex3_sign_flipped=lambda: -mse_grad(),
)

# 10.4: the shapes through the six lines, with every width different so that each option is one shape
SHAPE_N, SHAPE_D_MODEL, SHAPE_D_K, SHAPE_D_V = 4, 6, 3, 5


def ex4_correct() -> str:
    x = np.zeros((SHAPE_N, SHAPE_D_MODEL))
    w_q, w_k, w_v = scratch.init_projections(SHAPE_D_MODEL, SHAPE_D_K, SHAPE_D_V, seed=0)
    out, weights = scratch.self_attention(x, w_q, w_k, w_v)
    options = {(SHAPE_N, SHAPE_D_K): "a", weights.shape: "b", w_v.shape: "c", (SHAPE_N, SHAPE_D_V): "d"}
    return options.get(out.shape, "?")


code.add(ex4_correct=ex4_correct)


code.values(
    x_shape=str((SHAPE_N, SHAPE_D_MODEL)),
    wq_shape=str((SHAPE_D_MODEL, SHAPE_D_K)),
    wv_shape=str((SHAPE_D_MODEL, SHAPE_D_V)),
    qk_out=str((SHAPE_N, SHAPE_D_K)),
    weights_shape=str((SHAPE_N, SHAPE_N)),
    right_shape=str((SHAPE_N, SHAPE_D_V)),
    n_outputs=Y_HAT.size,
    y_hat=Numbers(Y_HAT),
    target=Numbers(TARGET),
)
