"""Plot helpers. Each takes arrays (and an optional ``ax``), draws, and returns the Axes.

They never call ``show()`` and never write files. Import this module from chapters, never from
core code. Style: ``attnlib.style``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from . import style


def _axes(ax: Axes | None, figsize: tuple[float, float] = (6, 4)) -> Axes:
    style.use()
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def _as_2d_points(vectors: Mapping[str, Sequence[float]]) -> dict[str, np.ndarray]:
    if not isinstance(vectors, Mapping) or not vectors:
        raise ValueError("vectors must be a non-empty mapping of label -> 2-d vector")
    out = {}
    for name, vec in vectors.items():
        arr = np.asarray(vec, dtype=float)
        if arr.shape != (2,):
            raise ValueError(f"vector {name!r} must have shape (2,), got {arr.shape}")
        if not np.isfinite(arr).all():
            raise ValueError(f"vector {name!r} contains NaN or Inf: {arr.tolist()}")
        out[name] = arr
    return out


def vectors_2d(
    vectors: Mapping[str, Sequence[float]],
    *,
    ax: Axes | None = None,
    colors: Mapping[str, str] | None = None,
    origin: Sequence[float] = (0.0, 0.0),
    title: str | None = None,
) -> Axes:
    """Draw each 2-d vector as an arrow from ``origin`` with its label at the tip.

    Used in: "Dot products and the magnitude problem", "Context changes meaning".
    """
    pts = _as_2d_points(vectors)
    ax = _axes(ax, (5, 5))
    colors = dict(colors or {})
    o = np.asarray(origin, dtype=float)
    for i, (name, p) in enumerate(pts.items()):
        c = colors.get(name, style.CYCLE[i % len(style.CYCLE)])
        ax.annotate(
            "", xy=o + p, xytext=o,
            arrowprops={"arrowstyle": "-|>", "color": c, "lw": 2.2, "shrinkA": 0, "shrinkB": 0},
        )
        ax.text(*(o + p * 1.04), f" {name}", color=c, fontsize=10, va="bottom")
    allp = np.vstack([o, *(o + p for p in pts.values())])
    lo, hi = allp.min(axis=0), allp.max(axis=0)
    pad = 0.15 * max(float((hi - lo).max()), 1.0)
    ax.set_xlim(lo[0] - pad, hi[0] + 3 * pad)
    ax.set_ylim(lo[1] - pad, hi[1] + 2 * pad)
    ax.set_aspect("equal")
    ax.axhline(0, color=style.PALETTE["grey"], lw=0.8)
    ax.axvline(0, color=style.PALETTE["grey"], lw=0.8)
    if title:
        ax.set_title(title)
    return ax


def grouped_bars(
    groups: Mapping[str, Sequence[float]],
    labels: Sequence[str],
    *,
    ax: Axes | None = None,
    ylabel: str = "",
    title: str | None = None,
    fmt: str = "{:.2f}",
) -> Axes:
    """Side-by-side bars: one group of bars per entry of ``groups``, one bar per label, values
    printed on the bars. Used in: "Dot products and the magnitude problem" and the softmax chapters.
    """
    if not groups:
        raise ValueError("groups must be a non-empty mapping of series name -> values")
    data = {k: np.asarray(v, dtype=float) for k, v in groups.items()}
    for k, v in data.items():
        if v.shape != (len(labels),):
            raise ValueError(f"series {k!r} has shape {v.shape}, expected ({len(labels)},) to match labels")
        if not np.isfinite(v).all():
            raise ValueError(f"series {k!r} contains NaN or Inf")
    ax = _axes(ax, (6, 3.5))
    width = 0.8 / len(data)
    x = np.arange(len(labels))
    for i, (name, vals) in enumerate(data.items()):
        bars = ax.bar(x + (i - (len(data) - 1) / 2) * width, vals, width, label=name,
                      color=style.CYCLE[i % len(style.CYCLE)])
        ax.bar_label(bars, labels=[fmt.format(v) for v in vals], fontsize=9, padding=2)
    ax.set_xticks(x, labels)
    ax.set_ylabel(ylabel)
    ax.margins(y=0.15)
    ax.legend(frameon=False)
    if title:
        ax.set_title(title)
    return ax
