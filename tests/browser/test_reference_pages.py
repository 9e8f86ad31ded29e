"""The reader's reference apparatus on the built site: glossary links, citations and the
collapsed "How we know" / "Going deeper" boxes (issue 16)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from bookdev.browser import SITE

pytestmark = pytest.mark.browser

CHAPTER = "book/07_i_am_happy.html"  # a chapter with term links and a citation


def _fragment_target(page, href: str) -> str:  # noqa: ANN001
    """The id a link points at, after checking it is an element of the page it names."""
    fragment = urlsplit(href).fragment
    assert fragment, f"{href} has no #fragment"
    return fragment


@pytest.mark.parametrize("name", ["book/glossary.html"])
def test_glossary_defines_the_terms(open_page, name: str) -> None:  # noqa: ANN001
    page, log = open_page(name)
    terms = page.locator("dl.glossary > dt[id^='term-']")
    assert terms.count() >= 40
    ids = set(terms.evaluate_all("els => els.map(e => e.id)"))
    for term in ("query", "key", "value", "softmax", "temperature", "online-softmax", "KV-cache", "cross-attention"):
        assert f"term-{term}" in ids, sorted(ids)
    assert log.page_errors == [] and log.external == []


@pytest.mark.parametrize("name", [CHAPTER])
def test_term_links_lead_to_their_glossary_entry(open_page, name: str) -> None:  # noqa: ANN001
    page, _ = open_page(name)
    links = page.locator("a[href*='glossary.html#term-']")
    assert links.count() >= 3, "the chapter links no glossary term"
    hrefs = links.evaluate_all("els => els.map(e => e.getAttribute('href'))")
    glossary = (SITE / "book" / "glossary.html").read_text(encoding="utf-8")
    for href in hrefs:
        assert f'id="{_fragment_target(page, href)}"' in glossary, f"{href}: no such entry in the glossary"
    # following the first link lands on its entry, which is on screen
    first = links.first
    target = _fragment_target(page, first.get_attribute("href"))
    first.click()
    page.wait_for_url(re.compile(r"glossary\.html#"))
    entry = page.locator(f"dt#{target}")
    assert entry.is_visible()
    assert entry.evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }")


@pytest.mark.parametrize("name", ["book/intro.html"])
def test_citations_lead_to_the_bibliography(open_page, name: str) -> None:  # noqa: ANN001
    page, _ = open_page(name)
    cites = page.locator("span.bibtex-citation a[href*='bibliography.html#']")
    assert cites.count() >= 5, "the intro cites the five documents"
    bib = (SITE / "book" / "bibliography.html").read_text(encoding="utf-8")
    for href in cites.evaluate_all("els => els.map(e => e.getAttribute('href'))"):
        assert f'id="{_fragment_target(page, href)}"' in bib, f"{href}: no such bibliography entry"
    cites.first.click()
    page.wait_for_url(re.compile(r"bibliography\.html#"))
    target = urlsplit(page.url).fragment
    entry = page.locator(f"[id='{target}']")
    assert entry.is_visible()
    assert "Engine of Transformers" in entry.inner_text() or "Engine of Transformers" in entry.locator("xpath=..").inner_text()


@pytest.mark.parametrize("name", ["book/document_002.html"])  # the working sits on the documents' pages
def test_a_how_we_know_dropdown_opens_by_keyboard(open_page, name: str) -> None:  # noqa: ANN001
    page, _ = open_page(name)
    boxes = page.locator("details.sd-dropdown")
    assert boxes.count() >= 3
    box = boxes.filter(has_text="How we know").first
    summary = box.locator("summary")
    body = box.locator(".sd-summary-content, .sd-card-body").first
    assert box.get_attribute("open") is None and not body.is_visible(), "a 'How we know' box starts closed"
    summary.focus()
    assert summary.evaluate("e => e === document.activeElement")
    page.keyboard.press("Enter")
    page.wait_for_function("e => e.open", arg=box.element_handle())
    assert body.is_visible()
    page.keyboard.press("Enter")  # and closes again
    page.wait_for_function("e => !e.open", arg=box.element_handle())


@pytest.mark.parametrize("name", [CHAPTER])
def test_a_chapter_citation_resolves_and_its_collapsed_cells_open_by_keyboard(open_page, name: str) -> None:  # noqa: ANN001
    """The chapter's first citation is shown and names an entry of the bibliography. Code cells tagged
    hide-cell sit in a closed <details>; Tab reaches it and Enter opens it."""
    page, _ = open_page(name)
    cite = page.locator("span.bibtex-citation a[href*='bibliography.html#']").first
    assert cite.is_visible()
    href = cite.get_attribute("href")
    bib = (SITE / "book" / "bibliography.html").read_text(encoding="utf-8")
    assert f'id="{_fragment_target(page, href)}"' in bib
    hidden = page.locator("details.hide")
    assert hidden.count() >= 3
    first = hidden.first
    assert first.get_attribute("open") is None
    first.locator("summary").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("e => e.open", arg=first.element_handle())
    assert first.locator("pre").first.is_visible()
