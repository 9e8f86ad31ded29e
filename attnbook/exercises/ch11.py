"""Exercises of chapter 11, "From scratch in NumPy, and learning"."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib import scratch

from ._core import Choice, Code, Exercise, Misconception, Mistake, Numeric, Section, fmt

CH = "11_numpy_scratch"
SELF = Section(CH, "Self-attention")
ORDER = Section(CH, "Word order: what attention sees")
BACKPROP = Section(CH, "Backpropagation into $W_V$, link by link")


def _gwv_reference(x: np.ndarray, weights: np.ndarray, grad_z: np.ndarray, token: int) -> np.ndarray:
    return scratch.value_gradient(x, weights, grad_z, token=token).grad_w_v  # (d_model, d_v)


def _gwv_no_xt(x: np.ndarray, weights: np.ndarray, grad_z: np.ndarray, token: int) -> np.ndarray:
    return np.outer(weights[token], grad_z)  # (L, d_v): dL/dV, one link short


def _gwv_column(x: np.ndarray, weights: np.ndarray, grad_z: np.ndarray, token: int) -> np.ndarray:
    return x.T @ np.outer(weights[:, token], grad_z)  # (d_model, d_v)


def _gwv_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    for length, d_model, d_v, token in ((4, 3, 2, 0), (5, 6, 3, 2), (3, 3, 3, 1)):
        s = rng.standard_normal((length, length))
        w = np.exp(s - s.max(axis=1, keepdims=True))
        cases.append((rng.standard_normal((length, d_model)), w / w.sum(axis=1, keepdims=True),
                      rng.standard_normal(d_v), token))
    return cases


E11_1 = Exercise(
    id="11.1", kind="code", skill="the gradient of W_V",
    prompt=("Write grad_w_v(x, weights, grad_z, token): x is (L, d_model), weights the (L, L) attention "
            "weights, grad_z = dL/dz for the output row z = weights[token] @ V with V = x @ W_V. "
            "Return dL/dW_V, shape (d_model, d_v)."),
    answer=Code("def grad_w_v(x, weights, grad_z, token):", "a (d_model, d_v) array", _gwv_reference, _gwv_cases),
    mistakes=[
        Mistake(Misconception("missing-xt", "dL/dV returned, one link short",
                              "V = x W_V, so dL/dW_V = xᵀ (dL/dV).", BACKPROP), impl=_gwv_no_xt),
        Mistake(Misconception("weights-column", "a column of the weights instead of a row",
                              "z_token = weights[token] @ V uses row `token`: dL/dV = outer(weights[token], dL/dz).",
                              BACKPROP), impl=_gwv_column),
    ],
    hint="dL/dV = np.outer(weights[token], grad_z); then x.T @ dL/dV.",
    section=BACKPROP,
)


def _sa_reference(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    return scratch.self_attention(x, w_q, w_k, w_v)[0]  # (L, d_v)


def _sa_with_scale(scale_of: object) -> object:
    def impl(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
        q, k, v = x @ w_q, x @ w_k, x @ w_v  # (L, d_k), (L, d_k), (L, d_v)
        return attnlib.softmax(q @ k.T * scale_of(q.shape[1])) @ v  # (L, d_v)
    return impl


def _sa_cases(rng: np.random.Generator) -> list[tuple]:
    return [tuple(rng.standard_normal(s) for s in ((length, dm), (dm, dk), (dm, dk), (dm, dv)))
            for length, dm, dk, dv in ((4, 5, 4, 3), (3, 4, 9, 2), (6, 3, 16, 4))]


E11_2 = Exercise(
    id="11.2", kind="code", skill="self-attention in NumPy",
    prompt=("Write self_attention(x, w_q, w_k, w_v) in NumPy: x is (L, d_model); project to Q, K, V, and return "
            "the (L, d_v) output softmax(Q Kᵀ / √d_k) V."),
    answer=Code("def self_attention(x, w_q, w_k, w_v):", "an (L, d_v) array", _sa_reference, _sa_cases),
    mistakes=[
        Mistake(Misconception("missing-scale", "the 1/√d_k factor forgotten",
                              "Divide the scores by √d_k (the width of Q and K).", SELF),
                impl=_sa_with_scale(lambda d: 1.0)),
        Mistake(Misconception("divide-by-dk", "divided by d_k instead of √d_k",
                              "The factor is 1/√d_k, not 1/d_k.", SELF), impl=_sa_with_scale(lambda d: 1.0 / d)),
    ],
    hint="q, k, v = x @ w_q, x @ w_k, x @ w_v; stable softmax of q @ k.T / sqrt(d_k) by rows; times v.",
    section=SELF,
)

Y_HAT = np.array([0.5, -1.0, 2.0, 0.0])
TARGET = np.array([0.0, 0.0, 1.0, 1.0])


def _mse_grad() -> np.ndarray:
    """dL/dŷ of L = mean((ŷ − t)²), as ``scratch.LinearPredictor.backward`` takes it."""
    return 2.0 * (Y_HAT - TARGET) / Y_HAT.shape[0]


E11_3 = Exercise(
    id="11.3", kind="compute", skill="the gradient of the mean squared error",
    prompt=(f"The loss is L = mean((ŷ − t)²) over {Y_HAT.size} outputs, with ŷ = {fmt(Y_HAT, 1)} and "
            f"t = {fmt(TARGET, 1)}. Enter dL/dŷ (4 numbers)."),
    answer=Numeric(_mse_grad, tol=5e-4, expect="4 numbers"),
    mistakes=[
        Mistake(Misconception("forgot-two", "the factor 2 of the square forgotten",
                              "d(u²)/du = 2u.", BACKPROP), value=lambda: (Y_HAT - TARGET) / Y_HAT.shape[0]),
        Mistake(Misconception("forgot-mean", "the 1/n of the mean forgotten",
                              "The mean divides by the number of outputs, and so does its gradient.", BACKPROP),
                value=lambda: 2.0 * (Y_HAT - TARGET)),
        Mistake(Misconception("sign-flipped", "the sign flipped",
                              "The gradient points where the loss grows: 2(ŷ − t)/n, not 2(t − ŷ)/n.", BACKPROP),
                value=lambda: -_mse_grad()),
    ],
    hint="dL/dŷᵢ = 2(ŷᵢ − tᵢ) / n.",
    section=BACKPROP, why="Each output is pushed in proportion to its error.",
)

E11_4 = Exercise(
    id="11.4", kind="predict", skill="attention without positions is permutation-equivariant",
    prompt=("Predict, then run: with no positional encoding, the rows of x are shuffled (a permutation P). What "
            "happens to the output rows of self-attention?"),
    answer=Choice([("a", "They are shuffled the same way (P applied to the output)."),
                   ("b", "They do not change at all."), ("c", "They change into different vectors."),
                   ("d", "Every row becomes the mean of the inputs.")], "a"),
    mistakes=[
        Mistake(Misconception("outputs-identical", "the outputs stay in place",
                              "Each output row belongs to its token; when the tokens move, their rows move.", ORDER),
                option="b"),
        Mistake(Misconception("sees-order", "attention sees word order",
                              "Without positions every token sees the same set of vectors: its own output "
                              "vector is unchanged, only its place moves.", ORDER), option="c"),
    ],
    hint="Which numbers does token i's output depend on? Does any of them encode where token i is?",
    section=ORDER, why="Self-attention without positions is permutation-equivariant.",
)

EXERCISES = [E11_1, E11_2, E11_3, E11_4]
