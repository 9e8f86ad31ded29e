"""Text a reader can read: the measures the browser tests apply to figures and formulas.

Figures (issue 34 §6): each figure's PNG says how big its smallest text is, in pixels of the PNG
(the text chunk ``attnlib.style.figure_png`` writes). The page draws the PNG at some width; the
reader sees that text at ``smallest × displayed width / natural width`` CSS pixels: at least
:data:`MIN_PX` ``["desktop"]`` at 1280 px, and on a phone at least ``["phone"]``, in the page, with
no dialog opened (issue 51 §1; the dialog that opens a shrunk figure at full size,
``_ext/static/figure_zoom.js``, is a convenience, checked to work by the keyboard). The PNG also
lists the texts that overlap or run into each other (``attnlib.style.OVERLAP_KEY``): there must be
none, which holds at every width since the page scales the image as a whole.

Formulas: at a phone's width every formula fits its line, drawn at least :data:`MIN_SCALE` of the
text's size; one wider than that scrolls sideways, reachable by the keyboard, and fades out where more
of it lies.

The readings these measure are :data:`bookdev.readings.FIGURES`, ``FIGURE_DIALOG`` and ``FORMULAS``;
:func:`bookdev.site.read_page` takes them on every page, and ``tests/browser/test_pages.py`` asserts.
"""

from __future__ import annotations

from typing import Any

from bookdev import readings

#: The smallest text a reader may meet, in CSS pixels (issue 34 §6).
MIN_PX = {"phone": 8.0, "desktop": 10.0}
#: A formula may be drawn smaller to fit its line, down to this share of the text's size; one wider
#: than that scrolls sideways (a box the keyboard can reach), and is then clearly wider than its box.
MIN_SCALE = 0.8


def drawn(fig: dict[str, Any]) -> float | None:
    """The smallest text of a figure as the page draws it, in CSS pixels (None: not measured)."""
    if fig["smallest"] in (None, "none") or not fig["natural"]:
        return None if fig["smallest"] is None else float("inf")
    return float(fig["smallest"]) * fig["shown"] / fig["natural"]


def overlapping(figures: list[dict[str, Any]]) -> list[str]:
    """The figures whose PNG lists texts that overlap (or does not say: not drawn through attnlib.style)."""
    bad = []
    for fig in figures:
        if fig.get("overlapping") is None:
            bad.append(f"{fig['name']}: its PNG does not record whether its texts overlap")
        elif fig["overlapping"] != "none":
            bad.append(f"{fig['name']}: texts overlap: {fig['overlapping']}")
    return bad


def too_small(figures: list[dict[str, Any]], least: float) -> list[str]:
    """The figures whose smallest text the page draws below ``least`` CSS px (or never measured)."""
    bad = []
    for fig in figures:
        size = drawn(fig)
        if size is None:
            bad.append(f"{fig['name']}: its PNG does not record its smallest text (not drawn through attnlib.style)")
        elif size < least:
            bad.append(f"{fig['name']}: {fig['what']!r} drawn at {size:.1f} px (< {least:g}); "
                       f"{float(fig['smallest']):.1f} px in a {fig['natural']} px image shown {fig['shown']:.0f} px wide")
    return bad


def opened_at_full_size(page: Any, fig: dict[str, Any]) -> str | None:
    """Open a figure's dialog by the keyboard and measure it there; ``None`` if it reads, else why not.
    Leaves the dialog closed and the focus on the figure's button."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # heavy; only browser runs need it

    if not fig["zoom"]:
        return f"{fig['name']}: drawn smaller than its size at 390 px and no 'open at full size' button"
    button = page.locator(f"button.attnbook-zoom-open[data-test-figure='{fig['n']}']")
    button.focus()
    page.keyboard.press("Enter")
    if page.evaluate(readings.FIGURE_DIALOG) is None:
        return f"{fig['name']}: Enter on its button opened no dialog"
    page.wait_for_function("() => document.querySelector('dialog.attnbook-zoom img').naturalWidth > 0")
    seen = page.evaluate(readings.FIGURE_DIALOG)
    size = drawn({**fig, "shown": seen["shown"], "natural": seen["natural"]})
    problems = []
    if size < MIN_PX["phone"]:
        problems.append(f"text {size:.1f} px in the dialog")
    if not seen["focused"]:
        problems.append("the panning box does not get the focus")
    if seen["wide"]:
        page.keyboard.press("ArrowRight")
        try:  # the browser may scroll smoothly: give it a moment
            page.wait_for_function("() => document.querySelector('.attnbook-zoom-pan').scrollLeft > 0", timeout=2000)
        except PlaywrightTimeout:
            problems.append("the arrow keys do not pan it")
    page.keyboard.press("Escape")
    if page.evaluate(readings.FIGURE_DIALOG) is not None:
        problems.append("Escape does not close the dialog")
    elif not page.evaluate("(n) => document.activeElement?.dataset?.testFigure === n", str(fig["n"])):
        problems.append("closing does not give the focus back to its button")
    return f"{fig['name']}: " + "; ".join(problems) if problems else None


def shown_formulas(page: Any) -> list[dict[str, Any]]:
    """The page's typeset formulas that are drawn (:data:`readings.FORMULAS`; not those in closed boxes)."""
    return [f for f in page.evaluate(readings.FORMULAS) if f["shown"]]


def formula_problems(formulas: list[dict[str, Any]]) -> list[str]:
    """What is wrong with the shown formulas of a page at a phone's width (:data:`readings.FORMULAS`):
    cut off by a box that hides it, overflowing by a little, scrolling without the keyboard or without
    a fade, fading though it fits, or drawn below :data:`MIN_SCALE` of the text's size."""
    problems = []
    for f in formulas:
        fits = f["content"] <= f["width"] + 0.5
        where = f"{'display' if f['display'] else 'inline'} {f['tex']!r} ({f['content']} px in {f['width']} px, {f['box']})"
        if f["overflow"] in ("hidden", "clip") and f["cut"] > 0.5:
            problems.append(f"{where}: {f['cut']} px cut off by a box that hides it")
        elif not fits and f["content"] * MIN_SCALE <= f["width"]:
            problems.append(f"{where}: overflows by a little, would fit at {f['width'] / f['content']:.2f} of its size")
        elif not fits and not f["focusable"]:
            problems.append(f"{where}: scrolls, but the keyboard cannot reach it")
        elif not fits and not f["fades"]:
            problems.append(f"{where}: scrolls, but does not fade out where more of it lies")
        elif fits and f["fades"]:
            problems.append(f"{where}: fits, but fades out at an edge")
        if f["scale"] < MIN_SCALE - 0.01:
            problems.append(f"{where}: drawn at {f['scale']:.2f} of the text's size")
    return problems
