"""The built site as the browser tests see it: which pages exist, loading one until its math is
typeset, and :func:`read_page`, one load of a page that reads what every per-page check needs."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bookdev import legibility, readings
from bookdev.browser import ROOT, SITE, VIEWPORT, PageLog

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

# Every page that shows a figure (an image Sphinx copied into _images/).
FIGURE_PAGES = [p for p in PAGES if "_images/" in (SITE / p).read_text(encoding="utf-8", errors="ignore")]

# Raw TeX a page would show if MathJax did not typeset it.
RAW_TEX = ("$$", "\\(", "\\)", "\\[", "\\]", "\\begin{")
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
#: A phone's screen in CSS pixels (an iPhone 12-15): every page must fit it.
PHONE = {"width": 390, "height": 844}
WIDTHS = (VIEWPORT["width"], PHONE["width"])  # a desktop's, then a phone's (the same page, the window narrowed)
THEMES = ("light", "dark")
#: axe-core rules whose result depends on colours: run again in every theme after the first.
COLOUR_RULES = ("color-contrast", "link-in-text-block")
# axe-core's contrast rule leaves out the elements readings.SAME_CONTRAST marks: the same kind of
# text on the same background as an element it checks (on a chapter, thousands of code tokens of a
# few dozen kinds: most of axe's time before).
_ONE_OF_EACH_KIND = """() => axe.configure({ rules: [{ id: "color-contrast", selector: ":not([data-axe-same])" }] })"""
# Colour transitions off while axe measures contrast, so the colours it reads are the final ones
# at once (instead of waiting for the theme's transitions to end).
NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; }"


def redirects(page: str) -> bool:
    """Whether ``page`` only sends the reader on to another page (``index.html``: a meta refresh)."""
    return 'http-equiv="refresh"' in (SITE / page).read_text(encoding="utf-8").lower()


def has_math(page: str) -> bool:
    """Whether Sphinx marked math on ``page`` (inline ``span.math`` or display ``div.math``)."""
    html = (SITE / page).read_text(encoding="utf-8")
    return 'class="math notranslate nohighlight"' in html


MATH_PAGES = [p for p in PAGES if has_math(p)]


def wait_for_widgets(page: Any, timeout_ms: float = 20_000) -> None:
    """Wait until every widget view script of the page has a rendered slider before it."""
    page.wait_for_function(_ALL_RENDERED, arg=VIEW_MIME, timeout=timeout_ms)


def load(page: Any, url: str) -> None:
    """Open ``url`` and wait until the page is ready to be read: its ``load`` event, MathJax's
    typesetting (if the page has MathJax), the web fonts, every widget rendered (if it has widgets)
    and every exercise form built (if it has exercises). These are the conditions the checks
    depend on; waiting for them instead of for an idle network saves the half second of silence
    that ``networkidle`` needs on every load. :func:`read_page` also waits for every request to end
    (:func:`wait_for_requests`), so that its record of the page's requests is complete."""
    from playwright.sync_api import Error as PlaywrightError  # heavy; only browser runs need it

    page.goto(url, wait_until="load")
    waited = 0
    while True:
        try:
            page.evaluate(_READY, VIEW_MIME)
            return
        except PlaywrightError as err:
            # A page that only redirects (index.html) navigates again once it has loaded. Until the
            # next page is committed, "load" is the old page's, and reading fails again: on a busy
            # machine, more than three times in a row (it failed so once).
            if "context was destroyed" not in str(err):
                raise
            if waited > 20_000:
                raise AssertionError(f"{url} kept navigating away for 20 s: it never settled") from err
            page.wait_for_timeout(50)
            waited += 50
            page.wait_for_load_state("load")


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
class PageReading:
    """What one load of a page showed: everything the per-page checks assert on.

    Read by :func:`read_page` in four steps, each its own function: at the desktop size
    (:func:`read_desktop`: the requests, math, raw TeX, title and navigation, the figures), then per
    theme (:func:`read_theme`: background, captions, axe-core, widget cards), then at a phone's size
    per theme (:func:`read_phone`), then at a phone's size once the layout has settled
    (:func:`read_phone_text`: the formulas, the figures, and the problems ``zoomed`` met opening the first
    figure too small for the phone at full size; see :mod:`bookdev.legibility`), then, on a chapter
    with exercises, the feedback the page showed for each answer a reader might give
    (``exercises``: :func:`bookdev.exercise_driver.read_feedback`). ``figures`` holds
    :data:`readings.FIGURES` per width, ``"desktop"`` and ``"phone"``."""

    name: str
    site_url: str
    log: PageLog
    math_marked: int = 0
    math_untypeset: int = 0
    raw_tex: list[str] = field(default_factory=list)
    nav: list[str] = field(default_factory=list)
    themes: dict[str, ThemeReading] = field(default_factory=dict)
    phone: dict[str, PhoneReading] = field(default_factory=dict)
    figures: dict[str, list[dict]] = field(default_factory=dict)
    zoomed: list[str] = field(default_factory=list)
    formulas: list[dict] = field(default_factory=list)
    exercises: list[dict] = field(default_factory=list)


@dataclass
class ThemeReading:
    """The page in one theme: the body's ``background``, the figure and widget ``captions``
    (:data:`readings.CAPTIONS`), axe-core's serious or critical violations (``axe``; None when
    axe-core is not installed), its violations of any impact inside the widget cards
    (``widget_axe``) and each widget card's background and text colour (``widget_cards``)."""

    background: str
    captions: list[dict]
    axe: list[dict] | None
    widget_axe: list[dict]
    widget_cards: list[list[str]]


@dataclass
class PhoneReading:
    """The page at :data:`PHONE`'s size: its width against the screen (:data:`readings.OVERFLOWING`),
    the slider readouts cut off (:data:`readings.CLIPPED_READOUTS`) and the cards wider than the
    screen or than themselves (:data:`readings.WIDE_CARDS`)."""

    overflow: dict[str, Any]
    readouts: dict[str, Any]
    wide_cards: list[list[str]]


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
_WIDGET_CARDS = """() => [...document.querySelectorAll('.attnw')].map(
    (e) => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color])"""


def read_desktop(page: Any, log: PageLog, site_url: str, name: str) -> PageReading:
    """The page ``name`` of the site at ``site_url``, loaded, at the desktop size: a copy of its request ``log`` so far, its math (marked by
    Sphinx, left untypeset by MathJax), raw TeX in its prose, and its title and navigation texts."""
    reading = PageReading(name=name, site_url=site_url, log=copy.deepcopy(log))
    if has_math(name):
        reading.math_marked = page.locator(".math").count()
        reading.math_untypeset = page.locator(".math:not(:has(mjx-container))").count()
    reading.raw_tex = [t for t in RAW_TEX if t in prose_text(page)]
    reading.nav = page.evaluate(readings.NAV_TEXT)
    if name in FIGURE_PAGES:
        reading.figures["desktop"] = page.evaluate(readings.FIGURES)
    return reading


def inject_axe(page: Any) -> None:
    """Add axe-core to the loaded ``page``, its contrast rule set to check one element of each kind of
    text (:data:`readings.SAME_CONTRAST`, which :func:`read_theme` runs before axe)."""
    page.add_script_tag(path=str(AXE))
    page.evaluate(_ONE_OF_EACH_KIND)


def read_theme(page: Any, theme: str, axe_rules: list[str] | None = None) -> ThemeReading:
    """Switch ``page`` to ``theme`` and read it. axe-core (:func:`inject_axe`) runs every
    rule, or only ``axe_rules``; it is skipped when it is not installed. Its contrast rule checks one
    element of each kind of text (:data:`readings.SAME_CONTRAST`, marked again in each theme)."""
    set_theme(page, theme)
    axe = widget_axe = None
    if AXE.exists():
        options: dict[str, Any] = {"resultTypes": ["violations"]}
        if axe_rules is not None:
            options["runOnly"] = {"type": "rule", "values": axe_rules}
        if axe_rules is None or "color-contrast" in axe_rules:
            page.evaluate(readings.SAME_CONTRAST)  # this theme's kinds of text
        violations = page.evaluate(_AXE_RUN, options)
        axe = [v for v in violations if v["impact"] in BLOCKING]
        widget_axe = [{**v, "nodes": v["widget_nodes"]} for v in violations if v["widget_nodes"]]
    return ThemeReading(
        background=page.evaluate("getComputedStyle(document.body).backgroundColor"),
        captions=page.evaluate(readings.CAPTIONS),
        axe=axe,
        widget_axe=widget_axe or [],
        widget_cards=page.evaluate(_WIDGET_CARDS),
    )


def read_phone(page: Any, theme: str) -> PhoneReading:
    """Lay ``page`` out at a phone's size in ``theme`` and read it. CSS lays the page out anew for the
    narrow screen; the book's scripts do not measure the screen, so nothing needs reloading."""
    page.set_viewport_size(PHONE)
    set_theme(page, theme)
    return PhoneReading(
        overflow=page.evaluate(readings.OVERFLOWING),
        readouts=page.evaluate(readings.CLIPPED_READOUTS),
        wide_cards=page.evaluate(readings.WIDE_CARDS),
    )


def read_phone_text(page: Any, reading: PageReading) -> None:
    """At a phone's size, once the text column has settled (the site refits its formulas to the new
    width): the formulas and the figures of ``reading``'s page, and its first figure drawn smaller than
    its own size opened at full size by the keyboard (:func:`legibility.opened_at_full_size`). The
    page's transitions are off (:func:`read_page`), so the column has settled once it keeps its width
    for three frames (:data:`readings.FRAMES_SETTLED`)."""
    page.evaluate(readings.FRAMES_SETTLED)
    if reading.name in MATH_PAGES:
        reading.formulas = legibility.shown_formulas(page)
    if reading.name in FIGURE_PAGES:
        reading.figures["phone"] = page.evaluate(readings.FIGURES)
        shrunk = [fig for fig in reading.figures["phone"] if fig["shown"] < fig["natural"] - 1]
        for fig in shrunk[:1]:  # the page's first shrunk figure: its full-size dialog works by the keyboard
            problem = legibility.opened_at_full_size(page, fig)
            if problem:
                reading.zoomed.append(problem)


def wait_for_requests(page: Any, log: PageLog, quiet_ms: float = 100, timeout_ms: float = 20_000) -> None:
    """Wait until no request of ``page`` (recorded in ``log`` by :func:`bookdev.browser.offline_page`)
    has been under way for ``quiet_ms``: every file the page asked for so far has arrived or failed.
    (Playwright's ``networkidle`` waits for 500 ms of quiet, on every page.)"""
    waited, quiet = 0.0, 0.0
    while quiet < quiet_ms:
        if waited > timeout_ms:
            raise AssertionError(f"{log.pending} requests still under way after {timeout_ms / 1000:.0f} s")
        page.wait_for_timeout(25)
        waited += 25
        quiet = quiet + 25 if log.pending == 0 else 0.0


def read_page(page: Any, log: PageLog, site_url: str, name: str) -> PageReading:
    """Load page ``name`` into ``page``, a fresh page of a fresh browser context (a first visit:
    empty cache) whose requests :func:`bookdev.browser.offline_page` records in ``log``, and read
    it: at the desktop size once every request has ended (so that the record of requests is complete),
    in each theme (every axe rule in the first, in the others only the rules that read colours: a
    theme changes the site's colours and nothing else), then at a phone's size in each theme, and
    there its formulas and figures; last, every answer of its exercises entered, and the feedback."""
    load(page, f"{site_url}/{name}")
    if redirects(name):
        page.wait_for_load_state("networkidle")  # the page it sends the reader to loads after it
    else:
        wait_for_requests(page, log)
    reading = read_desktop(page, log, site_url, name)
    if AXE.exists():
        inject_axe(page)
    page.add_style_tag(content=NO_TRANSITIONS)
    for i, theme in enumerate(THEMES):
        reading.themes[theme] = read_theme(page, theme, None if i == 0 else list(COLOUR_RULES))
    for theme in reversed(THEMES):
        reading.phone[theme] = read_phone(page, theme)
    read_phone_text(page, reading)
    # every exercise's data and checker (about 2.7 s to import): only a page reading needs them, not
    # everything that imports this module (tools.page_weight, the benchmarks)
    from bookdev import exercise_driver

    reading.exercises = exercise_driver.read_feedback(page, name)  # last: it fills in the answer forms
    # what the whole visit did wrong; the files fetched stay those of the first load, read above
    reading.log = replace(copy.deepcopy(log), fetched=reading.log.fetched)
    return reading
