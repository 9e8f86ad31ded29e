"""Scaled dot-product attention: one entry point, a torch backend and a float64 NumPy twin.

Chapters: "Dot products and the magnitude problem", the worked examples, "Attention in PyTorch".
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

from ._checks import backend_of, check_finite, check_floating, check_min_ndim, check_positive
from .softmax import ArrayT, softmax


def validate_qkv(q: Any, k: Any, v: Any, *, mask: Any = None, scale: Any = None) -> tuple[str, float, Any]:
    """Check q, k, v, mask and scale; return ``(backend, scale, mask)`` with the mask as a bool
    tensor/array of the same backend as q (or ``None``).

    Every attention function in attnlib (readable, NumPy twin, chunked) calls this, so they all
    reject bad input with the same messages.
    """
    backend = backend_of(q, "q")
    for name, x in (("k", k), ("v", v)):
        if backend_of(x, name) != backend:
            raise TypeError(
                f"q, k and v must all be torch tensors or all numpy arrays; q is "
                f"{type(q).__name__} but {name} is {type(x).__name__}"
            )
    for name, x in (("q", q), ("k", k), ("v", v)):
        check_min_ndim(x, name)
        check_floating(x, name)
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            f"q and k must share d_k (last dimension): q has shape {tuple(q.shape)}, "
            f"k has shape {tuple(k.shape)}"
        )
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(
            f"k and v must have the same number of positions n (dimension -2): "
            f"k has shape {tuple(k.shape)}, v has shape {tuple(v.shape)}"
        )
    for name, x in (("q", q), ("k", k), ("v", v)):
        if x.shape[-2] == 0 or x.shape[-1] == 0:
            raise ValueError(f"{name} is empty: shape {tuple(x.shape)} (sequence and feature sizes must be > 0)")
    lead = [tuple(x.shape[:-2]) for x in (q, k, v)]
    try:
        np.broadcast_shapes(*lead)
    except ValueError:
        raise ValueError(
            f"the leading (batch/head) dimensions of q, k and v do not broadcast: "
            f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}"
        ) from None
    for name, x in (("q", q), ("k", k), ("v", v)):
        check_finite(x, name)
    d_k = q.shape[-1]
    scale = 1.0 / math.sqrt(d_k) if scale is None else check_positive(scale, "scale")
    if mask is not None:
        mask = _as_mask(mask, backend, q.device if backend == "torch" else None)
        target = np.broadcast_shapes(*lead) + (q.shape[-2], k.shape[-2])
        try:
            full = np.broadcast_shapes(tuple(mask.shape), target)
        except ValueError:
            full = None
        if full != target:
            raise ValueError(
                f"mask of shape {tuple(mask.shape)} does not broadcast to (..., n_q, n_k) = {target}"
            )
    return backend, scale, mask


def _as_mask(mask: Any, backend: str, device: Any) -> Any:
    """Return ``mask`` as a boolean tensor/array of ``backend``; reject non-bool masks."""
    if isinstance(mask, torch.Tensor):
        if mask.dtype != torch.bool:
            raise ValueError(f"mask must be boolean (True = may attend), got dtype {mask.dtype}")
        return mask.to(device) if backend == "torch" else mask.cpu().numpy()
    if isinstance(mask, np.ndarray):
        if mask.dtype != np.bool_:
            raise ValueError(f"mask must be boolean (True = may attend), got dtype {mask.dtype}")
        return torch.from_numpy(mask).to(device) if backend == "torch" else mask
    raise TypeError(f"mask must be a torch.Tensor or numpy.ndarray of bools, got {type(mask).__name__}")


def scaled_dot_product_attention(
    q: ArrayT, k: ArrayT, v: ArrayT, *, mask: Any = None, scale: float | None = None
) -> tuple[ArrayT, ArrayT]:
    """``softmax(q kᵀ · scale) v`` and the attention weights.

    Shapes: ``q`` is ``(..., n_q, d_k)``, ``k`` is ``(..., n_k, d_k)``, ``v`` is ``(..., n_k, d_v)``;
    any leading batch/head dimensions that broadcast. Returns ``(output, weights)`` with shapes
    ``(..., n_q, d_v)`` and ``(..., n_q, n_k)``.

    * Torch tensors in → torch tensors out (float16/bfloat16 are computed in float32 and cast back).
      NumPy arrays in → float64 NumPy arrays out (the reference twin, see ``attention_np``).
    * ``scale`` defaults to ``1/√d_k``.
    * ``mask`` is boolean, True = may attend, broadcastable to ``(..., n_q, n_k)``.
    * **Fully masked rows:** a query whose mask row is all False attends to nothing. Its weights are
      all exactly 0 and its output row is exactly 0 — never NaN, never a uniform average.
    * NaN or Inf in q, k or v raises ``ValueError``; so do bad shapes, empty sequences and
      non-floating dtypes. Inputs that are not tensors/arrays raise ``TypeError``.

    Used in: "Dot products and the magnitude problem", "Attention in PyTorch" and the worked examples.
    """
    backend, s, mask = validate_qkv(q, k, v, mask=mask, scale=scale)
    if backend == "numpy":
        from .attention_np import _attention_numpy

        return _attention_numpy(q, k, v, mask, s)
    return _attention_torch(q, k, v, mask, s)


def _attention_torch(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None, scale: float
) -> tuple[torch.Tensor, torch.Tensor]:
    out_dtype = torch.promote_types(torch.promote_types(q.dtype, k.dtype), v.dtype)
    work = torch.float32 if out_dtype in (torch.float16, torch.bfloat16) else out_dtype
    q, k, v = q.to(work), k.to(work), v.to(work)
    scores = q @ k.transpose(-2, -1)  # (..., n_q, n_k)
    scores.mul_(scale)  # in place: the same numbers as scores * scale, without a second n_q × n_k matrix
    if mask is not None:
        scores.masked_fill_(~mask, float("-inf"))  # excluded keys get weight exactly 0
    weights = softmax(scores, dim=-1)  # (..., n_q, n_k); an all -inf row gives zeros
    output = weights @ v  # (..., n_q, d_v)
    return output.to(out_dtype), weights.to(out_dtype)
