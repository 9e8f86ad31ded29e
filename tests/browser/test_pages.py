"""Every page of the built site, loaded once in Chromium with every other host blocked, and read
(:func:`bookdev.site.read_page`): at the desktop size, in the light and the dark theme, and at a
phone's size. Each check below is a function of that reading that returns its problems; a failing
page names every check it fails. (The guards of the figure and formula measures, on planted faults,
are in test_figure_text.py and test_phone_reading.py.)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import pytest

from bookdev import exercise_driver as ed
from bookdev import legibility as lg
from bookdev import widgets as wd
from bookdev.browser import SITE
from bookdev.site import (
    AXE,
    FIGURE_PAGES,
    MATH_PAGES,
    PAGES,
    PHONE,
    THEMES,
    WIDGET_PAGES,
    PageReading,
    read_page,
    redirects,
)
from tools import page_weight as pw

pytestmark = pytest.mark.browser

BOOK = "Attention, step by step"
# Pages that only redirect (index.html sends the reader to the intro): their reading is the intro's.
REDIRECTS = {p for p in PAGES if redirects(p)}
# Pages whose captions the contrast check must find (figures, and widget panels with captions).
CAPTIONED = ("book/06_scaling.html", "book/13_multihead_causal.html")
# The card every widget draws, in every theme: white, with dark ink.
WIDGET_CARD = wd.CARD_COLOURS


def _axe_summary(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:5]]
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} nodes, e.g. {targets})")
    return "; ".join(lines)


def offline_without_errors(r: PageReading) -> list[str]:
    """No request to another host, no uncaught error, no console error."""
    log = r.log
    return ([f"requested other hosts: {log.external}"] * bool(log.external)
            + [f"uncaught errors: {log.page_errors}"] * bool(log.page_errors)
            + [f"console errors: {log.console_errors}"] * bool(log.console_errors))


def math_typeset(r: PageReading) -> list[str]:
    """Every math element Sphinx marked was typeset by the site's MathJax; no raw TeX in the prose."""
    problems = []
    if r.math_marked and r.math_untypeset:
        problems.append(f"{r.math_untypeset} of {r.math_marked} math elements not typeset by MathJax")
    if r.raw_tex:
        problems.append(f"shows raw TeX {r.raw_tex}")
    return problems


def title_and_navigation(r: PageReading) -> list[str]:
    """The home page's title is the book's name alone, every other page's "<page> — <book>"
    (Sphinx's search page: "Search - <book>"); the title, the left navigation, the previous/next
    links and the page's own contents show no TeX."""
    if r.name in REDIRECTS:
        return []
    if not r.nav:
        return ["no title or navigation read"]
    title, problems = r.nav[0], []
    if title.count(BOOK) != 1:
        problems.append(f"the title names the book {title.count(BOOK)} times: {title!r}")
    elif r.name == "book/intro.html" and title != BOOK:
        problems.append(f"the home page's title is {title!r}, not the book's name")
    elif r.name != "book/intro.html" and not title.endswith((f" — {BOOK}", f" - {BOOK}")):
        problems.append(f"title {title!r} does not end with the book's name")
    tex = [t for t in r.nav if "d_k" in t or "\\" in t or "$" in t]
    if tex:
        problems.append(f"the title or navigation shows TeX: {tex}")
    if r.name == "book/06_scaling.html" and not any("√dₖ" in t for t in r.nav):
        problems.append("chapter 06's title lost its √dₖ")
    return problems


def accessible_in_both_themes(r: PageReading) -> list[str]:
    """axe-core finds no serious or critical violation in the light theme (every rule) or the dark
    one (the colour rules), and the theme switch changed the page."""
    if not AXE.exists():
        return [f"{AXE} is missing: run 'npm ci' (make test does)"]
    problems = [f"{theme}: {_axe_summary(r.themes[theme].axe)}" for theme in THEMES if r.themes[theme].axe]
    backgrounds = {r.themes[theme].background for theme in THEMES}
    if len(backgrounds) != len(THEMES):
        problems.append(f"the theme switch did not change the page's background: {backgrounds}")
    return problems


def captions_readable(r: PageReading) -> list[str]:
    """Figure and widget-panel captions: regular weight or heavier, contrast at least 4.5:1."""
    problems = []
    for theme in THEMES:
        captions = r.themes[theme].captions
        if r.name in CAPTIONED and len(captions) < 2:
            problems.append(f"{theme}: no captions found")
        pale = [c for c in captions if c["weight"] < 400 or c["contrast"] < 4.5]
        if pale:
            problems.append(f"{theme}: captions too pale: {pale}")
    return problems


def widgets_accessible(r: PageReading) -> list[str]:
    """On a page with sliders: no axe violation of any impact inside the widgets, in either theme,
    and every card takes its theme's colours (a white card with dark ink, a dark one with light ink)."""
    if r.name not in WIDGET_PAGES:
        return []
    problems = []
    for theme in THEMES:
        t = r.themes[theme]
        if not t.widget_cards:
            problems.append(f"{theme}: no widget card on the page when axe ran")
        problems += [f"{theme}: axe in a widget: {v['id']}, {len(v['nodes'])} nodes, e.g. {v['nodes'][0]['html'][:120]}"
                     for v in t.widget_axe]
        if any(card != WIDGET_CARD[theme] for card in t.widget_cards):
            problems.append(f"{theme}: widget cards coloured {t.widget_cards}, not {WIDGET_CARD[theme]}")
    return problems


def fits_a_phone(r: PageReading) -> list[str]:
    """At 390 × 844 CSS px (an iPhone 12–15), in both themes, the page is no wider than the screen
    (something wider may only sit in a box that scrolls sideways, such as a code cell), no exercise or
    widget card is wider than the screen or itself, and every slider readout is fully visible."""
    problems = []
    for theme in THEMES:
        phone = r.phone[theme]
        wide = phone.overflow
        if wide["width"] != PHONE["width"]:
            problems.append(f"not read at a phone's width: {wide['width']} px")
        if wide["scrollWidth"] > wide["width"] + 1:
            problems.append(f"{theme}: {wide['scrollWidth']} px wide on a {wide['width']} px screen; "
                            f"reaching past the edge: {wide['out']}")
        if phone.wide_cards:
            problems.append(f"{theme}: cards wider than the screen: {phone.wide_cards}")
        # a slider readout, or (chapter 20, whose widget has text fields and no slider) its labelled fields
        if r.name in WIDGET_PAGES and not any(c.endswith("-readout") or c.startswith("attnw-layers-")
                                              for c in phone.readouts["checked"]):
            problems.append("no slider readout found")
        problems += [f"{theme}: {p}" for p in phone.readouts["problems"]]
    return problems


def figures_readable(r: PageReading) -> list[str]:
    """Every figure's smallest text, as its PNG records it (``attnlib.style``), is drawn in the page at
    least 10 CSS px at 1280 px and at least 8 px at 390 px, with no dialog opened; no figure's texts
    overlap. The full-size dialog of a shrunk figure opens by the keyboard, pans by the arrow keys,
    closes by Escape and gives the focus back. A figure whose PNG does not say fails: it was not
    measured."""
    if r.name not in FIGURE_PAGES:
        return []
    problems = []
    for width in ("desktop", "phone"):
        if not r.figures.get(width):
            problems.append(f"{width}: no figure found, though its HTML has one")
        problems += [f"{width}: {p}" for p in lg.too_small(r.figures.get(width, []), lg.MIN_PX[width])]
    problems += lg.overlapping(r.figures.get("desktop", []))
    return problems + [f"phone, opened at full size: {p}" for p in r.zoomed]


def formulas_fit_a_phone(r: PageReading) -> list[str]:
    """At 390 px every formula fits its line, drawn at least ``MIN_SCALE`` of the text's size; a display
    formula wider than that scrolls sideways, reachable by the keyboard, fades out at the edge past
    which more of it lies, and is wider than its box by more than a few pixels (one that overflows by
    2-20 px looks as if its last symbol were cut off)."""
    if r.name not in MATH_PAGES:
        return []
    return lg.formula_problems(r.formulas) if r.formulas else ["no typeset formula at 390 px"]


def within_weight_budget(r: PageReading) -> list[str]:
    """A first visit of a chapter transfers (gzip, as a static host serves it) at most 600 kB, or
    1.2 MB for a chapter with sliders, or 1.5 MB for one whose widget carries a trained model of a hundred
    thousand weights (chapter 21); the search index is for the search page only."""
    if pw.page_kind(SITE, r.name) == "other":
        return []
    w = pw.weight_of(SITE, r.site_url, r.name, r.log.fetched)
    if not w.files:
        return ["the visit recorded no file fetched from the site"]
    problems = ["loads the search index"] * ("searchindex.js" in w.files)
    if w.total > pw.BUDGET[w.kind]:
        problems.append(f"{w.total / pw.KB:.0f} kB on a first visit, over {pw.BUDGET[w.kind] / pw.KB:.0f} kB: "
                        f"{pw.human_groups(w)}")
    return problems


def exercise_feedback_is_pythons(r: PageReading) -> list[str]:
    """On a chapter with exercises, the feedback the page showed for each answer a reader might give
    (the right one, every misconception, an unrelated one, bad input: :func:`ed.answers`), with no
    kernel, is the Python checker's verdict (status, title, message and link), and every exercise
    met a right, an invalid and a wrong answer (a misconception or "not yet")."""
    problems, statuses = [], defaultdict(set)
    for entry in r.exercises:
        eid, answer, shown = entry["eid"], entry["answer"], entry["shown"]
        v = ed.python_verdict(eid, answer)
        expected = {"status": v.status, "title": f"{eid} — {v.title}", "message": v.message,
                    "href": v.link.href if v.link is not None else None}
        if shown != expected:
            problems.append(f"{eid}, answer {answer!r}: the page shows {shown}, the Python checker {expected}")
        bad = [b for b in ("undefined", "[object", "null") if b in f"{shown['title']} {shown['message']}"]
        if bad:
            problems.append(f"{eid}, answer {answer!r}: the feedback shows {bad}: {shown}")
        statuses[eid].add(v.status)
    for eid in ed.BY_PAGE.get(r.name, []):
        if not ({"correct", "invalid"} <= statuses[eid] and {"misconception", "not-yet"} & statuses[eid]):
            problems.append(f"{eid}: the answers entered met the verdicts {sorted(statuses[eid])}, not a right, "
                            "an invalid and a wrong one")
    return problems


CHECKS: list[Callable[[PageReading], list[str]]] = [
    offline_without_errors, math_typeset, title_and_navigation, accessible_in_both_themes,
    captions_readable, widgets_accessible, fits_a_phone, figures_readable, formulas_fit_a_phone, within_weight_budget,
    exercise_feedback_is_pythons,
]


@pytest.mark.parametrize("name", PAGES)
def test_page(offline_page, site_url: str, name: str) -> None:  # noqa: ANN001
    page, log = offline_page
    reading = read_page(page, log, site_url, name)
    problems = [f"{check.__name__}: {p}" for check in CHECKS for p in check(reading)]
    assert not problems, f"{name}:\n" + "\n".join(problems)


def test_there_are_all_three_kinds_of_chapter() -> None:
    kinds = {pw.page_kind(SITE, p) for p in PAGES} - {"other"}
    assert kinds == {"chapter", "sliders", "model"}, kinds
    assert pw.page_kind(SITE, "book/21_real_text.html") == "model"  # its writer's 104,256 weights: 1.5 MB
    assert pw.page_kind(SITE, "book/19_a_model_that_writes.html") == "sliders"


def _bad_reading() -> PageReading:
    """A reading of a slider chapter with one fault for every check."""
    from bookdev.browser import PageLog
    from bookdev.site import PhoneReading, ThemeReading

    name = next(p for p in WIDGET_PAGES if p.startswith("book/") and p in FIGURE_PAGES and p in MATH_PAGES)
    log = PageLog(external=["https://cdn.example/x.js"],
                  fetched=[f"http://127.0.0.1:1/{name}", "http://127.0.0.1:1/searchindex.js"])
    violation = {"id": "image-alt", "impact": "critical", "help": "alt", "nodes": [{"target": ["img"], "html": "<img>"}]}
    theme = ThemeReading(background="rgb(255, 255, 255)", captions=[{"weight": 300, "contrast": 2.0}],
                         axe=[violation], widget_axe=[violation], widget_cards=[["rgb(0, 0, 0)", "rgb(0, 0, 0)"]])
    phone = PhoneReading(overflow={"width": PHONE["width"], "scrollWidth": 900, "out": ["div.wide"]},
                         readouts={"problems": ["d_k cut"], "checked": []}, wide_cards=[["exercise", "05.1"]])
    tiny = {"n": 0, "name": "fig-tiny", "natural": 800, "shown": 700, "smallest": "5.0", "what": "tick", "zoom": True}
    unmeasured = {**tiny, "n": 1, "name": "fig-unmeasured", "smallest": None}
    cut = {"display": True, "tex": "x", "box": "span.math", "overflow": "hidden", "width": 300, "content": 320,
           "cut": 20, "focusable": False, "shown": True, "fades": False, "scale": 1.0}
    eid = ed.BY_PAGE[name][0]  # its first exercise: a wrong answer said to be right, its other ones not entered
    said_right = {"eid": eid, "answer": ed.answers(eid)[-1], "shown": {"status": "correct", "title": f"{eid} — Right",
                                                                     "message": "undefined", "href": None}}
    return PageReading(name=name, site_url="http://127.0.0.1:1", log=log, math_marked=3, math_untypeset=1,
                       raw_tex=["$$"], nav=[f"Softmax — {BOOK} — {BOOK}", "d_k"],
                       themes=dict.fromkeys(THEMES, theme), phone=dict.fromkeys(THEMES, phone),
                       figures={"desktop": [tiny], "phone": [unmeasured]}, formulas=[cut], exercises=[said_right])


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_every_check_reports_a_bad_page(check) -> None:  # noqa: ANN001
    """Each check finds its fault in a reading that has one (the page weight: a chapter that loads
    the search index)."""
    assert check(_bad_reading()), f"{check.__name__} found nothing wrong with a bad page"
