"""One figure style for the whole book.

Figures are drawn on an opaque white card with dark ink, so they read the same in the light and
the dark theme of the site. The palette is Okabe-Ito (colour-blind safe). Used by every chapter
through ``attnlib.plots``.

Every figure a chapter shows also records the size of its smallest text. Inside a notebook,
:func:`use` makes the PNG that ``plt.show()`` stores carry it (:func:`figure_png`): the smallest
font size of any text actually drawn (tick labels, legends, heatmap numbers, titles), in pixels of
that PNG, as the text chunk ``attnlib:smallest-text-px``. The site keeps the chunk, and the browser
tests (``bookdev.legibility``, on every page of the site) scale it by the width the page draws the
image at: that is the size of the text a reader sees.
"""

from __future__ import annotations

import base64
import io
from typing import Any

import matplotlib as mpl
from matplotlib.figure import Figure

PALETTE: dict[str, str] = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "red": "#D55E00",
    "purple": "#CC79A7",
    "sky": "#56B4E9",
    "yellow": "#F0E442",
    "grey": "#666666",
    "ink": "#222222",
}

CYCLE = [PALETTE[c] for c in ("blue", "orange", "green", "red", "purple", "sky", "grey")]

RC = {
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "savefig.facecolor": "white",
    "savefig.transparent": False,
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "font.size": 12,
    "axes.titlesize": 13,
    "axes.labelsize": 12,
    "xtick.labelsize": 12,
    "ytick.labelsize": 12,
    "legend.fontsize": 12,
    "legend.title_fontsize": 12,
    "figure.titlesize": 13,
    "axes.edgecolor": PALETTE["ink"],
    "axes.labelcolor": PALETTE["ink"],
    "text.color": PALETTE["ink"],
    "xtick.color": PALETTE["ink"],
    "ytick.color": PALETTE["ink"],
    "axes.grid": True,
    "grid.color": "#dddddd",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": mpl.cycler(color=CYCLE),
    "svg.hashsalt": "attention-book",
    "image.cmap": "viridis",
}


#: The smallest text of a figure, in points (12 pt at 100 dpi is 16.7 px of the PNG). A figure of
#: the book's usual width (6 in, about 620 px with its margins) is drawn 342 px wide on a 390 px
#: phone, so its 12 pt text reads at about 9.2 CSS px there (8 is the floor: figures up to about
#: 710 px read as they are, and the book makes none wider: :data:`COLUMN_IN`); at 1280 px (a 672 px
#: column) 12 pt stays above 10 px in figures up to about 1,120 px wide.
MIN_TEXT_PT = 12.0
#: The widest a figure is made (inches). With its margins it stays within about 700 px at 100 dpi,
#: so its 12 pt text reads at 8 CSS px or more in a 390 px phone's 342 px column, with no zoom; a
#: figure of several panels stacks them (one column) to fit.
COLUMN_IN = 6.6
#: The PNG text chunk that carries a figure's smallest text, in pixels of the PNG.
TEXT_KEY = "attnlib:smallest-text-px"
#: The PNG text chunk that names that text, so that a failing check can say which label is too small.
TEXT_WHAT_KEY = "attnlib:smallest-text"
#: The PNG text chunk that lists texts that overlap or run into each other ("none" when none do).
OVERLAP_KEY = "attnlib:overlapping-text"


def drawn_texts(fig: Figure) -> list[tuple[float, str]]:
    """Every non-empty text the figure draws, as ``(font size in pixels at the figure's dpi, text)``.

    Measured by drawing the figure and recording what reaches the renderer, so only what a reader
    sees counts: tick labels the locator keeps, legends, colour-bar labels, heatmap numbers,
    annotations; not hidden Axes or switched-off tick labels.
    """
    return [(size, text) for size, text, _, _ in _drawn(fig)]


def _drawn(fig: Figure) -> list[tuple[float, str, Any, bool]]:
    """Every non-empty text drawn, as ``(font size in px, text, its box in pixels of the figure,
    whether it is upright)``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    renderer = canvas.get_renderer()
    seen: list[tuple[float, str, Any, bool]] = []
    draw_text = renderer.draw_text

    def spy(gc: Any, x: float, y: float, s: str, prop: Any, angle: float, *args: Any, **kwargs: Any) -> Any:
        if s.strip():
            mtext = kwargs.get("mtext")
            box = mtext.get_window_extent(renderer) if mtext is not None else None
            seen.append((float(renderer.points_to_pixels(prop.get_size_in_points())), s, box, angle % 180 == 0))
        return draw_text(gc, x, y, s, prop, angle, *args, **kwargs)

    renderer.draw_text = spy  # an instance attribute: this renderer only, for this one draw
    try:
        fig.draw(renderer)
    finally:
        del renderer.draw_text
    return seen


#: Two texts closer than this (in pixels of the PNG) side by side read as one ("0.100.12").
MIN_GAP_PX = 4.0


def overlapping_texts(fig: Figure) -> list[tuple[str, str]]:
    """The pairs of drawn texts whose boxes overlap (sharing more than a quarter of the lower one's
    height), or, both upright, sit side by side less than :data:`MIN_GAP_PX` apart on the same line
    (a heatmap's "0.10" and "0.12" running into "0.100.12")."""
    boxes = {}
    for _, text, box, upright in _drawn(fig):
        if box is not None:  # a text of several lines is drawn line by line: one box for all of them
            boxes.setdefault((round(box.x0, 1), round(box.y0, 1), round(box.x1, 1), round(box.y1, 1)), (text, upright))
    items = list(boxes.items())
    pairs = []
    for i, ((ax0, ay0, ax1, ay1), (a, a_up)) in enumerate(items):
        for (bx0, by0, bx1, by1), (b, b_up) in items[i + 1:]:
            high = min(ay1, by1) - max(ay0, by0)  # how much they share vertically (a box holds its line's
            wide = min(ax1, bx1) - max(ax0, bx0)  # leading: a quarter of it shared is not yet a clash) ...
            # ... and horizontally (< 0: the gap; turned texts side by side are lines, their boxes hold the leading)
            gap = MIN_GAP_PX if a_up and b_up else 0.0
            if high > 0.25 * min(ay1 - ay0, by1 - by0) and wide > -gap:
                pairs.append((a, b))
    return pairs


def smallest_text(fig: Figure) -> tuple[float, str] | None:
    """``(size in pixels at the figure's dpi, text)`` of the smallest text the figure draws, or
    ``None`` for a figure without text."""
    texts = drawn_texts(fig)
    return min(texts, key=lambda t: t[0]) if texts else None


def figure_png(fig: Figure, *, base64_encoded: bool = True) -> str | bytes | None:
    """The PNG that ``plt.show()`` stores in a notebook (IPython's own rendering: the figure's dpi,
    ``bbox_inches="tight"``), with the text chunk :data:`TEXT_KEY` giving the smallest text in
    pixels of this PNG (and :data:`TEXT_WHAT_KEY` naming it). ``None`` for an empty figure, as
    IPython does."""
    from IPython.core.pylabtools import print_figure

    small = smallest_text(fig)
    metadata = {TEXT_KEY: f"{small[0]:.2f}", TEXT_WHAT_KEY: small[1][:80]} if small else {TEXT_KEY: "none"}
    clash = overlapping_texts(fig)
    metadata[OVERLAP_KEY] = "; ".join(f"{a[:20]!r} / {b[:20]!r}" for a, b in clash[:5]) or "none"
    data = print_figure(fig, "png", metadata=metadata)
    if data is None or not base64_encoded:
        return data
    return base64.b64encode(data).decode("ascii")


def read_png_text(png: bytes) -> dict[str, str]:
    """The text chunks of a PNG (``tEXt``, ``iTXt``), e.g. the :data:`TEXT_KEY` of a figure."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        im.load()
        return dict(getattr(im, "text", {}))


def _record_text_sizes_in_notebooks() -> None:
    """Inside IPython, make ``plt.show()`` store figures through :func:`figure_png`.

    The inline backend registers its own PNG printer the first time pyplot needs a backend; the
    backend is resolved here first, so this printer replaces it and stays."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is a dependency of the book, not of attnlib's core
        return
    shell = get_ipython()
    if shell is None:
        return
    if mpl.get_backend(auto_select=False) in ("inline", "module://matplotlib_inline.backend_inline"):
        import matplotlib_inline.backend_inline  # noqa: F401 - on import it registers its printer
    formatter = shell.display_formatter.formatters["image/png"]
    formatter.for_type(Figure, figure_png)


def use() -> None:
    """Apply the book style to matplotlib (and seaborn, which reads the same rcParams); inside a
    notebook, figures shown record their smallest text (:func:`figure_png`)."""
    mpl.rcParams.update(RC)
    _record_text_sizes_in_notebooks()
