"""Plot helpers. Each takes arrays (and an optional ``ax``), draws, and returns the Axes.

They never call ``show()`` and never write files. Import this module from chapters, never from
core code. Style: ``attnlib.style``, applied on import (in a notebook, every figure shown then
records its smallest text: ``attnlib.style.figure_png``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from . import style
from ._validate import require_positive_int
from .companions.checks import as_finite_array
from .softmax import softmax

style.use()  # a chapter that imports the helpers draws every figure in the book's style, raw ones too


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
        out[name] = as_finite_array(vec, f"vector {name!r}", shape=(2,))
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
        ax.text(*(o + p * 1.04), f" {name}", color=c, fontsize=style.MIN_TEXT_PT, va="bottom")
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
    data = {k: as_finite_array(v, f"series {k!r} (one value per label)", shape=(len(labels),))
            for k, v in groups.items()}
    ax = _axes(ax, (6, 3.5))
    width = 0.8 / len(data)
    x = np.arange(len(labels))
    for i, (name, vals) in enumerate(data.items()):
        bars = ax.bar(x + (i - (len(data) - 1) / 2) * width, vals, width, label=name,
                      color=style.CYCLE[i % len(style.CYCLE)])
        ax.bar_label(bars, labels=[fmt.format(v) for v in vals], fontsize=style.MIN_TEXT_PT, padding=2)
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

    The numbers are written at the book's smallest text size (``style.MIN_TEXT_PT``), so annotated
    cells take the Axes' full width instead of staying square: a wide panel gives them the room.

    Used in: "Attention maps", "Attention in PyTorch", "Multi-head attention and the causal mask".
    """
    arr = as_finite_array(weights, "heatmap values (query x key)", ndim=2, non_empty=True)
    for name, labels, n in (("row_labels", row_labels, arr.shape[0]), ("col_labels", col_labels, arr.shape[1])):
        if labels is not None and len(labels) != n:
            raise ValueError(f"{name} has {len(labels)} entries, the matrix has {n} (shape {arr.shape})")
    import seaborn as sns  # here, not at the top: only heatmaps need it, and it costs a chapter 0.4 s to import

    ax = _axes(ax, (min(style.COLUMN_IN, 1.0 + 0.7 * arr.shape[1]), 0.8 + 0.6 * arr.shape[0]))
    annot = annotate and arr.size <= 400
    sns.heatmap(
        arr, ax=ax, annot=annot, fmt=fmt, cmap="viridis", vmin=vmin, vmax=vmax,
        xticklabels=list(col_labels) if col_labels is not None else "auto",
        yticklabels=list(row_labels) if row_labels is not None else "auto",
        cbar_kws={"label": cbar_label}, linewidths=0.5, linecolor="white", square=arr.shape[0] <= 16 and not annot,
    )
    ax.grid(False)
    ax.set_xlabel("key")
    ax.set_ylabel("query")
    if title:
        ax.set_title(title)
    return ax


def _extra_arrow(ax: Axes, tip: np.ndarray, *, color: str, label: str, dashed: bool) -> None:
    """An arrow from the origin to ``tip`` with its label below the tip, and the limits widened to
    show it (for a vector that may coincide with one drawn by ``vectors_2d``)."""
    ax.annotate("", xy=tip, xytext=(0, 0), arrowprops={
        "arrowstyle": "-|>", "color": color, "lw": 2.2, "ls": "--" if dashed else "-",
        "shrinkA": 0, "shrinkB": 0})
    ax.annotate(label, xy=tip, xytext=(10, -26), textcoords="offset points", fontsize=style.MIN_TEXT_PT, color=color,
                fontweight="bold")
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    pad = 0.15 * max(x1 - x0, y1 - y0)
    ax.set_xlim(min(x0, tip[0] - pad), max(x1, tip[0] + 3 * pad))
    ax.set_ylim(min(y0, tip[1] - pad), max(y1, tip[1] + pad))


def similarity_qk(
    query: Sequence[float],
    keys: Mapping[str, Sequence[float]],
    *,
    ax: Axes | None = None,
    query_label: str = "query",
    title: str | None = None,
    max_marker_area: float = 2400.0,
) -> Axes:
    """Step 1 of the geometric view: the query and the keys in Q·K space, with a circle at the tip
    of each key whose *area* is proportional to its score ``q·k`` (hollow if the score is < 0).

    The scores are computed here from the vectors (``keys @ query``) and written next to each key,
    so the picture cannot disagree with the numbers. The dotted line is the query's direction.
    Used in: "Worked example: 'it' attends".
    """
    q = as_finite_array(query, "query", shape=(2,))
    pts = _as_2d_points(keys)
    names = list(pts)
    K = np.stack([pts[n] for n in names])  # (n_keys, 2)
    scores = K @ q  # (n_keys,)
    colors = {n: style.CYCLE[(i + 1) % len(style.CYCLE)] for i, n in enumerate(names)}
    ax = vectors_2d(pts, ax=ax, colors=colors, title=title)
    _extra_arrow(ax, q, color=style.CYCLE[0], label=query_label, dashed=True)
    reach = float(np.abs(np.vstack([q, K])).max()) * 1.6
    unit = q / np.linalg.norm(q) if np.linalg.norm(q) > 0 else q
    ax.plot([-reach * unit[0], reach * unit[0]], [-reach * unit[1], reach * unit[1]],
            ls=":", color=style.CYCLE[0], lw=1.2, zorder=0)
    biggest = float(np.abs(scores).max()) or 1.0
    for name, k, s in zip(names, K, scores):
        area = max_marker_area * abs(float(s)) / biggest
        ax.scatter([k[0]], [k[1]], s=area, facecolors=colors[name] if s >= 0 else "none",
                   edgecolors=colors[name], alpha=0.25 if s >= 0 else 1.0, linewidths=1.5, zorder=1)
        ax.annotate(f"q·k = {s:.1f}", xy=(k[0], k[1]), xytext=(8, -14), textcoords="offset points",
                    fontsize=style.MIN_TEXT_PT, color=colors[name])
    ax.set_xlabel("dimension 1")
    ax.set_ylabel("dimension 2")
    return ax


def scaling_softmax_bars(
    scores: Sequence[float],
    labels: Sequence[str],
    *,
    d_k: int,
    axes: Sequence[Axes] | None = None,
    stacked: bool = True,
) -> tuple[Axes, Axes]:
    """Steps 2–3 of the geometric view, as bars: left, the raw scores next to the scaled logits
    ``score / √d_k``; right, the softmax weights of the logits (computed with ``attnlib.softmax``).

    Two panels because scores and weights have different units: pass two Axes in ``axes`` or get a
    new figure, one above the other (6 in wide: its text reads on a phone as it is), or with
    ``stacked=False`` side by side (10 in wide: too small on a phone).
    Returns ``(scores_axes, weights_axes)``. Used in: "Worked example: 'it' attends".
    """

    labels = list(labels)
    s = as_finite_array(scores, "scores (one per label)", shape=(len(labels),))
    d_k = require_positive_int(d_k, "d_k")
    if axes is None:
        style.use()
        if stacked:
            _, axes = plt.subplots(2, 1, figsize=(6, 6.8), layout="constrained")
        else:
            _, axes = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [3, 2]})
    if len(axes) != 2:
        raise ValueError(f"axes must hold exactly 2 Axes, got {len(axes)}")
    logits = s / np.sqrt(d_k)  # (n,)
    weights = softmax(logits)  # (n,)
    left = grouped_bars({"score q·k": s, f"logit q·k / √{d_k}": logits}, labels, ax=axes[0],
                        ylabel="score", title="Scaling", fmt="{:.2f}")
    right = grouped_bars({"softmax weight": weights}, labels, ax=axes[1], ylabel="attention weight",
                         title="Softmax", fmt="{:.0%}")
    right.set_ylim(0, 1.1)
    right.legend().remove()
    return left, right


def _convex_hull(points: np.ndarray) -> np.ndarray:
    """Vertices of the convex hull of 2-d points, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(map(tuple, np.unique(points, axis=0)))
    if len(pts) <= 2:
        return np.asarray(pts)

    def cross(o: tuple, a: tuple, b: tuple) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    hull: list[tuple] = []
    for seq in (pts, pts[::-1]):
        start = len(hull)
        for p in seq:
            while len(hull) - start >= 2 and cross(hull[-2], hull[-1], p) <= 0:
                hull.pop()
            hull.append(p)
        hull.pop()
    return np.asarray(hull)


def weighted_sum_v(
    values: Mapping[str, Sequence[float]],
    weights: Sequence[float],
    *,
    ax: Axes | None = None,
    title: str | None = None,
    context_label: str = "context",
) -> Axes:
    """Step 4 of the geometric view: the value vectors in V space, the context vector
    ``Σ wᵢ vᵢ`` (computed here as ``weights @ values``), and a line from the context to each value
    whose width is proportional to its weight. Attention weights are non-negative and sum to 1, so
    the context always lies inside the shaded convex hull of the values.

    ``weights`` must be non-negative and sum to 1 (± 1e-6), else ``ValueError``.
    Used in: "Worked example: 'it' attends".
    """
    pts = _as_2d_points(values)
    names = list(pts)
    w = as_finite_array(weights, "weights (one per name)", shape=(len(names),))
    if (w < 0).any() or not np.isclose(w.sum(), 1.0, atol=1e-6):
        raise ValueError(f"weights must be >= 0 and sum to 1 (attention weights), got {w.tolist()} (sum {w.sum():.6g})")
    V = np.stack([pts[n] for n in names])  # (n, 2)
    context = w @ V  # (2,)
    colors = {n: style.CYCLE[(i + 1) % len(style.CYCLE)] for i, n in enumerate(names)}
    ax = vectors_2d(pts, ax=ax, colors=colors, title=title)
    _extra_arrow(ax, context, color=style.PALETTE["ink"],
                 label=f"{context_label} [{context[0]:.2f}, {context[1]:.2f}]", dashed=False)
    hull = _convex_hull(V)
    if len(hull) >= 3:
        ax.fill(hull[:, 0], hull[:, 1], color=style.PALETTE["sky"], alpha=0.15, zorder=0)
    for name, v, wi in zip(names, V, w):
        ax.plot([context[0], v[0]], [context[1], v[1]], color=colors[name], lw=0.5 + 10 * wi, alpha=0.6,
                solid_capstyle="round", zorder=1)
        ax.annotate(f"w = {wi:.2f}", xy=(v[0], v[1]), xytext=(6, -16), textcoords="offset points",
                    fontsize=style.MIN_TEXT_PT, color=colors[name])
    ax.scatter([context[0]], [context[1]], s=60, color=style.PALETTE["ink"], zorder=3)
    ax.set_xlabel("value dimension 1")
    ax.set_ylabel("value dimension 2")
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


# --- "Attention in PyTorch" and "Multi-head attention and the causal mask" (ch-torch) ---------


def batch_diagram(values: np.ndarray, tokens: Sequence[Sequence[str]], *, ax: Axes | None = None) -> Axes:
    """Token, sequence and batch side by side, drawn from a ``(batch, seq, d)`` array.

    Left: one token, a column of ``d`` numbers (shape ``[D]``). Middle: the first sequence, ``seq``
    such columns (``[S, D]``). Right: the whole batch as stacked sequences (``[B, S, D]``), each layer
    labelled by its first word (the figure fits a phone's column). Cell
    colours are the values (viridis). ``tokens[b][s]`` labels token ``s`` of sequence ``b``.
    Used in: "Attention in PyTorch".
    """
    arr = as_finite_array(values, "values (batch, seq, d)", ndim=3, non_empty=True)
    b_n, s_n, d_n = arr.shape
    if len(tokens) != b_n or any(len(t) != s_n for t in tokens):
        raise ValueError(f"tokens must be {b_n} sequences of {s_n} words to match values of shape {arr.shape}")
    if ax is None:  # its own figure: the diagram takes the whole width
        ax = _axes(None, (style.COLUMN_IN, 4.0))
        ax.figure.subplots_adjust(left=0.01, right=0.99, bottom=0.01, top=0.9)
    norm = mpl.colors.Normalize(vmin=float(arr.min()), vmax=float(arr.max()))
    cmap = mpl.colormaps["viridis"]

    def column(x0: float, y0: float, vec: np.ndarray, alpha: float = 1.0) -> None:
        for j, val in enumerate(vec):  # feature j drawn top to bottom
            ax.add_patch(Rectangle((x0, y0 + d_n - 1 - j), 1, 1, facecolor=cmap(norm(val)),
                                   edgecolor="white", lw=1.2, alpha=alpha))

    def caption(x: float, text: str) -> None:
        ax.text(x, -0.6, text, ha="center", va="top", fontsize=style.MIN_TEXT_PT)

    ink = style.PALETTE["ink"]
    column(0, 0, arr[0, 0])  # one token
    ax.text(-0.3, d_n / 2, f"{d_n} features", ha="right", va="center", rotation=90, fontsize=style.MIN_TEXT_PT, color=ink)
    ax.text(0.5, d_n + 0.3, tokens[0][0], ha="center", va="bottom", fontsize=style.MIN_TEXT_PT, color=ink)
    caption(0.5, f"token\n[D] = [{d_n}]")
    x_seq = 3.5
    for s in range(s_n):  # one sequence
        column(x_seq + s, 0, arr[0, s])
        ax.text(x_seq + s + 0.5, d_n + 0.3, tokens[0][s], ha="center", va="bottom", fontsize=style.MIN_TEXT_PT,
                rotation=90, color=ink)
    caption(x_seq + s_n / 2, f"sequence\n[S, D] = [{s_n}, {d_n}]")
    x_batch, step = x_seq + s_n + 3.5, 0.9
    for b in reversed(range(b_n)):  # back layers first, sequence 0 in front
        for s in range(s_n):
            column(x_batch + b * step + s, b * step, arr[b, s])
    x_label = x_batch + (b_n - 1) * step + s_n + 0.6
    for b in range(b_n):  # one label per layer, right of the stack, with a leader line
        y = b * step + d_n - 0.5
        ax.plot([x_batch + b * step + s_n, x_label - 0.1], [y, y], color=style.PALETTE["grey"], lw=0.8)
        ax.text(x_label, y, f"{tokens[b][0]} …", ha="left", va="center", fontsize=style.MIN_TEXT_PT, color=ink)
    caption(x_batch + s_n / 2, f"batch\n[B, S, D] = [{b_n}, {s_n}, {d_n}]")
    ax.set_xlim(-1.5, x_label + 0.6 * max(len(t[0]) + 2 for t in tokens))
    ax.set_ylim(-2.2, d_n + (b_n - 1) * step + 1.6)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


def heatmap_grid(
    weights: np.ndarray,
    *,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    titles: Sequence[str] | None = None,
    ncols: int = 4,
    annotate: bool = False,
    axes: np.ndarray | None = None,
) -> np.ndarray:
    """One ``heatmap`` per leading index of a ``(panels, n_q, n_k)`` array (e.g. one per head),
    on a shared colour scale from 0 to the largest weight, with a colour bar on the last column.
    The word labels are written once per row (queries, first column) and once per column (keys,
    bottom panel), so the panels can be small: ``ncols=2`` gives a figure that still reads on a
    phone. Returns the array of Axes. Used in: "Multi-head attention and the causal mask".
    """
    arr = np.asarray(weights.detach().cpu() if hasattr(weights, "detach") else weights, dtype=float)
    if arr.ndim != 3 or 0 in arr.shape:
        raise ValueError(f"weights must be a non-empty (panels, n_q, n_k) array, got shape {arr.shape}")
    if isinstance(ncols, bool) or not isinstance(ncols, int) or ncols < 1:
        raise ValueError(f"ncols must be an int >= 1, got {ncols!r}")
    p = arr.shape[0]
    titles = [f"head {i + 1}" for i in range(p)] if titles is None else list(titles)
    if len(titles) != p:
        raise ValueError(f"titles has {len(titles)} entries, weights has {p} panels (shape {arr.shape})")
    ncols = min(ncols, p)
    nrows = -(-p // ncols)
    if axes is None:
        style.use()
        _, axes = plt.subplots(nrows, ncols, figsize=(2.9 * ncols + 1.4, 2.5 * nrows + 0.6), squeeze=False)
    axes = np.asarray(axes).reshape(-1)
    if axes.size < p:
        raise ValueError(f"axes has {axes.size} entries, need at least {p}")
    vmax = float(arr.max())
    for i, ax in enumerate(axes):
        if i >= p:
            ax.set_visible(False)
            continue
        heatmap(arr[i], row_labels=row_labels, col_labels=col_labels, ax=ax, title=titles[i],
                annotate=annotate, vmin=0.0, vmax=vmax)
        last_in_row = (i % ncols == ncols - 1) or i == p - 1
        if not last_in_row:
            ax.collections[0].colorbar.remove()
        if i % ncols:  # not the first column: the query words are on the row's first panel
            ax.set_ylabel("")
            ax.set_yticklabels([])
        if i + ncols < p:  # a panel below shows the key words
            ax.set_xlabel("")
            ax.set_xticklabels([])
    return axes


# --- histograms and curves (chapters "Softmax" and "Why divide by √d_k") -----------------------


def _label(ax: Axes, xlabel: str, ylabel: str, title: str | None, *, legend: bool) -> Axes:
    """Axis labels, an optional legend and title: the last lines of every line and histogram plot."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if legend:
        ax.legend(frameon=False)
    if title:
        ax.set_title(title)
    return ax


def _finite_1d(name: str, values: Sequence[float] | np.ndarray) -> np.ndarray:
    return as_finite_array(values, f"series {name!r}", ndim=1, non_empty=True)


def histograms(
    samples: Mapping[str, Sequence[float] | np.ndarray],
    *,
    ax: Axes | None = None,
    bins: int = 40,
    value_range: tuple[float, float] | None = None,
    density: bool = False,
    colors: Mapping[str, str] | None = None,
    xlabel: str = "",
    title: str | None = None,
) -> Axes:
    """Histograms of one or more 1-d samples on one Axes, on shared bin edges, drawn as a light
    fill with a solid outline so overlaid samples stay readable. ``density=True`` scales each to
    unit area (needed to overlay samples of very different spread).
    Used in: "Why divide by √d_k".
    """
    if not isinstance(samples, Mapping) or not samples:
        raise ValueError("samples must be a non-empty mapping of label -> 1-d array")
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise ValueError(f"bins must be an int >= 1, got {bins!r}")
    data = {k: _finite_1d(k, v) for k, v in samples.items()}
    if value_range is None:
        lo = min(float(v.min()) for v in data.values())
        hi = max(float(v.max()) for v in data.values())
        value_range = (lo, hi if hi > lo else lo + 1.0)
    if not value_range[0] < value_range[1]:
        raise ValueError(f"value_range must be (low, high) with low < high, got {value_range}")
    edges = np.linspace(value_range[0], value_range[1], bins + 1)
    ax = _axes(ax, (6, 3.5))
    colors = dict(colors or {})
    for i, (name, vals) in enumerate(data.items()):
        c = colors.get(name, style.CYCLE[i % len(style.CYCLE)])
        ax.hist(vals, bins=edges, density=density, color=c, alpha=0.25)
        ax.hist(vals, bins=edges, density=density, color=c, histtype="step", lw=1.8, label=name)
    return _label(ax, xlabel, "density" if density else "count", title, legend=len(data) > 1)


def curves(
    x: Sequence[float] | np.ndarray,
    series: Mapping[str, Sequence[float] | np.ndarray],
    *,
    ax: Axes | None = None,
    xlabel: str = "",
    ylabel: str = "",
    logx: bool = False,
    colors: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Axes:
    """One line with markers per entry of ``series``, all against the same ``x``.
    Used in: "Softmax", "Why divide by √d_k".
    """
    if not isinstance(series, Mapping) or not series:
        raise ValueError("series must be a non-empty mapping of label -> values")
    xs = _finite_1d("x", x)
    data = {k: _finite_1d(k, v) for k, v in series.items()}
    for k, v in data.items():
        if v.shape != xs.shape:
            raise ValueError(f"series {k!r} has shape {v.shape}, expected {xs.shape} to match x")
    if logx and (xs <= 0).any():
        raise ValueError(f"logx needs x > 0, got min {xs.min()}")
    ax = _axes(ax, (6, 3.5))
    colors = dict(colors or {})
    for i, (name, vals) in enumerate(data.items()):
        ax.plot(xs, vals, marker="o", lw=2, label=name, color=colors.get(name, style.CYCLE[i % len(style.CYCLE)]))
    if logx:
        ax.set_xscale("log", base=2)
    return _label(ax, xlabel, ylabel, title, legend=True)


def growth(
    n: Sequence[float] | np.ndarray,
    series: Mapping[str, Sequence[float] | np.ndarray],
    *,
    ax: Axes | None = None,
    ylabel: str = "",
    title: str | None = None,
    slope: float | None = 2.0,
    xlabel: str = "sequence length n",
) -> Axes:
    """``curves`` on log-log axes, for costs that grow like a power of ``n``.

    With ``slope`` set, a dashed guide ``∝ n^slope`` is drawn through the first point of the first
    series, so a cost that grows like ``n²`` runs parallel to it. Every value must be > 0.
    Used in: "Attention at scale".
    """
    pairs = [("n", n), *(series.items() if isinstance(series, Mapping) else [])]  # curves checks the rest
    for name, values in pairs:
        arr = np.asarray(values, dtype=float)
        if arr.size and np.isfinite(arr).all() and (arr <= 0).any():
            raise ValueError(f"{name!r} must be > 0 on log axes, got min {arr.min()}")
    ax = curves(n, series, ax=ax, xlabel=xlabel, ylabel=ylabel, logx=True, title=title)
    ax.set_yscale("log")
    if slope is not None:
        x = np.asarray(n, dtype=float)
        y0 = float(np.asarray(next(iter(series.values())), dtype=float)[0])
        ax.plot(x, y0 * (x / x[0]) ** slope, ls="--", lw=1, color=style.PALETTE["grey"],
                label=rf"$\propto n^{{{slope:g}}}$")
        ax.legend(frameon=False)
    return ax


# --- "From scratch in NumPy" and "Why attention is parallel" (ch-scratch) ----------------------


def loss_curve(
    losses: Sequence[float], *, ax: Axes | None = None, title: str | None = None, logy: bool = False
) -> Axes:
    """The loss before each update (step 0 = before training). Used in: "From scratch in NumPy, and learning"."""
    vals = np.asarray(losses, dtype=float)
    if vals.ndim != 1 or vals.size < 2:
        raise ValueError(f"losses must be a 1-d sequence of at least 2 values, got shape {vals.shape}")
    ax = curves(np.arange(vals.size), {"loss": vals}, ax=ax, xlabel="update step", ylabel="MSE loss", title=title)
    if logy:
        ax.set_yscale("log")
    return ax


# --- "Attention at scale" ----------------------------------------------------------------------


def tiling(
    n: int,
    block_size: int,
    *,
    current: tuple[int, int] | None = None,
    causal: bool = False,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """The tiles of chunked attention: query blocks × key blocks, and each query block's running state.

    The ``n × n`` score matrix is cut into ``block_size × block_size`` tiles (the last ones partial).
    Query blocks are processed one after another; within a query block the key blocks arrive in
    order. Tiles already folded in are shaded, ``current = (query_block, key_block)`` is highlighted,
    tiles still to come are white, and with ``causal=True`` the tiles entirely in the future of their
    query block are hatched (skipped). Beside each query block three boxes hold its running maximum
    ``m``, running sum ``ℓ`` and accumulator ``a`` (width ``d_v``), the online softmax's state.
    Used in: "Attention at scale".
    """
    for name, value in (("n", n), ("block_size", block_size)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")
    blocks = -(-int(n) // int(block_size))
    edges = [min(i * block_size, n) for i in range(blocks + 1)]
    if current is None:
        current = (blocks // 2, blocks // 2 if causal else max(blocks - 2, 0))
    qi, kj = current
    if not (0 <= qi < blocks and 0 <= kj < blocks):
        raise ValueError(f"current must be a (query_block, key_block) pair in range({blocks}), got {current!r}")
    if causal and edges[kj] > edges[qi + 1] - 1:
        raise ValueError(f"current tile {current!r} lies in the causal future and is never computed")
    ax = _axes(ax, (7.2, 5.0))
    pal = style.PALETTE
    state_x = n + 0.06 * n  # the running-state column starts right of the matrix
    box = 0.07 * n
    for i in range(blocks):
        for j in range(blocks):
            x0, x1, y0, y1 = edges[j], edges[j + 1], edges[i], edges[i + 1]
            skipped = causal and x0 > y1 - 1
            done = (i, j) < (qi, kj) and not skipped
            face = pal["orange"] if (i, j) == (qi, kj) else ("#cfe6f5" if done else "white")
            ax.add_patch(plt.Rectangle((x0, y0), x1 - x0, y1 - y0, facecolor=face, edgecolor=pal["ink"],
                                       lw=1.0, hatch="///" if skipped else None, alpha=1.0))
        # the running state of query block i: m, ℓ, a
        y0, y1 = edges[i], edges[i + 1]
        active = i == qi
        for k, (label, width) in enumerate((("m", box), ("ℓ", box), ("a", 2 * box))):
            x = state_x + sum((box, box, 2 * box)[:k]) + 0.02 * n * k
            ax.add_patch(plt.Rectangle((x, y0), width, y1 - y0, facecolor="#fbe3c2" if active else "#f2f2f2",
                                       edgecolor=pal["ink"], lw=1.0))
            if i == 0:
                ax.text(x + width / 2, -0.03 * n, label, ha="center", va="bottom", fontsize=style.MIN_TEXT_PT)
    ax.annotate("", xy=(state_x - 0.005 * n, (edges[qi] + edges[qi + 1]) / 2),
                xytext=(edges[kj + 1], (edges[qi] + edges[qi + 1]) / 2),
                arrowprops={"arrowstyle": "-|>", "color": pal["red"], "lw": 1.8})
    ax.set_xlim(-0.02 * n, state_x + 4 * box + 0.06 * n)
    ax.set_ylim(n + 0.02 * n, -0.1 * n)
    ax.set_aspect("equal")
    ax.set_xticks([(edges[j] + edges[j + 1]) / 2 for j in range(blocks)],
                  [f"K{j + 1}" for j in range(blocks)])
    ax.set_yticks([(edges[i] + edges[i + 1]) / 2 for i in range(blocks)],
                  [f"Q{i + 1}" for i in range(blocks)])
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    ax.grid(False)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_xlabel("key blocks  →  folded in one at a time", labelpad=8)
    ax.xaxis.set_label_position("bottom")
    ax.set_ylabel("query blocks")
    legend = [plt.Rectangle((0, 0), 1, 1, facecolor="#cfe6f5", edgecolor=pal["ink"], label="done"),
              plt.Rectangle((0, 0), 1, 1, facecolor=pal["orange"], edgecolor=pal["ink"], label="current tile"),
              plt.Rectangle((0, 0), 1, 1, facecolor="white", edgecolor=pal["ink"], label="to come")]
    if causal:
        legend.append(plt.Rectangle((0, 0), 1, 1, facecolor="white", edgecolor=pal["ink"], hatch="///",
                                    label="skipped (causal)"))
    ax.legend(handles=legend, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=len(legend))
    if title:
        ax.set_title(title, pad=26)
    return ax
