"""The built site as the browser tests see it: which pages exist, loading one until its math is
typeset, and :func:`visit`, one load of a page that gathers what every per-page check needs."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from bookdev.browser import ROOT, SITE, PageLog, offline_page

VIEW_MIME = "application/vnd.jupyter.widget-view+json"

# Every HTML page Sphinx wrote: everything except the asset folders (`_static`, `_sources`,
# `_images`, and any other folder of copied files, all named with a leading underscore by
# Sphinx) and folders holding no page of the book.
PAGES = sorted(
    p.relative_to(SITE).as_posix()
    for p in SITE.rglob("*.html")
    if not any(part.startswith("_") for part in p.relative_to(SITE).parts[:-1])
) if SITE.exists() else []
CHAPTERS = [p for p in PAGES if p.startswith("book/") and p.split("/")[-1][:2].isdigit()]
# Every page that embeds a widget view (a slider).
WIDGET_PAGES = [p for p in PAGES if VIEW_MIME in (SITE / p).read_text(encoding="utf-8", errors="ignore")]

# Raw TeX a page would show if MathJax did not typeset it.
RAW_TEX = ("$$", "\\(", "\\)", "\\[", "\\]", "\\begin{")
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
THEMES = ("light", "dark")
#: axe-core rules whose result depends on colours: run again in every theme after the first.
COLOUR_RULES = ("color-contrast", "link-in-text-block")
# Colour transitions off while axe measures contrast, so the colours it reads are the final ones
# at once (instead of waiting for the theme's transitions to end).
_NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; }"


# The page a test id names: ``test_x[book/05_softmax.html]``, ``test_y[book/05_softmax.html-dark]``.
_PAGE_IN_ID = re.compile(r"\[([^\[\]]+?\.html)(?:-[^\[\]]*)?\]$")


def page_scope(nodeid: str) -> str:
    """The unit of work of a browser test under pytest-xdist: the page its test id names, else the
    test's module (``tests/browser/conftest.py`` sends each unit to one worker). A module's tests
    without a page share its module-scoped fixtures (e.g. the page weights of every chapter), which
    are then computed once, by one worker, not once per worker."""
    found = _PAGE_IN_ID.search(nodeid)
    return found.group(1) if found else nodeid.split("::", 1)[0]


def has_math(page: str) -> bool:
    """Whether Sphinx marked math on ``page`` (inline ``span.math`` or display ``div.math``)."""
    html = (SITE / page).read_text(encoding="utf-8")
    return 'class="math notranslate nohighlight"' in html


def load(page: Any, url: str) -> None:
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


def prose_text(page: Any) -> str:
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


@dataclass
class Visit:
    """What one load of a page showed: ``log`` as it stood once the page had loaded and MathJax had
    typeset; math elements marked by Sphinx and how many MathJax left untypeset; raw TeX in the
    prose; and per theme, the body's background and axe-core's serious or critical violations
    (``axe`` is None when axe-core is not installed)."""

    name: str
    log: PageLog
    math_marked: int = 0
    math_untypeset: int = 0
    raw_tex: list[str] = field(default_factory=list)
    backgrounds: dict[str, str] = field(default_factory=dict)
    axe: dict[str, list[dict]] | None = None


def visit(browser: Any, site_url: str, name: str) -> Visit:
    """Load page ``name`` once (every other host blocked) and gather what the per-page browser
    checks need: see :class:`Visit`."""
    with offline_page(browser, site_url) as (page, log):
        load(page, f"{site_url}/{name}")
        visit = Visit(name=name, log=copy.deepcopy(log))
        if has_math(name):
            visit.math_marked = page.locator(".math").count()
            visit.math_untypeset = page.locator(".math:not(:has(mjx-container))").count()
        visit.raw_tex = [t for t in RAW_TEX if t in prose_text(page)]
        if not AXE.exists():
            return visit
        page.add_script_tag(path=str(AXE))
        page.add_style_tag(content=_NO_TRANSITIONS)
        visit.axe = {}
        for theme in THEMES:
            page.evaluate("t => { document.documentElement.dataset.theme = t; document.documentElement.dataset.mode = t; }",
                          theme)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            visit.backgrounds[theme] = page.evaluate("getComputedStyle(document.body).backgroundColor")
            # every rule in the first theme; in the others only the rules that read colours: a theme
            # changes the site's colours and nothing else (structure, names, alt text stay the same)
            options = {"resultTypes": ["violations"]}
            if theme != THEMES[0]:
                options["runOnly"] = {"type": "rule", "values": list(COLOUR_RULES)}
            result = page.evaluate("async (o) => await axe.run(document, o)", options)
            visit.axe[theme] = [v for v in result["violations"] if v["impact"] in BLOCKING]
        return visit
