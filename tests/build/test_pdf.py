"""The printable edition (`make pdf`).

The print copy (tools/pdf_source.py) is checked on every run: every slider becomes its default
figure and a line saying it is interactive on the web page. Building the PDF itself takes minutes
(XeLaTeX, three passes over ~230 pages), so `make test` does not do it; `make test-pdf` builds it and
runs the checks below on the result (BOOK_PDF_BUILD=1): its page count, that it names every chapter,
and that a page with math and a page with a figure render to PNG without being blank.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

from tests._project import ROOT, config

sys.path.insert(0, str(ROOT / "tools"))
import pdf_source  # noqa: E402

CHAPTERS = sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))
BUILD = os.environ.get("BOOK_PDF_BUILD") == "1"


def _title(path: Path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    first = next(c for c in nb["cells"] if c["cell_type"] == "markdown")
    return re.match(r"#\s+(.+)", "".join(first["source"])).group(1).strip()


def _plain(text: str) -> str:
    """Compare text across LaTeX's typography: quotes, dashes, √, math and whitespace."""
    text = text.replace("“", '"').replace("”", '"').replace("’", "'").replace("‘", "'").replace("–", "-")
    text = re.sub(r"\$[^$]*\$", "", text).replace("√", "").replace("_", "").replace("ₖ", "k").replace("ᵀ", "t")
    return re.sub(r"\s+", " ", text).strip().lower()


def test_the_print_copy_replaces_every_slider_with_its_figure_and_a_line(tmp_path: Path) -> None:
    n = pdf_source.write(tmp_path / "src")
    widget_cells = sum(
        1 for p in sorted((ROOT / "book").glob("*.ipynb"))
        for c in json.loads(p.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"
        for o in c.get("outputs", []) if pdf_source.WIDGET_MIME in o.get("data", {})
    )
    assert widget_cells >= 4 and n == widget_cells
    lines = 0
    for p in sorted((tmp_path / "src" / "book").glob("*.ipynb")):
        for c in json.loads(p.read_text(encoding="utf-8"))["cells"]:
            for o in c.get("outputs", []):
                data = o.get("data", {})
                assert pdf_source.WIDGET_MIME not in data, f"{p.name}: a widget output is left in the print copy"
                if "Interactive on the web page" in data.get("text/markdown", ""):
                    lines += 1
                if "image/png" in data:
                    assert len(data["image/png"]) > 1000
    assert lines == n
    # the four sliders of chapters 05 (temperature), 06 (sharpening, spread) and 08 (geometric) print their default figure
    for chapter, count in (("05_softmax", 1), ("06_scaling", 2), ("08_it_attends", 1)):
        nb = json.loads((tmp_path / "src" / "book" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
        figures = [o for c in nb["cells"] for o in c.get("outputs", []) if "image/png" in o.get("data", {})
                   and any("".join(o["data"].get("text/plain", "")).startswith(w) for w in pdf_source.PRINT_FIGURES)]
        assert len(figures) == count, chapter
    copied = (tmp_path / "src" / "_config.yml").read_text(encoding="utf-8")
    assert 'execute_notebooks: "off"' in copied or "execute_notebooks: 'off'" in copied or "execute_notebooks: off" in copied
    assert config()["latex"]["latex_engine"] == "xelatex"
    assert "## " not in (tmp_path / "src" / "book" / "intro.md").read_text(encoding="utf-8")
    # the widgets of chapters 14, 15 and 17 print their default figure too
    for chapter, count in (("14_positions", 1), ("15_decoding", 1), ("17_learning", 3)):
        nb = json.loads((tmp_path / "src" / "book" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
        printed = [o for c in nb["cells"] for o in c.get("outputs", []) if "image/png" in o.get("data", {})
                   and "".join(o["data"].get("text/plain", "")).startswith(pdf_source.PRINT_FIGURES)]
        assert len(printed) == count, chapter


def test_the_rotary_widget_prints_its_own_numbers() -> None:
    """Chapter 14's widget as the page opens: one arrow per vector, the pair's turned coordinates, and
    the score in the title."""
    nb = json.loads((ROOT / "book" / "14_positions.ipynb").read_text(encoding="utf-8"))
    state = nb["metadata"]["widgets"][pdf_source.STATE_MIME]["state"]
    data = next(o["data"] for c in nb["cells"] for o in c.get("outputs", [])
                if pdf_source.WIDGET_MIME in o.get("data", {}) and "".join(o["data"]["text/plain"]).startswith("Rotary"))
    widget = pdf_source._widget("RotaryPositions", state[data[pdf_source.WIDGET_MIME]["model_id"]]["state"])
    assert repr(widget) == "".join(data["text/plain"])
    n = widget.numbers()
    fig, moving = pdf_source.figure(widget)
    ax = fig.axes[0]
    tips = [a.xy for a in ax.texts if hasattr(a, "xy") and a.get_text() == ""]
    assert np.allclose(tips, [n["query_pair"], n["key_pair"]])
    assert f"{n['score']:.3f}" in ax.get_title() and "both together" in moving


@pytest.mark.parametrize(("chapter", "name"), [("15_decoding", "DecodingStepper"), ("17_learning", "TrainingReplay"),
                                               ("17_learning", "AskModel"), ("17_learning", "TrainItYourself"),
                                               ("19_a_model_that_writes", "WriteWithModel"),
                                               ("21_real_text", "ContinueText")])
def test_the_decoding_and_learning_widgets_print_their_own_numbers(chapter: str, name: str) -> None:
    nb = json.loads((ROOT / "book" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    state = nb["metadata"]["widgets"][pdf_source.STATE_MIME]["state"]
    data = next(o["data"] for c in nb["cells"] for o in c.get("outputs", [])
                if pdf_source.WIDGET_MIME in o.get("data", {}) and "".join(o["data"]["text/plain"]).startswith(name))
    widget = pdf_source._widget(name, state[data[pdf_source.WIDGET_MIME]["model_id"]]["state"])
    assert repr(widget) == "".join(data["text/plain"])  # rebuilt in the state the page starts from
    n = widget.numbers()
    fig, moving = pdf_source.figure(widget)
    left, right = fig.axes[:2]
    if name == "DecodingStepper":
        bars = [p.get_height() for p in right.patches]
        assert np.allclose(bars, np.concatenate([n["scores"], n["weights"]]))
        assert len(left.get_yticklabels()) == n["cache_length"]
    elif name == "TrainingReplay":
        assert np.allclose(np.asarray(left.collections[0].get_array()).reshape(n["map"].shape), n["map"])
        line, dot = right.get_lines()[:2]
        assert np.allclose(line.get_ydata(), [f["loss"] for f in widget.frames])
        assert (dot.get_xdata()[0], dot.get_ydata()[0]) == (n["step"], n["loss"])
        assert f"{len(widget.frames)} stored checkpoints" in moving
    elif name == "TrainItYourself":
        loss, accuracy = left.get_lines()[:2]
        assert np.allclose(loss.get_ydata(), n["losses"]) and np.allclose(accuracy.get_ydata(), n["accuracies"])
        assert np.allclose([p.get_height() for p in right.patches], n["rows"][-1])
        assert n["step"] == widget.settings["steps"] and "trains it step by step" in moving
    elif name == "WriteWithModel":
        assert np.allclose([p.get_height() for p in left.patches], n["probs"][-1][:5])
        shown = np.asarray(right.collections[0].get_array()).reshape(len(n["new"]), -1)
        for k, row in enumerate(n["rows"]):
            assert np.allclose(shown[k, : len(row)], row) and not shown[k, len(row):].any()
        assert " ".join(n["new"]) in fig._suptitle.get_text().replace("\n", " ")
    elif name == "ContinueText":
        assert np.allclose([p.get_height() for p in left.patches], n["probs"][-1][:5])
        rows = n["rows"][-1]  # (blocks, heads, read)
        shown = np.asarray(right.collections[0].get_array()).reshape(-1, rows.shape[2])
        assert np.allclose(shown, rows.reshape(-1, rows.shape[2])) and len(right.get_yticklabels()) == 8
        assert "continues it" in moving
    else:
        assert np.allclose([p.get_height() for p in left.patches], n["row"])
        assert np.allclose([p.get_height() for p in right.patches], n["probs"])
        assert n["sense"] in right.get_title()
    png = base64.b64decode(pdf_source._png(fig))
    img = imread(io.BytesIO(png))[..., :3]
    assert img.shape[1] > 600 and (img.mean(axis=-1) < 0.85).mean() > 0.02  # drawn, not blank


def _tool(name: str) -> str:
    path = shutil.which(name)
    if not path:
        pytest.fail(f"{name} is missing: run 'make pdf-deps'")
    return path


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not BUILD:
        pytest.skip("the PDF build takes minutes: run 'make test-pdf' (BOOK_PDF_BUILD=1)")
    src = tmp_path_factory.mktemp("pdf") / "src"
    pdf_source.write(src)
    jb = Path(sys.executable).with_name("jupyter-book")
    res = subprocess.run([str(jb), "build", "--builder", "pdflatex", str(src)], capture_output=True, text=True,
                         timeout=1800)
    out = src / "_build" / "latex" / "book.pdf"
    assert res.returncode == 0 and out.exists(), (res.stdout + res.stderr)[-4000:]
    return out


def _pages(pdf: Path) -> list[str]:
    text = subprocess.run([_tool("pdftotext"), "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    return text.split("\f")


def _render(pdf: Path, page: int, tmp: Path) -> np.ndarray:
    stem = tmp / f"page{page}"
    subprocess.run([_tool("pdftoppm"), "-png", "-r", "60", "-f", str(page), "-l", str(page), "-singlefile",
                    str(pdf), str(stem)], check=True)
    return imread(f"{stem}.png")[..., :3]


def _not_blank(img: np.ndarray, what: str) -> None:
    ink = (img.mean(axis=-1) < 0.85).mean()  # share of pixels that are not (near) white
    assert ink > 0.01, f"the {what} page renders blank ({ink:.2%} ink)"


def test_page_count_and_every_chapter_named(pdf: Path) -> None:
    pages = _pages(pdf)
    info = subprocess.run([_tool("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True).stdout
    n = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    assert 4 * len(CHAPTERS) <= n <= 1000, f"{n} pages for {len(CHAPTERS)} chapters"
    body = _plain(" ".join(pages))
    for path in CHAPTERS:
        assert _plain(_title(path)) in body, f"the PDF does not name chapter {path.name} ({_title(path)!r})"
    for page in ("Glossary", "Bibliography", "Notation and shapes", "Errata"):
        assert page.lower() in body
    assert body.count("interactive on the web page") >= 4
    missing = [line.strip() for page in pages for line in page.splitlines() if "\ufffd" in line]
    assert not missing, f"characters the PDF's fonts cannot print (shown as a box): {missing[:5]}"


def test_a_math_page_and_a_figure_page_render(pdf: Path, tmp_path: Path) -> None:
    pages = _pages(pdf)
    # the notation page: its tables and displayed formula are typeset math
    math_page = next(i + 1 for i, t in enumerate(pages) if "Tensors of one attention head" in t)
    img = _render(pdf, math_page, tmp_path)
    _not_blank(img, "math")
    # chapter 13's tiling figure: the page that carries its caption holds an image with colour in it
    fig_page = next(i + 1 for i, t in enumerate(pages) if "The tiles of chunked attention" in t)
    images = subprocess.run([_tool("pdfimages"), "-list", "-f", str(fig_page), "-l", str(fig_page), str(pdf)],
                            capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert images, f"page {fig_page} has no image"
    img = _render(pdf, fig_page, tmp_path)
    _not_blank(img, "figure")
    colour = (img.max(axis=-1) - img.min(axis=-1) > 0.2).mean()  # the orange tile and the blue done tiles
    assert colour > 0.005, f"the figure page has no colour ({colour:.2%})"


def test_headings_set_script_letters_with_roles_and_leave_the_prose() -> None:
    nb = {"cells": [{"cell_type": "markdown", "source": "# Why divide by √dₖ\n\nThe prose keeps √dₖ and Kᵀ.\n"},
                    {"cell_type": "markdown", "source": "## Step 3: Q × Kᵀ"},
                    {"cell_type": "code", "source": "# Kᵀ in a comment",
                     "outputs": [{"output_type": "display_data", "data": {"text/markdown": "### Step 3: Q × Kᵀ\n"}}]}]}
    assert pdf_source.print_headings(nb) == 3
    assert nb["cells"][0]["source"] == "# Why divide by √d{sub}`k`\n\nThe prose keeps √dₖ and Kᵀ.\n"
    assert nb["cells"][1]["source"] == "## Step 3: Q × K{sup}`T`"
    assert nb["cells"][2]["source"] == "# Kᵀ in a comment"
    assert nb["cells"][2]["outputs"][0]["data"]["text/markdown"] == "### Step 3: Q × K{sup}`T`\n"
