"""Figures a phone can read (issue 34 §6): the guard of the measure.

Every figure of every page is measured at 1280 px and at 390 px by the check ``figures_readable``
of test_pages.py, in that page's one visit (the measure: :mod:`bookdev.legibility`). Here the guard
plants a figure with tiny text in a real page and shows that the same measure fails it, and only it.
"""

from __future__ import annotations

import base64

import pytest

from bookdev.legibility import MIN_PX, too_small
from bookdev.readings import FIGURES
from bookdev.site import FIGURE_PAGES, PHONE

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}


def _planted_png(fontsize: float) -> str:
    """A figure drawn through the book's style, with its title at ``fontsize`` points, as a data: URL."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from attnlib import style

    style.use()
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1])
    ax.set_title("planted", fontsize=fontsize)
    try:
        png = style.figure_png(fig, base64_encoded=False)
    finally:
        plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_planted_figure_with_tiny_text_fails(open_page, viewport: str) -> None:  # noqa: ANN001
    """The guard: the same measure, on a real page with one more figure whose title is 4 pt (5.6 px
    of its PNG at 100 dpi, less even at full size), reports that figure and only it."""
    page, _ = open_page(FIGURE_PAGES[0])
    page.set_viewport_size(PHONE if viewport == "phone" else DESKTOP)
    before = page.evaluate(FIGURES)
    page.evaluate("""(src) => { const img = document.createElement("img"); img.src = src; img.alt = "planted";
      document.querySelector(".bd-article").append(img); }""", _planted_png(4))
    after = page.evaluate(FIGURES)
    planted = [f for f in after if f["name"] == "planted"]
    assert len(planted) == 1 and len(after) == len(before) + 1
    assert float(planted[0]["smallest"]) == pytest.approx(4 * 100 / 72, abs=0.01)
    least = MIN_PX[viewport]
    assert [m.split(":")[0] for m in too_small(after, least)] == [*(m.split(":")[0] for m in too_small(before, least)),
                                                                    "planted"]
