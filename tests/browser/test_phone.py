"""The site on a phone: every page at 390 × 844 (an iPhone 12–15 screen in CSS pixels) is no wider
than the screen, every slider's readout is fully visible, and no exercise or widget card is wider
than the screen or than itself, in light and dark mode.

A page may hold something wider than the screen only inside a box that scrolls sideways (a code
cell, a wide table); the page itself must not scroll sideways. The page is read at the phone's size
during its one visit (``page_visit``, :func:`bookdev.site.visit`): the same load, resized.
"""

from __future__ import annotations

import pytest

from bookdev.site import PAGES, PHONE, THEMES, WIDGET_PAGES

pytestmark = pytest.mark.browser

CASES = [(p, theme) for p in PAGES for theme in THEMES]


@pytest.mark.parametrize(("name", "scheme"), CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_page_fits_a_phone(page_visit, name: str, scheme: str) -> None:  # noqa: ANN001
    phone = page_visit(name).phone[scheme]
    wide = phone["overflow"]
    assert wide["width"] == PHONE["width"], f"the page was not read at a phone's width: {wide['width']} px"
    assert wide["scrollWidth"] <= wide["width"] + 1, (
        f"{name} ({scheme}) is {wide['scrollWidth']} px wide on a {wide['width']} px screen; "
        f"reaching past the edge: {wide['out']}")
    assert phone["wide_cards"] == [], f"{name} ({scheme}): cards wider than a 390 px screen: {phone['wide_cards']}"
    readouts = phone["readouts"]
    if name in WIDGET_PAGES:
        assert any(c.endswith("-readout") for c in readouts["checked"]), f"{name}: no slider readout found"
    assert readouts["problems"] == [], f"{name} ({scheme}): {readouts['problems']}"
