"""Small things a first reader sees (issue 19): browser titles and navigation without TeX leftovers,
the home page's title written once, the d_k slider read aloud as "d sub k", chapter 13's
"Reproduces" line without a literal backslash, and captions dark and heavy enough to read.
"""

from __future__ import annotations

import pytest

from bookdev import widgets as wd
from bookdev.browser import SITE
from bookdev.site import PAGES, THEMES

pytestmark = pytest.mark.browser

BOOK = "Attention, step by step"

# Pages that only redirect (index.html sends the reader to the intro): their visit reads the intro.
REDIRECTS = [p for p in PAGES if 'http-equiv="refresh"' in (SITE / p).read_text(encoding="utf-8").lower()]
# Pages whose captions the contrast check must find (figures, and widget panels with captions).
CAPTIONED = ("book/10_playground.html", "book/14_multihead_causal.html")


@pytest.mark.parametrize("name", [p for p in PAGES if p not in REDIRECTS])
def test_browser_title_names_the_book_once(page_visit, name: str) -> None:  # noqa: ANN001
    """The home page's title is the book's name alone; every other page's is "<page> — <book>"
    (Sphinx's search page: "Search - <book>")."""
    title = page_visit(name).nav[0]
    assert title.count(BOOK) == 1, f"{name}: the title names the book {title.count(BOOK)} times: {title!r}"
    if name == "book/intro.html":
        assert title == BOOK, f"{name}: {title!r}"
    else:
        assert title.endswith((f" — {BOOK}", f" - {BOOK}")), f"{name}: {title!r}"


@pytest.mark.parametrize("name", [p for p in PAGES if p not in REDIRECTS])
def test_titles_and_navigation_have_no_tex_leftovers(page_visit, name: str) -> None:  # noqa: ANN001
    """The page's title, left navigation, previous/next links and own table of contents
    (:data:`bookdev.readings.NAV_TEXT`, read during the page's visit)."""
    texts = page_visit(name).nav
    assert texts, f"{name}: no title or navigation read"
    bad = [t for t in texts if "d_k" in t or "\\" in t or "$" in t]
    assert bad == [], f"{name}: the title or navigation shows TeX: {bad}"
    if name == "book/06_scaling.html":
        assert any("√dₖ" in t for t in texts), "chapter 06's title lost its √dₖ"


@pytest.mark.parametrize("name", ["book/10_playground.html"])
def test_d_k_slider_is_read_as_d_sub_k(live_page, name: str) -> None:  # noqa: ANN001
    page, _ = live_page(name)
    wd.wait_for_widgets(page)
    slider = page.get_by_role("slider", name="d sub k", exact=True)
    assert slider.count() >= 1, "no slider named 'd sub k'"
    assert slider.first.get_attribute("aria-valuetext").startswith("d sub k = ")


@pytest.mark.parametrize("name", ["book/14_multihead_causal.html"])
def test_reproduces_line_has_no_literal_backslash(live_page, name: str) -> None:  # noqa: ANN001
    page, _ = live_page(name)
    spoken = page.evaluate("""() => {
      const p = [...document.querySelectorAll("p")].find((e) => e.innerText.startsWith("Reproduces:"));
      return p ? [...p.querySelectorAll("mjx-assistive-mml")].map((m) => m.textContent).join(" | ") : "";
    }""")
    assert "heads" in spoken, f"no typeset math naming num_heads in the Reproduces line: {spoken!r}"
    assert "\\" not in spoken, f"the Reproduces line shows a literal backslash: {spoken!r}"


@pytest.mark.parametrize("scheme", THEMES)
@pytest.mark.parametrize("name", PAGES)
def test_captions_meet_contrast(page_visit, name: str, scheme: str) -> None:  # noqa: ANN001
    """Figure and widget-panel captions: regular weight or heavier, contrast at least 4.5:1
    (:data:`bookdev.readings.CAPTIONS`, read during the page's visit in each theme)."""
    captions = page_visit(name).captions[scheme]
    if name in CAPTIONED:
        assert len(captions) >= 2, f"{name}: no captions found"
    pale = [c for c in captions if c["weight"] < 400 or c["contrast"] < 4.5]
    assert pale == [], f"{name} ({scheme}): captions too pale: {pale}"
