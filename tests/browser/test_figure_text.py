"""Figures a phone can read (issue 34 §6): the text of every figure, as the page draws it.

Each figure's PNG says how big its smallest text is, in pixels of the PNG (the text chunk that
``attnlib.style.figure_png`` writes when a chapter shows the figure: tick labels, legends, heatmap
numbers, titles, whatever the figure draws). The page draws the PNG at some width; the reader sees
that text at ``smallest × displayed width / natural width`` CSS pixels. At 1280 px it must be at
least 10 px; at 390 px at least 8 px, either in the page or, for a figure too wide for a phone, in
the dialog that opens it at full size (``_ext/static/figure_zoom.js``), reached by the keyboard.
A figure whose PNG does not say fails: it was not measured. The guard plants a figure with tiny
text in a real page and shows that the same measure fails it.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from bookdev.site import PAGES, PHONE, SITE

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
#: The smallest text a reader may meet, in CSS pixels (issue 34 §6).
MIN_PX = {"phone": 8.0, "desktop": 10.0}
FIGURE_PAGES = [p for p in PAGES if "_images/" in (SITE / p).read_text(encoding="utf-8", errors="ignore")]

# Every PNG image of the article: its natural and displayed widths, and the text chunks of the PNG
# the browser loaded (fetched again from the same address, read here: tEXt and uncompressed iTXt).
_FIGURES = r"""async () => {
  const latin1 = (a) => String.fromCharCode(...a);
  const utf8 = (a) => new TextDecoder().decode(a);
  function chunks(buf) {
    const b = new Uint8Array(buf), v = new DataView(buf), out = {};
    for (let p = 8; p + 8 <= b.length;) {
      const len = v.getUint32(p), type = latin1(b.slice(p + 4, p + 8)), d = b.slice(p + 8, p + 8 + len);
      if (type === "tEXt") { const z = d.indexOf(0); out[latin1(d.slice(0, z))] = latin1(d.slice(z + 1)); }
      if (type === "iTXt" && d[d.indexOf(0) + 1] === 0) {
        const z = d.indexOf(0), l = d.indexOf(0, z + 3), t = d.indexOf(0, l + 1);
        out[latin1(d.slice(0, z))] = utf8(d.slice(t + 1));
      }
      if (type === "IEND") break;
      p += 12 + len;
    }
    return out;
  }
  const imgs = [...document.querySelectorAll(".bd-article img")].filter(
    (i) => /\.png$/.test(new URL(i.currentSrc || i.src, location.href).pathname) || /^data:image\/png/.test(i.src));
  const out = [];
  for (const [n, img] of imgs.entries()) {
    await img.decode().catch(() => null);
    const text = chunks(await (await fetch(img.currentSrc || img.src)).arrayBuffer());
    const button = img.nextElementSibling && img.nextElementSibling.matches("button.attnbook-zoom-open")
      ? img.nextElementSibling : null;
    if (button) button.dataset.testFigure = String(n);
    out.push({
      n, name: (img.closest("figure[id]") || {}).id || img.alt.slice(0, 60) || img.src.slice(-30),
      natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
      smallest: text["attnlib:smallest-text-px"] ?? null, what: text["attnlib:smallest-text"] ?? "",
      zoom: !!button && !button.hidden,
    });
  }
  return out;
}"""

# The figure dialog once open: the drawn width of its image, and whether its box pans.
_DIALOG = r"""() => {
  const d = document.querySelector("dialog.attnbook-zoom");
  if (!d || !d.open) return null;
  const pan = d.querySelector(".attnbook-zoom-pan"), img = pan.querySelector("img");
  return { shown: img.getBoundingClientRect().width, natural: img.naturalWidth,
           focused: document.activeElement === pan, scroll: pan.scrollLeft,
           wide: pan.scrollWidth > pan.clientWidth + 1 };
}"""


def drawn(fig: dict[str, Any]) -> float | None:
    """The smallest text of a figure as the page draws it, in CSS pixels (None: not measured)."""
    if fig["smallest"] in (None, "none") or not fig["natural"]:
        return None if fig["smallest"] is None else float("inf")
    return float(fig["smallest"]) * fig["shown"] / fig["natural"]


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
    """Open a figure's dialog by the keyboard and measure it there; ``None`` if it reads, else why not."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    if not fig["zoom"]:
        return f"{fig['name']}: too small at 390 px and no 'open at full size' button"
    button = page.locator(f"button.attnbook-zoom-open[data-test-figure='{fig['n']}']")
    button.focus()
    page.keyboard.press("Enter")
    if page.evaluate(_DIALOG) is None:
        return f"{fig['name']}: Enter on its button opened no dialog"
    page.wait_for_function("() => document.querySelector('dialog.attnbook-zoom img').naturalWidth > 0")
    seen = page.evaluate(_DIALOG)
    size = float(fig["smallest"]) * seen["shown"] / seen["natural"]
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
    if page.evaluate(_DIALOG) is not None:
        problems.append("Escape does not close the dialog")
    elif not page.evaluate("(n) => document.activeElement?.dataset?.testFigure === n", str(fig["n"])):
        problems.append("closing does not give the focus back to its button")
    return f"{fig['name']}: " + "; ".join(problems) if problems else None


@pytest.mark.parametrize("name", FIGURE_PAGES)
def test_figure_text_reads_at_1280_px(open_page, name: str) -> None:  # noqa: ANN001
    page, log = open_page(name)
    figures = page.evaluate(_FIGURES)
    assert figures, f"{name}: no figure found, though its HTML has one"
    assert too_small(figures, MIN_PX["desktop"]) == []
    assert log.external == [] and log.page_errors == []


@pytest.mark.parametrize("name", FIGURE_PAGES)
def test_figure_text_reads_at_390_px(open_page, name: str) -> None:  # noqa: ANN001
    page, log = open_page(name)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(50)  # the zoom buttons follow the resize
    figures = page.evaluate(_FIGURES)
    assert figures, f"{name}: no figure found, though its HTML has one"
    assert too_small(figures, 0.0) == []  # every figure measured
    failures = [opened_at_full_size(page, fig) for fig in figures if drawn(fig) < MIN_PX["phone"]]
    assert [f for f in failures if f] == []
    assert log.external == [] and log.page_errors == []


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
    before = page.evaluate(_FIGURES)
    page.evaluate("""(src) => { const img = document.createElement("img"); img.src = src; img.alt = "planted";
      document.querySelector(".bd-article").append(img); }""", _planted_png(4))
    after = page.evaluate(_FIGURES)
    planted = [f for f in after if f["name"] == "planted"]
    assert len(planted) == 1 and len(after) == len(before) + 1
    assert float(planted[0]["smallest"]) == pytest.approx(4 * 100 / 72, abs=0.01)
    least = MIN_PX[viewport]
    assert [m.split(":")[0] for m in too_small(after, least)] == [*(m.split(":")[0] for m in too_small(before, least)),
                                                                    "planted"]
