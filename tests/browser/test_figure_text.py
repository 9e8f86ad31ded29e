"""Figures a phone can read (issue 34 §6, issue 51 §1): the guard of the measure.

Every figure of every page is measured at 1280 px and at 390 px by the check ``figures_readable``
of test_pages.py, in that page's one visit (the measure: :mod:`bookdev.legibility`): its smallest
text as drawn in the page, with no dialog opened, and whether its texts overlap. Here the guard
plants figures in a real page and shows that the same measure fails them, and only them: one with
tiny text, and one of the book's former wide figures (11 in, 12 pt text), which a desktop reads and
a phone does not.
"""

from __future__ import annotations

import base64

import pytest

from bookdev.legibility import MIN_PX, too_small
from bookdev.readings import FIGURES
from bookdev.site import FIGURE_PAGES, PHONE

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}


def _planted_png(fontsize: float, width: float = 4) -> str:
    """A figure ``width`` inches wide drawn through the book's style, with its title at ``fontsize``
    points, as a data: URL."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from attnlib import style

    style.use()
    fig, ax = plt.subplots(figsize=(width, 3))
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


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_planted_wide_figure_fails_on_a_phone_only(open_page, viewport: str) -> None:  # noqa: ANN001
    """A figure 11 in wide with 12 pt text (as 23 of the book's figures were about, before issue 51):
    16.7 px of its PNG (about 900 px wide), drawn above 10 px at 1280 px, which reads, and near 6 px
    at 390 px, which the phone's check reports (a dialog that opens it at full size does not count)."""
    page, _ = open_page(FIGURE_PAGES[0])
    page.set_viewport_size(PHONE if viewport == "phone" else DESKTOP)
    before = page.evaluate(FIGURES)
    page.evaluate("""(src) => { const img = document.createElement("img"); img.src = src; img.alt = "planted wide";
      document.querySelector(".bd-article").append(img); }""", _planted_png(12, width=11))
    after = page.evaluate(FIGURES)
    planted = next(f for f in after if f["name"] == "planted wide")
    assert planted["natural"] > 850 and planted["overlapping"] == "none"
    least = MIN_PX[viewport]
    reported = [m.split(":")[0] for m in too_small(after, least)]
    expected = [m.split(":")[0] for m in too_small(before, least)]
    assert reported == expected + (["planted wide"] if viewport == "phone" else [])
