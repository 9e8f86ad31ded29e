"""The numbers the sliders show, computed in Python: the reference for the widgets' ES modules.

Each widget's ES module (``*.js`` next to this file) recomputes its numbers in the browser on every
input, so it works on the static site where no kernel runs. This module computes the same numbers
from the same state with attnlib (``softmax``, ``scaled_dot_product_attention_np``): the browser tests
compare the page with these functions, and the widgets' ``numbers()`` methods return them.
The chapters' own experiments (``attnlib.companions.scaling``) draw with NumPy's generator; the sliders need a
generator that JavaScript reproduces, hence the one below.

Randomness: a small seeded generator, ``mulberry32`` (32-bit state, one ``uint32`` per draw) with the
Box–Muller transform, implemented identically here (vectorised with NumPy) and in ``_common.js``, so
a seed gives the same vectors in Python and in the browser.

Core module: NumPy only (no ipywidgets). Chapters: "Softmax" (temperature), "Why divide by √d_k"
(sharpening, spread), "Worked example: 'it'" (geometric).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validate import require_positive, require_positive_int
from ..attention_np import scaled_dot_product_attention_np
from ..companions.checks import as_finite_array
from ..companions.sampler import require_seed
from ..companions.scaling import entropy
from ..softmax import softmax

# --- slider ranges (the ES modules receive them from the Python side as synced traits) ------------
D_K_RANGE = (1, 1024)  # softmax sharpening: d_k on a log scale
D_K_STEPS = 100  # slider positions 0..100
TEMPERATURE_RANGE = (0.1, 10.0)  # temperature on a log scale
TEMPERATURE_STEPS = 200
DIM_RANGE = (1, 1000)  # dot-product spread: dimension on a log scale
DIM_STEPS = 150
N_PAIRS = 1000  # random pairs behind the spread histogram
HIST_BINS = 40
HIST_HALF_WIDTH = {False: 120.0, True: 4.0}  # x-axis of the histogram: ±120 raw, ±4 scaled by 1/√d
QUERY_RANGE = (-5.0, 5.0)  # geometric widget: each coordinate of the query
QUERY_STEP = 0.1
MAX_SCORES = 16  # bars a widget draws at most

_GOLDEN = 0x6D2B79F5  # mulberry32's increment
_U32 = np.uint64(0xFFFFFFFF)


# --- seeded generator shared with the browser ------------------------------------------------------
check_seed = require_seed  # one rule for every mulberry32 seed, Python's and the page's


def uniforms(seed: int, n: int) -> np.ndarray:
    """The first ``n`` draws in ``[0, 1)`` of mulberry32 seeded with ``seed`` (float64, shape ``(n,)``).

    The state after ``i + 1`` draws is ``seed + (i + 1)·0x6D2B79F5 (mod 2**32)``, so the stream is
    computed all at once; ``_common.js`` draws the same numbers one at a time.
    """
    seed = check_seed(seed)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    steps = np.arange(1, n + 1, dtype=np.uint64)
    a = ((np.uint64(seed) + steps * np.uint64(_GOLDEN)) & _U32).astype(np.uint32)  # (n,)
    t = (a ^ (a >> np.uint32(15))) * (a | np.uint32(1))  # uint32 products wrap like Math.imul
    t = t ^ (t + (t ^ (t >> np.uint32(7))) * (t | np.uint32(61)))
    return (t ^ (t >> np.uint32(14))).astype(np.float64) / 4294967296.0


def normals(seed: int, n: int) -> np.ndarray:
    """The first ``n`` standard-normal draws for ``seed``: Box–Muller on pairs of ``uniforms``,
    ``r·cos θ`` then ``r·sin θ`` with ``r = √(−2 ln(1 − u₁))`` and ``θ = 2π u₂``. Shape ``(n,)``."""
    m = (n + 1) // 2
    u = uniforms(seed, 2 * m).reshape(m, 2)  # (pairs, 2)
    r = np.sqrt(-2.0 * np.log(1.0 - u[:, 0]))  # (pairs,)
    theta = 2.0 * math.pi * u[:, 1]  # (pairs,)
    return np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1).reshape(-1)[:n]  # (n,)


# --- log-scale sliders -------------------------------------------------------------------------------
def log_slider_value(position: float, lo: float, hi: float, steps: int) -> float:
    """The value at slider ``position`` (clamped to ``0..steps``) of a log scale from ``lo`` to ``hi``:
    ``lo·(hi/lo)^(position/steps)``, the formula ``_common.js`` uses."""
    p = min(max(float(position), 0.0), float(steps)) if math.isfinite(position) else 0.0
    return lo * (hi / lo) ** (p / steps)


def round_half_up(x: float) -> int:
    """``Math.round``: nearest integer, halves up (Python's ``round`` rounds halves to even)."""
    return int(math.floor(x + 0.5))


def d_k_at(position: float) -> int:
    """d_k of the sharpening slider at ``position`` (0..D_K_STEPS)."""
    return round_half_up(log_slider_value(position, *D_K_RANGE, D_K_STEPS))


def temperature_at(position: float) -> float:
    """Temperature of the temperature slider at ``position`` (0..TEMPERATURE_STEPS)."""
    return log_slider_value(position, *TEMPERATURE_RANGE, TEMPERATURE_STEPS)


def dim_at(position: float) -> int:
    """Dimension of the spread slider at ``position`` (0..DIM_STEPS)."""
    return round_half_up(log_slider_value(position, *DIM_RANGE, DIM_STEPS))


def clamp_int(value: Any, lo: int, hi: int, name: str) -> int:
    """``value`` clamped to ``[lo, hi]``; ``TypeError`` unless it is an int (bools rejected)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    return min(max(int(value), lo), hi)


def clamp_temperature(value: Any) -> float:
    """A temperature clamped to ``TEMPERATURE_RANGE``; ``ValueError`` unless finite and > 0."""
    t = require_positive(value, "temperature")
    return min(max(t, TEMPERATURE_RANGE[0]), TEMPERATURE_RANGE[1])


def clamp_query(query: Any) -> list[float]:
    """The geometric widget's query, each coordinate clamped to ``QUERY_RANGE``.

    ``ValueError`` unless ``query`` holds two finite numbers.
    """
    q = as_float_vector(query, "query")
    if q.shape != (2,):
        raise ValueError(f"query must have 2 coordinates (a point in the plane), got shape {q.shape}")
    return [float(min(max(x, QUERY_RANGE[0]), QUERY_RANGE[1])) for x in q]


# --- input checks --------------------------------------------------------------------------------
def _to_numpy(x: Any) -> Any:
    """A torch tensor as a NumPy array. float32/float16 data (e.g. the example tensors of
    ``attnlib.companions.examples``) are widened through their shortest decimal repr, so ``0.3`` stays ``0.3``
    in the widget state instead of ``0.30000001192092896``."""
    if hasattr(x, "detach"):
        x = x.detach().cpu().numpy()
    if isinstance(x, np.ndarray) and x.dtype in (np.float32, np.float16):
        flat = [float(np.format_float_positional(v, unique=True)) for v in x.ravel()]
        return np.array(flat, dtype=np.float64).reshape(x.shape)
    return x


def as_float_vector(x: Any, name: str, *, min_len: int = 1, max_len: int | None = None) -> np.ndarray:
    """``x`` (a sequence, array or tensor of numbers) as a finite float64 vector; ``ValueError`` naming
    the shape otherwise."""
    arr = as_finite_array(_to_numpy(x), name, ndim=1)
    if not min_len <= arr.shape[0] <= (max_len if max_len is not None else arr.shape[0]):
        bound = f"between {min_len} and {max_len}" if max_len is not None else f"at least {min_len}"
        raise ValueError(f"{name} must have {bound} entries, got shape {arr.shape}")
    return arr


def as_points(x: Any, name: str, n: int | None = None) -> np.ndarray:
    """``x`` as a finite float64 array of shape ``(n, 2)`` (points in the plane)."""
    arr = as_finite_array(_to_numpy(x), name)
    if arr.ndim != 2 or arr.shape[1] != 2 or not 1 <= arr.shape[0] <= MAX_SCORES:
        raise ValueError(f"{name} must have shape (n, 2) with 1 <= n <= {MAX_SCORES}, got shape {arr.shape}")
    if n is not None and arr.shape[0] != n:
        raise ValueError(f"{name} must have {n} rows (one per key), got shape {arr.shape}")
    return arr


# --- the numbers of each widget --------------------------------------------------------------------
def _summary(weights: np.ndarray) -> dict[str, Any]:
    """The weights, the largest one and the entropy in nats (``attnlib.companions.scaling.entropy``)."""
    return {"weights": weights, "max_weight": float(weights.max()), "entropy": float(entropy(weights))}


def sharpening_scores(d_k: int, *, seed: int = 0, n_keys: int = 8) -> np.ndarray:
    """Raw scores ``K q`` of one seeded random query against ``n_keys`` seeded random keys, all entries
    standard normal, in dimension ``d_k``: the first ``d_k`` coordinates of one draw in the largest
    dimension ``D = D_K_RANGE[1]``, so that one step of the slider adds or drops coordinates and the
    picture changes smoothly. ``normals(seed, D·(1 + n_keys))`` gives ``q`` first, then the keys row
    by row. Shape ``(n_keys,)``."""
    d_k = require_positive_int(d_k, "d_k")
    n_keys = require_positive_int(n_keys, "n_keys")
    if d_k > D_K_RANGE[1]:
        raise ValueError(f"d_k must be at most {D_K_RANGE[1]} (the largest dimension drawn), got {d_k}")
    q, k = _sharpening_draw(seed, n_keys)  # (D,), (n_keys, D)
    return k[:, :d_k] @ q[:d_k]  # (n_keys,)


@functools.lru_cache(maxsize=8)
def _sharpening_draw(seed: int, n_keys: int) -> tuple[np.ndarray, np.ndarray]:
    """The query ``(D,)`` and the keys ``(n_keys, D)`` in the largest dimension ``D``, one seeded draw."""
    d_max = D_K_RANGE[1]
    z = normals(seed, d_max * (1 + n_keys))  # (D·(1 + n_keys),)
    z.flags.writeable = False  # cached: callers share it
    return z[:d_max], z[d_max:].reshape(n_keys, d_max)  # (D,), (n_keys, D)


def sharpening_numbers(
    d_k: int, *, seed: int = 0, n_keys: int = 8, scores: Sequence[float] | None = None
) -> dict[str, Any]:
    """What the softmax-sharpening widget shows for ``d_k``: the raw scores, and for the weights
    without and with the division by ``√d_k``, the weights, the largest weight and the entropy.

    With ``scores`` given they are the raw scores (the same for every ``d_k``); otherwise they are
    ``sharpening_scores(d_k, seed=seed, n_keys=n_keys)``.
    """
    d_k = clamp_int(d_k, *D_K_RANGE, "d_k")
    if scores is None:
        raw = sharpening_scores(d_k, seed=check_seed(seed), n_keys=n_keys)
    else:
        raw = as_float_vector(scores, "scores", min_len=2, max_len=MAX_SCORES)
    return {
        "d_k": d_k,
        "scores": raw,
        "unscaled": _summary(softmax(raw)),
        "scaled": _summary(softmax(raw / math.sqrt(d_k))),
    }


def temperature_numbers(scores: Sequence[float], temperature: float) -> dict[str, Any]:
    """What the temperature widget shows: ``softmax(scores / T)``, its largest weight and entropy,
    with the temperature clamped to ``TEMPERATURE_RANGE`` (``ValueError`` if not finite and > 0)."""
    raw = as_float_vector(scores, "scores", min_len=2, max_len=MAX_SCORES)
    t = clamp_temperature(temperature)
    return {"temperature": t, "scores": raw, **_summary(softmax(raw, temperature=t))}


@functools.lru_cache(maxsize=4)
def _prefix_dots(seed: int) -> np.ndarray:
    """``P[d − 1, i]``: the dot product of random pair ``i`` over its first ``d`` coordinates, for
    every ``d`` up to ``DIM_RANGE[1]``. Pair ``i`` is ``normals(seed, …)`` entries
    ``[2·i·D, 2·i·D + D)`` (vector a) and the next ``D`` (vector b), with ``D = DIM_RANGE[1]``.
    Sums run coordinate by coordinate, as in ``_common.js``. Shape ``(D, N_PAIRS)``."""
    d_max = DIM_RANGE[1]
    z = normals(seed, 2 * N_PAIRS * d_max).reshape(N_PAIRS, 2, d_max)  # (pairs, 2, D)
    prods = z[:, 0, :] * z[:, 1, :]  # (pairs, D)
    return np.ascontiguousarray(np.cumsum(prods, axis=1).T)  # (D, pairs)


def spread_dots(dim: int, *, seed: int = 0, scaled: bool = False) -> np.ndarray:
    """The ``N_PAIRS`` dot products of seeded random Gaussian pairs in dimension ``dim`` (clamped to
    ``DIM_RANGE``), divided by ``√dim`` if ``scaled``. Shape ``(N_PAIRS,)``."""
    dim = clamp_int(dim, *DIM_RANGE, "dim")
    dots = _prefix_dots(check_seed(seed))[dim - 1]  # (pairs,)
    return dots / math.sqrt(dim) if scaled else dots.copy()


def histogram(x: np.ndarray, half_width: float, bins: int = HIST_BINS) -> tuple[np.ndarray, int]:
    """Counts of ``x`` in ``bins`` equal bins over ``[−half_width, half_width]``, values beyond the
    axis counted in the end bins; also returns how many were beyond. Same binning as ``_common.js``."""
    width = 2.0 * half_width / bins
    idx = np.floor((x + half_width) / width).astype(np.int64)  # (n,)
    outside = int(((idx < 0) | (idx >= bins)).sum())
    counts = np.bincount(np.clip(idx, 0, bins - 1), minlength=bins)  # (bins,)
    return counts, outside


def spread_numbers(dim: int, *, seed: int = 0, scaled: bool = False) -> dict[str, Any]:
    """What the dot-product-spread widget shows: the mean and the sample variance (``ddof=1``) of the
    ``N_PAIRS`` dot products, and the histogram (counts, values beyond the axis)."""
    dim = clamp_int(dim, *DIM_RANGE, "dim")
    dots = spread_dots(dim, seed=seed, scaled=scaled)
    counts, outside = histogram(dots, HIST_HALF_WIDTH[bool(scaled)])
    return {
        "dim": dim,
        "dots": dots,
        "mean": float(dots.mean()),
        "variance": float(dots.var(ddof=1)),
        "counts": counts,
        "outside": outside,
    }


def geometric_numbers(query: Sequence[float], keys: Any, values: Any) -> dict[str, Any]:
    """What the geometric widget shows for a 2-d ``query``: the raw scores ``K q``, the scaled scores
    ``K q / √2``, the weights (softmax of the scaled scores) and the context vector (weights @ V),
    computed by ``scaled_dot_product_attention_np``. The query is clamped to ``QUERY_RANGE``."""
    k = as_points(keys, "keys")
    v = as_points(values, "values", n=k.shape[0])
    q = np.asarray(clamp_query(query), dtype=np.float64)[None, :]  # (1, 2)
    context, weights = scaled_dot_product_attention_np(q, k, v)  # (1, 2), (1, n)
    raw = k @ q[0]  # (n,)
    return {
        "query": q[0],
        "scores": raw,
        "scaled_scores": raw / math.sqrt(k.shape[1]),
        "weights": weights[0],
        "context": context[0],
    }
