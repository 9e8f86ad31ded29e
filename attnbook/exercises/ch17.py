"""Exercises of chapter 17, "Attention that learns"."""

from __future__ import annotations

import math

import numpy as np
import torch

from attnlib import softmax
from attnlib.scaling import softmax_jacobian

from ._core import Choice, Code, Exercise, FindError, Misconception, Mistake, Numeric, Section, fmt
from ._helpers import randn

CH = "17_learning"
GRADS = Section(CH, "Gradients into $W_Q$ and $W_K$")


def _jvp(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    return (softmax_jacobian(a) @ g[..., None])[..., 0]  # (rows, n): each row times its J = diag(a) − a aᵀ


def _jvp_no_outer(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    return a * g  # (rows, n): diag(a) only


def _jvp_identity(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    return g.copy()  # (rows, n): the softmax skipped


def _jvp_column_dot(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    return a * (g - (a * g).sum(axis=0, keepdims=True))  # (rows, n): a·g summed down the columns


def _jvp_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    for rows, n in ((2, 3), (3, 3), (4, 5)):
        a = softmax(rng.standard_normal((rows, n)) * 1.5, dim=-1)  # (rows, n), each row sums to 1
        cases.append((a, rng.standard_normal((rows, n))))
    return cases


E17_1 = Exercise(
    id="17.1", kind="code", skill="the softmax backward, one line per row",
    prompt=("Write softmax_backward(a, g): a is (rows, n), each row the softmax of a row of scores; g = dL/da, "
            "same shape. Return dL/ds, the gradient on the scores, (rows, n), without building the n × n "
            "Jacobian."),
    answer=Code("def softmax_backward(a, g):", "a (rows, n) array", _jvp, _jvp_cases),
    mistakes=[
        Mistake(Misconception("jacobian-missing-outer", "the Jacobian without its −a aᵀ term",
                              "J = diag(a) − a aᵀ: subtract the weighted mean a·g inside, a ⊙ (g − a·g).", GRADS),
                impl=_jvp_no_outer),
        Mistake(Misconception("softmax-skipped", "the gradient passed through the softmax unchanged",
                              "The softmax has a Jacobian too: dL/ds = J dL/da, not dL/da.", GRADS),
                impl=_jvp_identity),
        Mistake(Misconception("dot-wrong-axis", "a·g summed over the wrong axis",
                              "The weighted mean is per row: sum over the last axis, keepdims=True.", GRADS),
                impl=_jvp_column_dot),
    ],
    hint="a * (g - (a * g).sum(axis=-1, keepdims=True)).",
    section=GRADS, why="Each row of the result sums to 0: a shift of all scores changes no weight.",
)


def _gwq(x: torch.Tensor, k: torch.Tensor, grad_s: torch.Tensor) -> torch.Tensor:
    w_q = torch.zeros(x.shape[1], k.shape[1], dtype=x.dtype, requires_grad=True)  # S is linear in W_Q
    with torch.enable_grad():
        scores = (x @ w_q) @ k.T / math.sqrt(k.shape[1])  # (n, n)
        (scores * grad_s).sum().backward()  # autograd, not the formula
    return w_q.grad  # (d_in, d_k)


def _gwq_transposed(x, k, grad_s):  # noqa: ANN001, ANN202
    return _gwq(x, k, grad_s).T  # (d_k, d_in)


def _gwq_no_scale(x, k, grad_s):  # noqa: ANN001, ANN202
    return _gwq(x, k, grad_s) * math.sqrt(k.shape[1])  # (d_in, d_k)


def _gwq_key_side(x, k, grad_s):  # noqa: ANN001, ANN202
    return _gwq(x, k, grad_s.T.contiguous())  # (d_in, d_k): dSᵀ, the formula of the key side


def _gwq_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, n, d_in), randn(rng, n, d_k), randn(rng, n, n)) for n, d_in, d_k in ((3, 4, 2), (5, 3, 4), (4, 6, 3))]


E17_2 = Exercise(
    id="17.2", kind="code", skill="the gradient of W_Q",
    prompt=("Write grad_w_q(x, k, grad_s): x is (n, d_in), k = x W_K is (n, d_k), and grad_s = dL/dS is (n, n), "
            "the gradient on the scaled scores S = (x W_Q) kᵀ / √d_k. Return dL/dW_Q, shape (d_in, d_k)."),
    answer=Code("def grad_w_q(x, k, grad_s):", "a (d_in, d_k) tensor", _gwq, _gwq_cases),
    mistakes=[
        Mistake(Misconception("gradient-transposed", "the gradient transposed, (d_k, d_in)",
                              "dL/dW_Q has the shape of W_Q: xᵀ (dL/dQ), with dL/dQ = grad_s k / √d_k.", GRADS),
                impl=_gwq_transposed),
        Mistake(Misconception("missing-scale", "the 1/√d_k forgotten",
                              "S carries the factor 1/√d_k, so its gradient does too.", GRADS), impl=_gwq_no_scale),
        Mistake(Misconception("key-side", "grad_sᵀ used, the key side's formula",
                              "Row i of S belongs to query i: dL/dQ = grad_s k / √d_k (dL/dK uses grad_sᵀ).",
                              GRADS), impl=_gwq_key_side),
    ],
    hint="dL/dQ = grad_s @ k / √d_k, then dL/dW_Q = x.T @ dL/dQ.",
    section=GRADS,
)

_ROW = np.array([0.5, 0.3, 0.2])
_C = 2.0
_FLAT = _jvp(_ROW[None], np.full((1, 3), _C))[0]  # (3,): J applied to a constant vector

E17_3 = Exercise(
    id="17.3", kind="predict", skill="a uniform upstream gradient",
    prompt=(f"Predict: a row of weights a = {fmt(_ROW, 1)} gets an upstream gradient dL/da with every entry equal "
            f"to {_C:g}. What is dL/ds, the gradient on the scores?"),
    answer=Choice([("a", "the zero vector"), ("b", f"{_C:g} · a"), ("c", f"{_C:g} in every entry"),
                   ("d", f"{_C:g} · (1 − a)")],
                  "a" if np.allclose(_FLAT, 0) else "?"),
    mistakes=[
        Mistake(Misconception("jacobian-missing-outer", "the Jacobian without its −a aᵀ term",
                              "J = diag(a) − a aᵀ: J applied to a constant vector is c·a − c·a = 0.", GRADS),
                option="b"),
        Mistake(Misconception("softmax-skipped", "the gradient passed through the softmax unchanged",
                              "The softmax has a Jacobian: the rows of J sum to 0.", GRADS), option="c"),
    ],
    hint="What happens to the weights when every score moves by the same amount?",
    section=GRADS, why="Adding the same number to every score changes no weight, so no gradient flows along (1, …, 1).",
)

_A = np.array([0.5, 0.3, 0.2])
_G = np.array([2.0, 1.0, 0.0])
_DOT = float(_A @ _G)
_DOT_SLIP = float(_G.mean())  # the slip: the plain mean of g, not the weighted one
_DS_SLIP = _A * (_G - _DOT_SLIP)

E17_4 = Exercise(
    id="17.4", kind="find-error", skill="the softmax backward, by hand",
    prompt=(f"A row of weights a = {fmt(_A, 1)} receives dL/da = g = {fmt(_G, 1)}. A reader computes dL/ds = "
            "a ⊙ (g − a·g) by hand; one step has a slip. Which step, and what is the right value of the number it "
            "got wrong (3 decimals)?"),
    answer=FindError(
        steps=[("a", f"a·g = {_DOT_SLIP:.3f}"),
               ("b", f"g − a·g = {fmt(_G - _DOT_SLIP, 3)}"),
               ("c", f"dL/ds = a ⊙ (g − a·g) = {fmt(_DS_SLIP, 3)}"),
               ("d", f"the entries of dL/ds sum to {_DS_SLIP.sum():.3f}")],
        wrong_step="a", value=Numeric(lambda: _A @ _G, tol=5e-4, expect="one number"),
        value_hint="Step a is the one: a·g weights each entry of g by a."),
    mistakes=[
        Mistake(Misconception("blamed-the-result", "the step that shows the slip, not the one that made it",
                              "Steps b and c use correctly the number step a gave them; a sum other than 0 (step "
                              "d) is the symptom.", GRADS), option="c"),
        Mistake(Misconception("sum-need-not-vanish", "a row of dL/ds that need not sum to 0",
                              "Step d only reports the sum; that it is not 0 shows the slip is earlier.", GRADS),
                option="d"),
        Mistake(Misconception("plain-mean", "the plain mean of g",
                              "That is the slip itself: a·g weights g by the attention weights.", GRADS),
                value=lambda: _DOT_SLIP),
        Mistake(Misconception("sum-of-g", "the sum of g",
                              "a·g = Σ aᵢ gᵢ, each entry times its weight.", GRADS), value=lambda: _G.sum()),
    ],
    hint="Check each step; the entries of dL/ds must sum to 0.",
    section=GRADS, why="With a·g right, dL/ds sums to 0, as every softmax gradient does.",
)

EXERCISES = [E17_1, E17_2, E17_3, E17_4]
