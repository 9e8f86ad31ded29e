"""Hand-derived gradients of one self-attention layer with a readout and a cross-entropy loss, in
float64 NumPy, with torch autograd and central finite differences to check them.

The layer (rows are tokens)::

    Q = X W_Q,  K = X W_K,  V = X W_V                       # (n, d_k), (n, d_k), (n, d_v)
    Z = Q Kᵀ / √d_k,  A = softmax(Z) row by row,  C = A V   # (n, n), (n, n), (n, d_v)
    logits = C W_c,  L = mean over rows of −log softmax(logits)[target]

Backward, from the loss to the three projections::

    dlogits = (softmax(logits) − onehot(target)) / n        # (n, c)
    dC = dlogits W_cᵀ,  dW_c = Cᵀ dlogits
    dV = Aᵀ dC,  dA = dC Vᵀ
    dZ = A ⊙ (dA − rowsum(dA ⊙ A))    # each row times the softmax Jacobian diag(a) − a aᵀ
    dQ = dZ K / √d_k,  dK = dZᵀ Q / √d_k
    dW_Q = Xᵀ dQ,  dW_K = Xᵀ dK,  dW_V = Xᵀ dV

Chapter: "Attention that learns" (book/17_learning.ipynb). Chapter 10 stops at W_V; this module
carries the gradient on through the softmax into W_Q and W_K.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import NamedTuple

import numpy as np
import torch

from .._validate import require_positive, require_positive_int
from ..attention import scaled_dot_product_attention
from ..attention_np import scaled_dot_product_attention_np
from ..softmax import softmax
from .checks import as_finite_array, make_generator

#: The parameters of the layer, in the order the gradient dictionaries use.
PARAMS = ("w_q", "w_k", "w_v", "w_c")


class Forward(NamedTuple):
    """What the forward pass keeps for the backward pass (float64 arrays)."""

    q: np.ndarray  # (n, d_k)
    k: np.ndarray  # (n, d_k)
    v: np.ndarray  # (n, d_v)
    weights: np.ndarray  # (n, n), the attention matrix A
    context: np.ndarray  # (n, d_v), C = A V
    probs: np.ndarray  # (n, c), softmax of the logits
    loss: float


def _validate_layer(x: np.ndarray, params: Mapping[str, np.ndarray], targets: np.ndarray) -> tuple[
        np.ndarray, dict[str, np.ndarray], np.ndarray]:
    x = as_finite_array(x, "x", ndim=2, non_empty=True, ndarray_only=True)  # (n, d_in)
    if not isinstance(params, Mapping) or set(params) != set(PARAMS):
        got = sorted(params) if isinstance(params, Mapping) else type(params).__name__
        raise ValueError(f"params must be a mapping with keys {list(PARAMS)}, got {got}")
    p = {name: as_finite_array(params[name], name, ndim=2, non_empty=True) for name in PARAMS}
    n, d_in = x.shape
    for name in ("w_q", "w_k", "w_v"):
        if p[name].ndim != 2 or p[name].shape[0] != d_in:
            raise ValueError(f"{name} must have shape ({d_in}, d), got {p[name].shape} (x has shape {x.shape})")
    if p["w_q"].shape != p["w_k"].shape:
        raise ValueError(f"w_q and w_k must have the same shape, got {p['w_q'].shape} and {p['w_k'].shape}")
    if p["w_c"].ndim != 2 or p["w_c"].shape[0] != p["w_v"].shape[1]:
        raise ValueError(f"w_c must have shape (d_v, classes) = ({p['w_v'].shape[1]}, c), got {p['w_c'].shape}")
    t = np.asarray(targets)
    if t.shape != (n,) or not np.issubdtype(t.dtype, np.integer) or (t < 0).any() or (t >= p["w_c"].shape[1]).any():
        raise ValueError(f"targets must be {n} integer class ids in [0, {p['w_c'].shape[1]}), got shape {t.shape} "
                         f"and values {t.tolist() if t.size <= 10 else '...'}")
    return x, p, t


def forward(x: np.ndarray, params: Mapping[str, np.ndarray], targets: np.ndarray) -> Forward:
    """The layer's forward pass and its mean cross-entropy loss (float64). Chapter "Attention that learns"."""
    x, p, t = _validate_layer(x, params, targets)
    q = x @ p["w_q"]  # (n, d_k)
    k = x @ p["w_k"]  # (n, d_k)
    v = x @ p["w_v"]  # (n, d_v)
    context, weights = scaled_dot_product_attention_np(q, k, v)  # (n, d_v), (n, n)
    logits = context @ p["w_c"]  # (n, c)
    probs = softmax(logits, dim=-1)  # (n, c)
    loss = float(-np.mean(np.log(probs[np.arange(len(t)), t])))
    return Forward(q, k, v, weights, context, probs, loss)


def manual_gradients(x: np.ndarray, params: Mapping[str, np.ndarray], targets: np.ndarray) -> dict[str, np.ndarray]:
    """∂L/∂W_Q, ∂L/∂W_K, ∂L/∂W_V and ∂L/∂W_c by the chain rule written out (module docstring).

    Returns float64 arrays keyed like ``params``. Chapter "Attention that learns".
    """
    x, p, t = _validate_layer(x, params, targets)
    f = forward(x, p, t)
    n, d_k = f.q.shape
    scale = 1.0 / math.sqrt(d_k)
    dlogits = f.probs.copy()
    dlogits[np.arange(n), t] -= 1.0
    dlogits /= n  # (n, c)
    d_context = dlogits @ p["w_c"].T  # (n, d_v)
    dv = f.weights.T @ d_context  # (n, d_v)
    da = d_context @ f.v.T  # (n, n)
    dz = f.weights * (da - np.sum(da * f.weights, axis=-1, keepdims=True))  # (n, n), rows times diag(a) − a aᵀ
    dq = dz @ f.k * scale  # (n, d_k)
    dk = dz.T @ f.q * scale  # (n, d_k)
    return {
        "w_q": x.T @ dq,  # (d_in, d_k)
        "w_k": x.T @ dk,  # (d_in, d_k)
        "w_v": x.T @ dv,  # (d_in, d_v)
        "w_c": f.context.T @ dlogits,  # (d_v, c)
    }


def autograd_gradients(x: np.ndarray, params: Mapping[str, np.ndarray], targets: np.ndarray) -> dict[str, np.ndarray]:
    """The same gradients from torch autograd (float64), through attnlib's torch attention."""
    x, p, t = _validate_layer(x, params, targets)
    xt = torch.from_numpy(x)
    w = {name: torch.from_numpy(arr.copy()).requires_grad_(True) for name, arr in p.items()}
    context, _ = scaled_dot_product_attention(xt @ w["w_q"], xt @ w["w_k"], xt @ w["w_v"])  # (n, d_v)
    logits = context @ w["w_c"]  # (n, c)
    loss = torch.nn.functional.cross_entropy(logits, torch.from_numpy(t.astype(np.int64)))
    loss.backward()
    return {name: w[name].grad.numpy() for name in PARAMS}


def numerical_gradients(
    x: np.ndarray, params: Mapping[str, np.ndarray], targets: np.ndarray, *, eps: float = 1e-6
) -> dict[str, np.ndarray]:
    """Central finite differences ``(L(w + ε) − L(w − ε)) / 2ε``, one entry at a time (float64)."""
    eps = require_positive(eps, "eps")
    x, p, t = _validate_layer(x, params, targets)
    out = {}
    for name in PARAMS:
        grad = np.zeros_like(p[name])
        for idx in np.ndindex(*p[name].shape):
            moved = {k: v.copy() for k, v in p.items()}
            moved[name][idx] += eps
            up = forward(x, moved, t).loss
            moved[name][idx] -= 2 * eps
            grad[idx] = (up - forward(x, moved, t).loss) / (2 * eps)
        out[name] = grad
    return out


def relative_error(a: np.ndarray, b: np.ndarray) -> float:
    """``‖a − b‖ / max(‖a‖, ‖b‖)`` (Frobenius), 0 when both are 0. Chapter "Attention that learns"."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape, got {a.shape} and {b.shape}")
    scale = max(float(np.linalg.norm(a)), float(np.linalg.norm(b)))
    return 0.0 if scale == 0 else float(np.linalg.norm(a - b)) / scale


def random_layer(
    n: int = 5, d_in: int = 4, d_k: int = 3, d_v: int = 3, classes: int = 2, *, seed: int = 0
) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray]:
    """A seeded example for the checks: inputs ``x`` (n, d_in), the four weight matrices and targets."""
    for name, value in (("n", n), ("d_in", d_in), ("d_k", d_k), ("d_v", d_v), ("classes", classes)):
        require_positive_int(value, name)
    rng = make_generator(seed)
    x = rng.standard_normal((n, d_in))
    shapes = {"w_q": (d_in, d_k), "w_k": (d_in, d_k), "w_v": (d_in, d_v), "w_c": (d_v, classes)}
    params = {name: rng.standard_normal(shape) for name, shape in shapes.items()}
    return x, params, rng.integers(0, classes, size=n)


def gradient_check(
    x: np.ndarray, params: Mapping[str, np.ndarray], targets: np.ndarray,
    methods: Mapping[str, Callable[..., dict[str, np.ndarray]]] | None = None,
) -> dict[str, dict[str, float]]:
    """Relative error of the hand-derived gradients against autograd and finite differences, per
    parameter: ``{"autograd": {"w_q": ...}, "finite differences": {...}}``."""
    manual = manual_gradients(x, params, targets)
    methods = methods or {"autograd": autograd_gradients, "finite differences": numerical_gradients}
    out = {}
    for label, fn in methods.items():
        other = fn(x, params, targets)
        out[label] = {name: relative_error(manual[name], other[name]) for name in PARAMS}
    return out
