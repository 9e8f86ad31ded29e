"""One figure style for the whole book.

Figures are drawn on an opaque white card with dark ink, so they read the same in the light and
the dark theme of the site. The palette is Okabe-Ito (colour-blind safe). Used by every chapter
through ``attnlib.plots``.
"""

from __future__ import annotations

import matplotlib as mpl

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
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
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


def use() -> None:
    """Apply the book style to matplotlib (and seaborn, which reads the same rcParams)."""
    mpl.rcParams.update(RC)
