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


def heatmap(
    weights: np.ndarray,
    *,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    annotate: bool = True,
    fmt: str = ".2f",
    vmin: float | None = 0.0,
    vmax: float | None = None,
    cbar_label: str = "attention weight",
) -> Axes:
    """Seaborn heatmap of a 2-d matrix (rows = queries, columns = keys), annotated with values.

    Used in: "Attention maps", "Multi-head attention and the causal mask".
    """
    import seaborn as sns

    arr = np.asarray(weights.detach().cpu() if hasattr(weights, "detach") else weights, dtype=float)
    if arr.ndim != 2 or 0 in arr.shape:
        raise ValueError(f"heatmap needs a non-empty 2-d matrix, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"heatmap values contain NaN or Inf (shape {arr.shape})")
    for name, labels, n in (("row_labels", row_labels, arr.shape[0]), ("col_labels", col_labels, arr.shape[1])):
        if labels is not None and len(labels) != n:
            raise ValueError(f"{name} has {len(labels)} entries, the matrix has {n} (shape {arr.shape})")
    ax = _axes(ax, (1.0 + 0.7 * arr.shape[1], 0.8 + 0.6 * arr.shape[0]))
    sns.heatmap(
        arr, ax=ax, annot=annotate and arr.size <= 400, fmt=fmt, cmap="viridis", vmin=vmin, vmax=vmax,
        xticklabels=list(col_labels) if col_labels is not None else "auto",
        yticklabels=list(row_labels) if row_labels is not None else "auto",
        cbar_kws={"label": cbar_label}, linewidths=0.5, linecolor="white", square=arr.shape[0] <= 16,
    )
    ax.grid(False)
    ax.set_xlabel("key")
    ax.set_ylabel("query")
    if title:
        ax.set_title(title)
    return ax


# --- "From words to attention" (chapters 01-03) ---------------------------------------------------


def word_shifts(
    points: Mapping[str, Sequence[float]],
    shifts: Mapping[str, tuple[Sequence[float], Sequence[float]]] | None = None,
    *,
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str = "",
    ylabel: str = "",
    limits: tuple[float, float, float, float] | None = None,
) -> Axes:
    """Words as labelled dots, plus optional moves drawn as dashed arrows.

    ``points`` maps a label to a 2-d position (drawn as a dot). ``shifts`` maps a label to a pair
    ``(start, end)``: a square at ``start`` (e.g. the static embedding), a star at ``end`` (e.g.
    the contextual one) and a dashed arrow between them. ``limits`` is ``(xmin, xmax, ymin, ymax)``;
    pass the same limits to two side-by-side panels so their positions compare directly.
    Used in: "Context changes meaning".
    """
    pts = _as_2d_points(points)
    moves: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for name, pair in (shifts or {}).items():
        if len(pair) != 2:
            raise ValueError(f"shift {name!r} must be a (start, end) pair, got {len(pair)} items")
        start, end = _as_2d_points({f"{name} start": pair[0], f"{name} end": pair[1]}).values()
        moves[name] = (start, end)
    ax = _axes(ax, (5, 5))
    for name, p in pts.items():
        ax.scatter(*p, s=60, color=style.PALETTE["blue"], zorder=3)
        ax.annotate(name, p, xytext=(6, 4), textcoords="offset points", color=style.PALETTE["blue"])
    for name, (start, end) in moves.items():
        ax.scatter(*start, s=90, marker="s", color=style.PALETTE["red"], zorder=4)
        ax.annotate(f"{name} (static)", start, xytext=(6, -14), textcoords="offset points",
                    color=style.PALETTE["red"])
        ax.scatter(*end, s=160, marker="*", color=style.PALETTE["green"], zorder=4)
        ax.annotate(f"{name} (in context)", end, xytext=(6, 4), textcoords="offset points",
                    color=style.PALETTE["green"])
        ax.annotate("", xy=end, xytext=start, arrowprops={"arrowstyle": "-|>", "color": style.PALETTE["ink"],
                                                          "lw": 1.6, "linestyle": "--", "shrinkA": 5, "shrinkB": 7})
    if limits is not None:
        if len(limits) != 4 or not limits[0] < limits[1] or not limits[2] < limits[3]:
            raise ValueError(f"limits must be (xmin, xmax, ymin, ymax) with min < max, got {limits}")
        ax.set_xlim(limits[0], limits[1])
        ax.set_ylim(limits[2], limits[3])
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    return ax
