"""The page readings the per-page checks assert on (bookdev/readings.py) do see the faults they look
for: on a freshly loaded slider chapter at a phone's size, a fault is put in and each reading must
report it. (On the built site they report nothing: test_pages.py.)"""

from __future__ import annotations

import pytest

from bookdev import readings
from bookdev.site import PHONE

pytestmark = pytest.mark.browser

PAGE = "book/05_softmax.html"  # a chapter with a slider, figures with captions and exercises


@pytest.fixture()
def phone_page(open_page):  # noqa: ANN001, ANN201
    """The chapter, freshly loaded, at a phone's size and reading clean."""
    page, _ = open_page(PAGE)
    page.set_viewport_size(PHONE)
    # once the theme's sidebars have slid off screen (their transitions), the clean page reads clean
    page.wait_for_function(f"() => ({readings.OVERFLOWING})().out.length === 0", timeout=10_000)
    for selector in (".attnw-control output", "section.attnex", "figcaption"):
        assert page.locator(selector).count() > 0, f"{PAGE} has no {selector} to put a fault in"
    return page


def test_each_reading_reports_the_fault_put_in(phone_page) -> None:  # noqa: ANN001
    """One fault at a time on the one page: each reading reads clean, then reports its fault, which is
    taken out again before the next is put in (so that no fault is reported for another)."""
    page = phone_page
    # a wide element makes the page too wide
    page.evaluate("""() => { const d = document.createElement("div"); d.className = "too-wide";
      d.style.width = "900px"; d.textContent = "wide"; document.querySelector("main").appendChild(d); }""")
    wide = page.evaluate(readings.OVERFLOWING)
    assert wide["scrollWidth"] > wide["width"] and any("too-wide" in o for o in wide["out"]), ("a wide element", wide)
    page.evaluate("() => document.querySelector('main > .too-wide').remove()")

    # a readout pushed out of its card is reported
    assert page.evaluate(readings.CLIPPED_READOUTS)["problems"] == []
    page.evaluate("() => { document.querySelector('.attnw-control output').style.marginLeft = '600px'; }")
    problems = page.evaluate(readings.CLIPPED_READOUTS)["problems"]
    assert any("readout" in p for p in problems), ("a readout pushed out", problems)
    page.evaluate("() => { document.querySelector('.attnw-control output').style.marginLeft = ''; }")

    # a card wider than itself is reported
    assert page.evaluate(readings.WIDE_CARDS) == []
    page.evaluate("""() => { const d = document.createElement("div"); d.className = "too-wide";
      d.style.width = "900px"; d.textContent = "wide"; document.querySelector("section.attnex").appendChild(d); }""")
    assert [kind for kind, _ in page.evaluate(readings.WIDE_CARDS)] == ["exercise"]
    page.evaluate("() => document.querySelector('section.attnex > .too-wide').remove()")
    page.evaluate("() => { document.querySelector('.attnw').style.marginLeft = '-60px'; }")  # past the left edge
    assert [kind for kind, _ in page.evaluate(readings.WIDE_CARDS)] == ["widget"]
    page.evaluate("() => { document.querySelector('.attnw').style.marginLeft = ''; }")

    # a pale caption is reported
    before = page.evaluate(readings.CAPTIONS)
    assert before and all(c["contrast"] >= 4.5 for c in before), before
    page.evaluate("""() => { const c = document.querySelector("figcaption");
      (c.querySelector("p") || c).style.color = "#bbbbbb"; }""")
    assert min(c["contrast"] for c in page.evaluate(readings.CAPTIONS)) < 4.5
