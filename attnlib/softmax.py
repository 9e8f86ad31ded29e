"""Numerically stable softmax with a temperature, for torch tensors and NumPy arrays.

Chapters: "Softmax", "Why divide by √d_k", and every chapter that normalises scores.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import torch

from ._validate import backend_of, require_floating, require_positive

#: A torch tensor or a NumPy array: functions typed with it return the same kind they are given.
ArrayT = TypeVar("ArrayT", torch.Tensor, np.ndarray)

_LOW_PRECISION = (torch.float16, torch.bfloat16)


def softmax(x: ArrayT, dim: int = -1, *, temperature: float = 1.0) -> ArrayT:
    """Softmax of ``x / temperature`` along ``dim``, computed stably.

    The row maximum is subtracted before ``exp`` so logits of ±1e4 stay finite.
    float16 and bfloat16 inputs are computed in float32 and cast back.

    ``-inf`` entries mean "excluded" and get weight exactly 0. A slice that is
    entirely ``-inf`` has nothing to normalise and returns all zeros (never NaN).
    NaN or ``+inf`` inputs raise ``ValueError``.

    Returns the same type (tensor or array) and dtype as ``x``.
    Used in: "Softmax", "Why divide by √d_k".
    """
    backend_of(x, "x")
    require_floating(x, "x")
    t = require_positive(temperature, "temperature")
    if x.ndim == 0:
        raise ValueError("x must have at least 1 dimension, got a 0-d scalar")
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise TypeError(f"dim must be an int, got {type(dim).__name__} {dim!r}")
    if not -x.ndim <= dim < x.ndim:
        raise ValueError(f"dim {dim} is out of range for x of shape {tuple(x.shape)} "
                         f"(a {x.ndim}-d input has dims {-x.ndim}..{x.ndim - 1})")
    if x.shape[dim] == 0:
        raise ValueError(f"softmax over an empty dimension {dim} of shape {tuple(x.shape)}")
    return softmax_unchecked(x, dim, temperature=t)


def softmax_unchecked(x: ArrayT, dim: int = -1, *, temperature: float = 1.0) -> ArrayT:
    """The arithmetic of :func:`softmax` without its input checks, for callers that checked ``x``
    already (the attention functions, after ``validate_qkv``): a torch tensor or NumPy array of a
    floating dtype, ``dim`` in range, ``temperature > 0``. NaN or ``+inf`` still raise. Used by
    ``attnlib.attention`` and ``attnlib.attention_np``.
    """
    if isinstance(x, torch.Tensor):
        return _softmax_torch(x, dim, temperature)
    return _softmax_numpy(x, dim, temperature)


def _softmax_torch(x: torch.Tensor, dim: int, t: float) -> torch.Tensor:
    work = x.float() if x.dtype in _LOW_PRECISION else x
    z = work if t == 1.0 else work / t  # skip a full pass over x at the default temperature
    # The softmax is the same whatever is subtracted, so its gradient through m is zero: m is a
    # constant to autograd (as in fused kernels), which spares a backward pass over x for it.
    m = z.detach().amax(dim=dim, keepdim=True)
    _validate_max(bool(torch.isnan(m).any()) or bool(torch.isposinf(m).any()), x, t)
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))  # all -inf slice
    e = (z - m).exp_()  # exp in place on the fresh difference: one large temporary, not two
    s = e.sum(dim=dim, keepdim=True)
    s = torch.where(s > 0, s, torch.ones_like(s))
    # autograd keeps e for the backward of exp, so divide in place only when no gradient is tracked
    out = e / s if e.requires_grad else e.div_(s)
    return out.to(x.dtype)


def _softmax_numpy(x: np.ndarray, dim: int, t: float) -> np.ndarray:
    work = x.astype(np.float32) if x.dtype == np.float16 else x
    with np.errstate(over="ignore"):  # an overflow to inf is reported by _validate_max below
        z = work if t == 1.0 else work / t
    m = np.max(z, axis=dim, keepdims=True)
    _validate_max(bool(np.isnan(m).any() or np.isposinf(m).any()), x, t)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(z - m)
    s = np.sum(e, axis=dim, keepdims=True)
    out = e / np.where(s > 0, s, 1.0)
    return out.astype(x.dtype, copy=False)


def _validate_max(bad: bool, x: torch.Tensor | np.ndarray, t: float) -> None:
    """Raise if a slice max is NaN or +inf.

    The max of a slice is NaN if the slice holds a NaN (``amax``/``np.max`` propagate NaN) and +inf
    if it holds +inf, so checking the small tensor of maxima is the same test as scanning all of
    ``x`` — without two extra passes over it ("Attention at scale" measures what they cost).
    """
    if bad:
        raise ValueError(
            f"x contains NaN or +inf (shape {tuple(x.shape)})"
            + ("" if t == 1.0 else f", or x / temperature overflows (temperature {t})")
        )
