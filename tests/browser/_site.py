"""The built site as the browser tests see it: which pages exist, and loading one until its math
is typeset."""

from __future__ import annotations

from tests.browser.conftest import SITE

# Every HTML page Sphinx wrote: everything except the asset folders (`_static`, `_sources`,
# `_images`, and any other folder of copied files, all named with a leading underscore by
# Sphinx) and folders holding no page of the book.
PAGES = sorted(
    p.relative_to(SITE).as_posix()
    for p in SITE.rglob("*.html")
    if not any(part.startswith("_") for part in p.relative_to(SITE).parts[:-1])
) if SITE.exists() else []
CHAPTERS = [p for p in PAGES if p.startswith("book/") and p.split("/")[-1][:2].isdigit()]

# Raw TeX a page would show if MathJax did not typeset it.
RAW_TEX = ("$$", "\\(", "\\)", "\\[", "\\]", "\\begin{")


def has_math(page: str) -> bool:
    """Whether Sphinx marked math on ``page`` (inline ``span.math`` or display ``div.math``)."""
    html = (SITE / page).read_text(encoding="utf-8")
    return 'class="math notranslate nohighlight"' in html


def load(page, url: str) -> None:  # noqa: ANN001
    """Open ``url`` and wait until the network is idle and MathJax (if the page has it) has
    finished typesetting."""
    page.goto(url, wait_until="networkidle")
    page.evaluate(
        """async () => {
            const mj = window.MathJax;
            if (mj && mj.startup && mj.startup.promise) { await mj.startup.promise; }
            if (mj && mj.typesetPromise) { await mj.typesetPromise(); }
        }"""
    )


def prose_text(page) -> str:  # noqa: ANN001
    """The visible text of the page's article without code blocks and cell outputs (where a
    dollar sign or a backslash is literal)."""
    return page.evaluate(
        """() => {
            const main = document.querySelector("main") || document.body;
            const copy = main.cloneNode(true);
            copy.querySelectorAll("pre, code, .highlight, .cell_output, mjx-container, script, style")
                .forEach(e => e.remove());
            return copy.innerText;
        }"""
    )
