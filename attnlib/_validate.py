"""Input validation of the core's public doors (softmax, attention, chunked, positions, the modules'
constructors): the checks they share, so that they refuse bad input with the same messages. The
inner calls trust what passed a door; the modules' own input checks sit beside them (``modules``),
and the companions' in ``attnlib.companions.checks``.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import torch

Backend = Literal["torch", "numpy"]


def backend_of(x: Any, name: str) -> Backend:
    """Return ``"torch"`` or ``"numpy"`` for ``x``; raise ``TypeError`` for anything else."""
    if isinstance(x, torch.Tensor):
        return "torch"
    if isinstance(x, np.ndarray):
        return "numpy"
    raise TypeError(f"{name} must be a torch.Tensor or a numpy.ndarray, got {type(x).__name__}")


def require_floating(x: torch.Tensor | np.ndarray, name: str) -> None:
    """Raise ``ValueError`` unless ``x`` has a real floating dtype."""
    ok = x.is_floating_point() if isinstance(x, torch.Tensor) else np.issubdtype(x.dtype, np.floating)
    if not ok:
        raise ValueError(f"{name} must have a floating dtype, got {x.dtype} with shape {tuple(x.shape)}")


def require_finite(x: torch.Tensor | np.ndarray, name: str) -> None:
    """Raise ``ValueError`` if ``x`` holds NaN or ±Inf (attnlib never returns a silent NaN)."""
    if isinstance(x, torch.Tensor) and x.is_floating_point() and x.numel() > 0:
        # one read-only pass: the smallest and largest value are finite exactly when every value is
        # (NaN propagates through both); torch.isfinite(x).all() would first write an x-sized mask
        lo, hi = torch.aminmax(x.detach())
        bad = not (math.isfinite(lo.item()) and math.isfinite(hi.item()))
    elif isinstance(x, torch.Tensor):
        bad = not bool(torch.isfinite(x).all())
    else:
        bad = not bool(np.isfinite(x).all())
    if bad:
        raise ValueError(f"{name} contains NaN or Inf (shape {tuple(x.shape)}); attnlib rejects "
                         "non-finite inputs instead of propagating NaN")


def require_min_ndim(x: torch.Tensor | np.ndarray, name: str, ndim: int = 2) -> None:
    if x.ndim < ndim:
        raise ValueError(f"{name} must have at least {ndim} dimensions (..., n, d), got shape {tuple(x.shape)}")


def require_positive(value: Any, name: str) -> float:
    """Return ``value`` as a float; raise unless it is a finite number > 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value}")
    return value


def require_positive_int(value: Any, name: str) -> int:
    """Return ``value``; raise unless it is an ``int`` > 0 (bools are rejected)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}")
    return int(value)


# --- attention inputs: q, k, v, mask, scale and the options of every attention function ------------
# (validate_qkv and its helpers; the readable path, the NumPy twin and chunked attention all call it,
# so they accept the same inputs and reject bad ones with the same messages)

Alignment = Literal["top_left", "bottom_right"]
ALIGNMENTS: tuple[str, ...] = ("top_left", "bottom_right")


def require_alignment(alignment: Any) -> Alignment:
    """Return ``alignment`` if it is ``"top_left"`` or ``"bottom_right"``; raise otherwise."""
    if not isinstance(alignment, str):
        raise TypeError(f"causal_alignment must be a str, got {type(alignment).__name__}")
    if alignment not in ALIGNMENTS:
        raise ValueError(f"causal_alignment must be 'top_left' or 'bottom_right', got {alignment!r}")
    return alignment  # type: ignore[return-value]


def require_bool(value: Any, name: str) -> bool:
    """Return ``value``; raise ``TypeError`` unless it is a ``bool``."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return bool(value)


def require_probability(p: Any, name: str) -> float:
    """Return ``p`` as a float; raise unless it is a real number in ``[0, 1)`` (a dropout rate)."""
    if isinstance(p, bool) or not isinstance(p, (int, float, np.floating, np.integer)):
        raise TypeError(f"{name} must be a real number, got {type(p).__name__}")
    p = float(p)
    if not (0.0 <= p < 1.0):
        raise ValueError(f"{name} must be in [0, 1), got {p}")
    return p


def require_dropout(dropout_p: Any, generator: Any, backend: Backend) -> float:
    """Return ``dropout_p`` as a float in ``[0, 1)``; when it is > 0, ``generator`` must be a
    ``torch.Generator`` (torch inputs) or a ``numpy.random.Generator`` (NumPy inputs)."""
    p = require_probability(dropout_p, "dropout_p")
    if p > 0:
        want, shown = (torch.Generator, "torch.Generator") if backend == "torch" else (
            np.random.Generator, "numpy.random.Generator")
        if generator is None:
            raise ValueError(
                f"dropout_p={p} needs an explicit generator ({shown}) so that the dropped weights are "
                "reproducible; attnlib never draws from the global RNG"
            )
        if not isinstance(generator, want):
            raise TypeError(f"generator must be a {shown} for {backend} inputs, got {type(generator).__name__}")
    return p


def as_attention_mask(mask: Any, backend: Backend, device: Any) -> Any:
    """Return ``mask`` as a tensor/array of ``backend``: boolean (True = may attend) stays boolean,
    a floating mask is an additive bias (``-inf`` = may not attend). NaN or ``+inf`` in a floating
    mask raise ``ValueError``; integer masks raise (0/1 is ambiguous: is 1 "keep" or "add 1"?)."""
    if isinstance(mask, torch.Tensor):
        is_bool, is_float = mask.dtype == torch.bool, mask.is_floating_point()
    elif isinstance(mask, np.ndarray):
        is_bool, is_float = mask.dtype == np.bool_, np.issubdtype(mask.dtype, np.floating)
    else:
        raise TypeError(
            f"mask must be a torch.Tensor or numpy.ndarray (boolean, or floating additive), got {type(mask).__name__}"
        )
    if not (is_bool or is_float):
        raise ValueError(
            f"mask must be boolean (True = may attend) or floating (added to the scores), got dtype {mask.dtype}"
        )
    if is_float:
        bad = (torch.isnan(mask) | torch.isposinf(mask)) if isinstance(mask, torch.Tensor) else (
            np.isnan(mask) | np.isposinf(mask))
        if bool(bad.any()):
            raise ValueError(
                f"a floating mask may hold finite numbers and -inf only; it contains NaN or +inf "
                f"(shape {tuple(mask.shape)})"
            )
    if backend == "torch":
        return mask.to(device) if isinstance(mask, torch.Tensor) else torch.from_numpy(mask).to(device)
    return mask.cpu().numpy() if isinstance(mask, torch.Tensor) else mask


def validate_qkv(
    q: Any, k: Any, v: Any, *, mask: Any = None, scale: Any = None, enable_gqa: Any = False,
) -> tuple[Backend, float, Any]:
    """Check q, k, v, mask, scale and the GQA flag; return ``(backend, scale, mask)`` with the mask as
    a boolean or floating tensor/array of the same backend as q (or ``None``).

    With ``enable_gqa=True``, q's head axis (-3) must be a multiple of k's and v's (grouped-query and
    multi-query attention); the leading dimensions are then checked with k's and v's head axis
    widened to q's. Every attention function in attnlib (readable, NumPy twin, chunked) calls this,
    so they all reject bad input with the same messages.
    """
    backend = backend_of(q, "q")
    for name, x in (("k", k), ("v", v)):
        if backend_of(x, name) != backend:
            raise TypeError(
                f"q, k and v must all be torch tensors or all numpy arrays; q is "
                f"{type(q).__name__} but {name} is {type(x).__name__}"
            )
    for name, x in (("q", q), ("k", k), ("v", v)):
        require_min_ndim(x, name)
        require_floating(x, name)
    if backend == "torch" and not q.dtype == k.dtype == v.dtype:
        raise TypeError(
            f"q, k and v must have the same dtype, got q {q.dtype}, k {k.dtype}, v {v.dtype} "
            f"(as torch does, attnlib does not promote silently: convert with .to(dtype))"
        )
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
        if x.shape[-1] == 0:
            raise ValueError(f"{name} has no features: shape {tuple(x.shape)} (d_k and d_v must be > 0)")
    lead = [tuple(x.shape[:-2]) for x in (q, k, v)]
    if require_bool(enable_gqa, "enable_gqa"):
        lead = _gqa_lead(q, k, v)
    try:
        np.broadcast_shapes(*lead)
    except ValueError:
        raise ValueError(
            f"the leading (batch/head) dimensions of q, k and v do not broadcast: "
            f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}"
            + ("" if enable_gqa else "; for fewer key/value heads than query heads pass enable_gqa=True")
        ) from None
    for name, x in (("q", q), ("k", k), ("v", v)):
        require_finite(x, name)
    d_k = q.shape[-1]
    scale = 1.0 / math.sqrt(d_k) if scale is None else require_positive(scale, "scale")
    if mask is not None:
        mask = as_attention_mask(mask, backend, q.device if backend == "torch" else None)
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


def _gqa_lead(q: Any, k: Any, v: Any) -> list[tuple[int, ...]]:
    """The leading shapes of q, k, v with k's and v's head axis widened to q's (enable_gqa=True)."""
    if min(q.ndim, k.ndim, v.ndim) < 3:
        raise ValueError(
            f"enable_gqa=True needs a head axis (..., heads, n, d) on q, k and v, got "
            f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}"
        )
    h_q, h_k, h_v = q.shape[-3], k.shape[-3], v.shape[-3]
    if h_k != h_v or h_q % h_k != 0:
        raise ValueError(
            f"enable_gqa=True needs k and v to have the same number of heads, dividing q's: "
            f"q has {h_q} heads {tuple(q.shape)}, k {h_k} {tuple(k.shape)}, v {h_v} {tuple(v.shape)}"
        )
    return [tuple(q.shape[:-2])] + [tuple(x.shape[:-3]) + (h_q,) for x in (k, v)]


def require_causal(is_causal: Any, causal_alignment: Any) -> Alignment | None:
    """``None`` without a causal rule, else the alignment (``"top_left"`` or ``"bottom_right"``).

    An alignment other than the default without ``is_causal=True`` raises: it would be silently ignored.
    """
    alignment = require_alignment(causal_alignment)
    if require_bool(is_causal, "is_causal"):
        return alignment
    if alignment != "top_left":
        raise ValueError(f"causal_alignment={alignment!r} has no effect without is_causal=True")
    return None
