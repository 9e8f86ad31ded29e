"""The built site as the browser tests see it: which pages exist, loading one until its math is
typeset, and :func:`visit`, one load of a page that gathers what every per-page check needs."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bookdev import readings
from bookdev.browser import ROOT, SITE, PageLog

VIEW_MIME = "application/vnd.jupyter.widget-view+json"
STATE_MIME = "application/vnd.jupyter.widget-state+json"


def pages_of(site: Path) -> list[str]:
    """Every HTML page Sphinx wrote into ``site``: everything except the asset folders (`_static`,
    `_sources`, `_images`, and any other folder of copied files, all named with a leading
    underscore by Sphinx)."""
    return sorted(
        p.relative_to(site).as_posix() for p in site.rglob("*.html")
        if not any(part.startswith("_") for part in p.relative_to(site).parts[:-1])
    )


PAGES = pages_of(SITE) if SITE.exists() else []
CHAPTERS = [p for p in PAGES if p.startswith("book/") and p.split("/")[-1][:2].isdigit()]
# Every page that embeds a widget view (a slider).
WIDGET_PAGES = [p for p in PAGES if VIEW_MIME in (SITE / p).read_text(encoding="utf-8", errors="ignore")]

# Raw TeX a page would show if MathJax did not typeset it.
RAW_TEX = ("$$", "\\(", "\\)", "\\[", "\\]", "\\begin{")
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
#: A phone's screen in CSS pixels (an iPhone 12-15): every page must fit it.
PHONE = {"width": 390, "height": 844}
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


def wait_for_widgets(page: Any, timeout_ms: float = 20_000) -> None:
    """Wait until every widget view script of the page has a rendered slider before it."""
    page.wait_for_function(_ALL_RENDERED, arg=VIEW_MIME, timeout=timeout_ms)


def load(page: Any, url: str) -> None:
    """Open ``url`` and wait until the page is ready to be read: its ``load`` event, MathJax's
    typesetting (if the page has MathJax), the web fonts, every widget rendered (if it has widgets)
    and every exercise form built (if it has exercises). These are the conditions the checks
    depend on; waiting for them instead of for an idle network saves the half second of silence
    that ``networkidle`` needs on every load. :func:`visit` still waits for the idle network, so
    that its record of the page's requests is complete."""
    from playwright.sync_api import Error as PlaywrightError  # heavy; only browser runs need it

    page.goto(url, wait_until="load")
    for _ in range(3):
        try:
            page.evaluate(_READY, VIEW_MIME)
            return
        except PlaywrightError as err:
            # a page that only redirects (index.html) navigates again once it has loaded
            if "context was destroyed" not in str(err):
                raise
            page.wait_for_load_state("load")
    raise AssertionError(f"{url} kept navigating away: it never settled")


# Whether every widget view on the page (none is fine) has rendered its card, with numbers or a table.
_VIEWS_RENDERED = """(viewMime) => [...document.querySelectorAll(`script[type="${viewMime}"]`)].every(
    (v) => v.previousElementSibling && v.previousElementSibling.querySelector(".attnw .attnw-num, .attnw td"))"""
# The page has widget views, and every one has rendered.
_ALL_RENDERED = f"""(viewMime) => document.querySelector(`script[type="${{viewMime}}"]`) !== null
    && ({_VIEWS_RENDERED})(viewMime)"""
# Resolves once MathJax (if any) has typeset, the fonts are loaded, and every widget view and every
# exercise card on the page has rendered (exercise.js builds a form, or a "run it" note, in each).
_READY = f"""async (viewMime) => {{
  const mj = window.MathJax;
  if (mj && mj.startup && mj.startup.promise) {{ await mj.startup.promise; }}
  if (mj && mj.typesetPromise) {{ await mj.typesetPromise(); }}
  const settled = () => ({_VIEWS_RENDERED})(viewMime)
    && [...document.querySelectorAll("section.attnex")].every((c) => c.querySelector("form, .attnex-run"));
  for (let waited = 0; !settled(); waited += 50) {{
    if (waited > 20000) {{ throw new Error("widgets or exercise forms did not render within 20 s"); }}
    await new Promise((r) => setTimeout(r, 50));
  }}
  // lay the page out once, so that every font it shows has been asked for, then wait for them
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  await document.fonts.ready;
}}"""


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
    """What one load of a page showed, for every per-page browser check.

    At the desktop size (:data:`bookdev.browser.VIEWPORT`), once the page had loaded, MathJax had
    typeset and the network was idle: ``log`` (blocked requests, what the page fetched from the
    site, console and page errors), the math elements Sphinx marked and how many MathJax left
    untypeset, raw TeX left in the prose, and the title and navigation texts (``nav``). Then per
    theme (:data:`THEMES`): the body's background, axe-core's serious or critical violations
    (``axe`` is None when axe-core is not installed), its violations of any impact inside the
    widget cards (``widget_axe``), the background and text colour of each widget card
    (``widget_cards``) and the captions (:data:`readings.CAPTIONS`).
    Then at the size of a phone (:data:`PHONE`), per theme: ``phone[theme]`` holds the page's width
    against the screen (:data:`readings.OVERFLOWING`), the slider readouts that are cut off
    (:data:`readings.CLIPPED_READOUTS`) and the cards wider than the screen or than themselves
    (:data:`readings.WIDE_CARDS`)."""

    name: str
    log: PageLog
    math_marked: int = 0
    math_untypeset: int = 0
    raw_tex: list[str] = field(default_factory=list)
    nav: list[str] = field(default_factory=list)
    backgrounds: dict[str, str] = field(default_factory=dict)
    axe: dict[str, list[dict]] | None = None
    captions: dict[str, list[dict]] = field(default_factory=dict)
    widget_axe: dict[str, list[dict]] = field(default_factory=dict)
    widget_cards: dict[str, list[list[str]]] = field(default_factory=dict)
    phone: dict[str, dict[str, Any]] = field(default_factory=dict)


def set_theme(page: Any, theme: str) -> None:
    """Switch the site's theme (``"light"`` or ``"dark"``) as its theme button does, and wait until
    the page has repainted."""
    page.evaluate("t => { document.documentElement.dataset.theme = t; document.documentElement.dataset.mode = t; }",
                  theme)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


# axe-core on the whole page; each violation also lists its nodes that lie inside a widget card.
_AXE_RUN = """async (options) => {
  const result = await axe.run(document, options);
  const inWidget = (n) => { const e = document.querySelector(n.target[0]); return Boolean(e && e.closest(".attnw")); };
  return result.violations.map((v) => ({ ...v, widget_nodes: v.nodes.filter(inWidget) }));
}"""


def visit(page: Any, log: PageLog, site_url: str, name: str) -> Visit:
    """Load page ``name`` into ``page``, a fresh page of a fresh browser context (a first visit:
    empty cache) whose requests :func:`bookdev.browser.offline_page` records in ``log``, and read
    what every per-page browser check needs: see :class:`Visit`. The page stays open, at the phone's
    size in the light theme, for whoever wants to go on using it."""
    load(page, f"{site_url}/{name}")
    page.wait_for_load_state("networkidle")  # so that the record of requests is complete
    visit = Visit(name=name, log=copy.deepcopy(log))
    if has_math(name):
        visit.math_marked = page.locator(".math").count()
        visit.math_untypeset = page.locator(".math:not(:has(mjx-container))").count()
    visit.raw_tex = [t for t in RAW_TEX if t in prose_text(page)]
    visit.nav = page.evaluate(readings.NAV_TEXT)
    has_axe = AXE.exists()
    if has_axe:
        page.add_script_tag(path=str(AXE))
        visit.axe = {}
    page.add_style_tag(content=_NO_TRANSITIONS)
    for theme in THEMES:
        set_theme(page, theme)
        visit.backgrounds[theme] = page.evaluate("getComputedStyle(document.body).backgroundColor")
        visit.captions[theme] = page.evaluate(readings.CAPTIONS)
        if has_axe:
            # every rule in the first theme; in the others only the rules that read colours: a
            # theme changes the site's colours and nothing else (structure, names, alt text)
            options: dict[str, Any] = {"resultTypes": ["violations"]}
            if theme != THEMES[0]:
                options["runOnly"] = {"type": "rule", "values": list(COLOUR_RULES)}
            violations = page.evaluate(_AXE_RUN, options)
            visit.axe[theme] = [v for v in violations if v["impact"] in BLOCKING]
            visit.widget_axe[theme] = [{**v, "nodes": v["widget_nodes"]} for v in violations if v["widget_nodes"]]
        visit.widget_cards[theme] = page.evaluate(
            "() => [...document.querySelectorAll('.attnw')].map((e) => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color])")
    # The same page at a phone's size: CSS lays it out anew for the narrow screen (the book's
    # scripts do not measure the screen, so nothing needs reloading).
    page.set_viewport_size(PHONE)
    for theme in reversed(THEMES):
        set_theme(page, theme)
        visit.phone[theme] = {
            "overflow": page.evaluate(readings.OVERFLOWING),
            "readouts": page.evaluate(readings.CLIPPED_READOUTS),
            "wide_cards": page.evaluate(readings.WIDE_CARDS),
        }
    return visit
