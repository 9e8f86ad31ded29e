"""Exercises of chapter 12, "From scratch in NumPy, and learning": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/12_numpy_scratch.yml``; it names the functions registered here on
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
def gwv_reference(x: np.ndarray, weights: np.ndarray, grad_z: np.ndarray, token: int) -> np.ndarray:
    return scratch.value_gradient(x, weights, grad_z, token=token).grad_w_v  # (d_model, d_v)


@code.function
def gwv_no_xt(x: np.ndarray, weights: np.ndarray, grad_z: np.ndarray, token: int) -> np.ndarray:
    return np.outer(weights[token], grad_z)  # (L, d_v): dL/dV, one link short


@code.function
def gwv_column(x: np.ndarray, weights: np.ndarray, grad_z: np.ndarray, token: int) -> np.ndarray:
    return x.T @ np.outer(weights[:, token], grad_z)  # (d_model, d_v)


@code.function
def gwv_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    for length, d_model, d_v, token in ((4, 3, 2, 0), (5, 6, 3, 2), (3, 3, 3, 1)):
        s = rng.standard_normal((length, length))
        w = np.exp(s - s.max(axis=1, keepdims=True))
        cases.append((rng.standard_normal((length, d_model)), w / w.sum(axis=1, keepdims=True),
                      rng.standard_normal(d_v), token))
    return cases


@code.function
def sa_reference(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    return scratch.self_attention(x, w_q, w_k, w_v)[0]  # (L, d_v)


def _sa_with_scale(scale_of: object) -> object:
    def impl(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
        q, k, v = x @ w_q, x @ w_k, x @ w_v  # (L, d_k), (L, d_k), (L, d_v)
        return attnlib.softmax(q @ k.T * scale_of(q.shape[1])) @ v  # (L, d_v)
    return impl


@code.function
def sa_cases(rng: np.random.Generator) -> list[tuple]:
    return [tuple(rng.standard_normal(s) for s in ((length, dm), (dm, dk), (dm, dk), (dm, dv)))
            for length, dm, dk, dv in ((4, 5, 4, 3), (3, 4, 9, 2), (6, 3, 16, 4))]


code.add(  # 12.2
    ex2_missing_scale=_sa_with_scale(lambda d: 1.0),
    ex2_divide_by_dk=_sa_with_scale(lambda d: 1.0 / d),
)


Y_HAT = np.array([0.5, -1.0, 2.0, 0.0])
TARGET = np.array([0.0, 0.0, 1.0, 1.0])


@code.function
def mse_grad() -> np.ndarray:
    """dL/dŷ of L = mean((ŷ − t)²), as ``scratch.LinearPredictor.backward`` takes it."""
    return 2.0 * (Y_HAT - TARGET) / Y_HAT.shape[0]


code.add(  # 12.3
    ex3_forgot_two=lambda: (Y_HAT - TARGET) / Y_HAT.shape[0],
    ex3_forgot_mean=lambda: 2.0 * (Y_HAT - TARGET),
    ex3_sign_flipped=lambda: -mse_grad(),
)


code.values(
    n_outputs=Y_HAT.size,
    y_hat=Numbers(Y_HAT),
    target=Numbers(TARGET),
)
