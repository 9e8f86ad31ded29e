"""The size of a figure's smallest text, measured where it is drawn (``attnlib.style``), and the
guard that tiny text is caught: the unit half of issue 34 §6 ("Figures a phone can read"). The
browser half (``bookdev.legibility``, applied to every page by ``tests/browser/test_pages.py``, its
guard in ``tests/browser/test_figure_text.py``) scales the recorded size by the width the site draws
each figure at.

Also: every plot helper, at its own size, draws no text below ``style.MIN_TEXT_PT``; and the site's
re-encoding of the figures keeps the record.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from attnlib import plots, style  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PX_PER_PT = 100 / 72  # the book's figures are drawn at 100 dpi
#: The text column of the site at 1280 px and at 390 px, in CSS px (measured: tests/browser).
COLUMN = {"desktop": 672, "phone": 342}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _png_width(fig) -> int:  # noqa: ANN001
    png = style.figure_png(fig, base64_encoded=False)
    with Image.open(io.BytesIO(png)) as im:
        return im.size[0]


def test_a_planted_tiny_title_is_the_smallest_text() -> None:
    """The guard: one 4 pt title among 12 pt text is what the measure reports, at 5.6 px."""
    style.use()
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1])
    ax.set_title("planted", fontsize=4)
    size, text = style.smallest_text(fig)
    assert text == "planted"
    assert size == pytest.approx(4 * PX_PER_PT)
    assert size < 8  # below the phone's floor even at full size


def test_hidden_text_does_not_count_and_drawn_text_does() -> None:
    """Only what reaches the renderer counts: a hidden panel's tiny label and switched-off tick
    labels do not; heatmap numbers and legend entries do."""
    style.use()
    fig, (a, b, c) = plt.subplots(1, 3, figsize=(9, 3))
    b.set_title("hidden", fontsize=3)
    b.set_visible(False)
    c.plot([0, 1], [0, 1], label="legend")
    c.legend(fontsize=5)
    c.tick_params(labelsize=2, labelbottom=False, labelleft=False)
    plots.heatmap(np.array([[0.5, 0.5], [0.25, 0.75]]), ax=a)
    for t in a.texts:
        t.set_fontsize(6)
    texts = style.drawn_texts(fig)
    assert "hidden" not in {t for _, t in texts}
    assert min(s for s, _ in texts) == pytest.approx(5 * PX_PER_PT)  # the legend, not the hidden 2 pt ticks
    assert {t for s, t in texts if s == pytest.approx(6 * PX_PER_PT)} == {"0.50", "0.25", "0.75"}


def test_the_png_carries_the_smallest_text_and_the_site_keeps_it(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "_ext"))  # as Jupyter Book puts it for the site's extensions
    from site_assets import images

    style.use()
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar(["a", "b"], [1, 2])
    ax.set_xlabel("seven pt", fontsize=7)
    png = style.figure_png(fig, base64_encoded=False)
    chunks = style.read_png_text(png)
    assert float(chunks[style.TEXT_KEY]) == pytest.approx(7 * PX_PER_PT, abs=0.01)
    assert chunks[style.TEXT_WHAT_KEY] == "seven pt"
    (tmp_path / "_images").mkdir()
    path = tmp_path / "_images" / "figure.png"
    path.write_bytes(png)
    before, after = images.optimize_images(tmp_path)
    assert after < before  # re-encoded ...
    kept = style.read_png_text(path.read_bytes())
    assert kept[style.TEXT_KEY] == chunks[style.TEXT_KEY]  # ... with the record
    assert "Software" not in kept


WORDS = ["the", "cat", "sat", "down"]
HELPERS = {
    "vectors_2d": lambda: plots.vectors_2d({"a": [1, 2], "b": [2, -1]}),
    "grouped_bars": lambda: plots.grouped_bars({"x": [0.1, 0.5, 0.4], "y": [0.3, 0.3, 0.4]}, WORDS[:3], ylabel="w"),
    "heatmap": lambda: plots.heatmap(np.full((4, 4), 0.25), row_labels=WORDS, col_labels=WORDS),
    "similarity_qk": lambda: plots.similarity_qk([1.0, 0.5], {"a": [2.0, 1.0], "b": [-1.0, 2.0]}),
    "scaling_softmax_bars": lambda: plots.scaling_softmax_bars([2.0, 1.0, -1.0], WORDS[:3], d_k=2)[0],
    "scaling_softmax_bars stacked": lambda: plots.scaling_softmax_bars([2.0, 1.0, -1.0], WORDS[:3], d_k=2,
                                                                       stacked=True)[0],
    "weighted_sum_v": lambda: plots.weighted_sum_v({"a": [1, 0], "b": [0, 1], "c": [1, 1]}, [0.5, 0.3, 0.2]),
    "word_shifts": lambda: plots.word_shifts({"bank": [1, 1]}, {"bank": ([1, 1], [2, 0])}),
    "heatmap_grid": lambda: plots.heatmap_grid(np.full((4, 4, 4), 0.25), row_labels=WORDS, col_labels=WORDS,
                                               ncols=2)[0],
    "histograms": lambda: plots.histograms({"a": np.arange(50.0), "b": np.arange(50.0) / 2}, xlabel="x"),
    "curves": lambda: plots.curves([1, 2, 4], {"a": [1, 2, 3]}, xlabel="x", ylabel="y"),
    "growth": lambda: plots.growth([8, 16, 32], {"cost": [1.0, 4.0, 16.0]}, ylabel="cost"),
    "loss_curve": lambda: plots.loss_curve([1.0, 0.5, 0.2]),
    "tiling": lambda: plots.tiling(8, 2, causal=True, title="tiles"),
    "batch_diagram": lambda: plots.batch_diagram(np.zeros((2, 3, 4)), [["a", "b", "c"], ["d", "e", "f"]]),
}


@pytest.mark.parametrize("name", sorted(HELPERS))
def test_each_helper_draws_no_text_below_the_book_floor(name: str) -> None:
    """Every plot helper's own figure: no text below ``MIN_TEXT_PT``; at the site's column width,
    at least 10 CSS px at 1280 px and 8 px at 390 px; no two of its texts overlap."""
    fig = HELPERS[name]().figure
    size, text = style.smallest_text(fig)
    assert size >= style.MIN_TEXT_PT * PX_PER_PT - 1e-9, f"{name}: {text!r} at {size:.1f} px"
    width = _png_width(fig)
    assert size * min(1.0, COLUMN["desktop"] / width) >= 10, f"{name}: {width} px wide"
    assert size * min(1.0, COLUMN["phone"] / width) >= 8, f"{name}: {width} px wide, {text!r}"
    assert style.overlapping_texts(fig) == [], name


def test_heatmap_numbers_fit_in_their_cells() -> None:
    """Written at the book's floor, a heatmap's numbers stay inside their cells (at the helper's own
    size and in a panel of a two-panel figure): cells are not kept square when annotated."""
    style.use()
    _, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    own = plots.heatmap(np.full((7, 8), 0.25), row_labels=[f"step {i}" for i in range(7)])
    for ax in (own, left, right):
        if ax is not own:
            plots.heatmap(np.full((7, 8), 0.25), ax=ax)
        ax.figure.canvas.draw()
        cell = abs(ax.transData.transform((1, 0))[0] - ax.transData.transform((0, 0))[0])
        widths = [t.get_window_extent().width for t in ax.texts]
        assert len(widths) == 56 and max(widths) < cell, (max(widths), cell)


def test_overlapping_or_touching_texts_are_found() -> None:
    """The guard of the overlap record: heatmap numbers too wide for their cells run into each other
    ("0.100.12") and are reported; the same numbers in cells wide enough are not."""
    style.use()
    fig, (narrow, wide) = plt.subplots(2, 1, figsize=(6, 5))
    for ax in (narrow, wide):
        ax.set_xlim(0, 8)
        ax.axis("off")
    for i in range(8):
        narrow.text(i * 0.1, 0.5, f"0.1{i}", fontsize=12)  # 0.1 of 8 units of 6 in: 0.075 in apart
        wide.text(i, 0.5, f"0.1{i}", fontsize=12)
    pairs = style.overlapping_texts(fig)
    assert ("0.10", "0.11") in pairs and len(pairs) >= 7
    png = style.figure_png(fig, base64_encoded=False)
    assert "'0.10' / '0.11'" in style.read_png_text(png)[style.OVERLAP_KEY]
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(6, 2))
    ax.set_xlim(0, 8)
    for i in range(8):
        ax.text(i, 0.5, f"0.1{i}", fontsize=12)
    assert style.overlapping_texts(fig) == []
    assert style.read_png_text(style.figure_png(fig, base64_encoded=False))[style.OVERLAP_KEY] == "none"


def _stored_figures() -> list[tuple[str, str, bytes]]:
    """Every figure the book's pages store: (notebook, figure name, PNG)."""
    import base64
    import json

    found = []
    for nb in sorted((ROOT / "book").glob("*.ipynb")):
        for i, cell in enumerate(json.loads(nb.read_text(encoding="utf-8"))["cells"]):
            name = cell.get("metadata", {}).get("mystnb", {}).get("figure", {}).get("name", f"cell {i}")
            for out in cell.get("outputs", []):
                if "image/png" in out.get("data", {}):
                    found.append((nb.name, name, base64.b64decode(out["data"]["image/png"])))
    return found


def test_every_stored_figure_reads_in_the_column_with_no_text_overlapping() -> None:
    """Every figure a page stores: its smallest text, scaled to the site's column (a phone's 342 px,
    the desktop's 672 px), is at least 8 and 10 CSS px, and its PNG records no overlapping texts.
    (The browser tests measure the same on the built site, as the reader's browser draws it.)"""
    figures = _stored_figures()
    assert len(figures) >= 40
    problems = []
    for nb, name, png in figures:
        chunks = style.read_png_text(png)
        with Image.open(io.BytesIO(png)) as im:
            width = im.size[0]
        if chunks.get(style.TEXT_KEY, "none") == "none":
            problems.append(f"{nb} {name}: its text not measured (shown without attnlib.style.use())")
            continue
        size = float(chunks[style.TEXT_KEY])
        for where, least in (("phone", 8.0), ("desktop", 10.0)):
            drawn = size * min(1.0, COLUMN[where] / width)
            if drawn < least:
                problems.append(f"{nb} {name}: {chunks[style.TEXT_WHAT_KEY]!r} at {drawn:.1f} px on the {where} "
                                f"({width} px wide)")
        if chunks.get(style.OVERLAP_KEY, "not measured") != "none":
            problems.append(f"{nb} {name}: overlapping texts: {chunks.get(style.OVERLAP_KEY, 'not measured')}")
    assert not problems, "\n".join(problems)
