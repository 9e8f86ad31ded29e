"""Numerically stable softmax with a temperature, for torch tensors and NumPy arrays.

Chapters: "Softmax", "Why divide by √d_k", and every chapter that normalises scores.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import torch

from ._checks import backend_of, check_floating, check_positive

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
    backend = backend_of(x, "x")
    check_floating(x, "x")
    t = check_positive(temperature, "temperature")
    if x.ndim == 0:
        raise ValueError("x must have at least 1 dimension, got a 0-d scalar")
    if x.shape[dim] == 0:
        raise ValueError(f"softmax over an empty dimension {dim} of shape {tuple(x.shape)}")
    if backend == "torch":
        return _softmax_torch(x, dim, t)
    return _softmax_numpy(x, dim, t)


def _softmax_torch(x: torch.Tensor, dim: int, t: float) -> torch.Tensor:
    if bool(torch.isnan(x).any()) or bool(torch.isposinf(x).any()):
        raise ValueError(f"x contains NaN or +inf (shape {tuple(x.shape)})")
    work = x.float() if x.dtype in _LOW_PRECISION else x
    z = work / t
    m = z.amax(dim=dim, keepdim=True)
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))  # all -inf slice
    e = torch.exp(z - m)
    s = e.sum(dim=dim, keepdim=True)
    out = e / torch.where(s > 0, s, torch.ones_like(s))
    return out.to(x.dtype)


def _softmax_numpy(x: np.ndarray, dim: int, t: float) -> np.ndarray:
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError(f"x contains NaN or +inf (shape {tuple(x.shape)})")
    work = x.astype(np.float32) if x.dtype == np.float16 else x
    z = work / t
    m = np.max(z, axis=dim, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(z - m)
    s = np.sum(e, axis=dim, keepdims=True)
    out = e / np.where(s > 0, s, 1.0)
    return out.astype(x.dtype, copy=False)


def naive_softmax(x: np.ndarray, dim: int = -1) -> np.ndarray:
    """The textbook ``exp(x) / sum(exp(x))`` with no max subtraction.

    Kept only to show, in the "Softmax" chapter, how it overflows for large logits.
    NumPy warnings about the overflow are silenced; the NaN it returns is the lesson.
    """
    backend_of(x, "x")
    check_floating(x, "x")
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x)
        return e / np.sum(e, axis=dim, keepdims=True)
