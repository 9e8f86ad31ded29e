"""The exercises on the built site, with every host but the local server blocked: answering works with
the keyboard alone, a code exercise points to a live kernel, and every link a verdict can show points
at a section that exists. (That the feedback the page shows for right and wrong answers equals the
verdict of the Python checker, and that the cards fit a 390 px screen, is checked on every chapter by
tests/browser/test_pages.py, on its one visit of the page: bookdev.exercise_driver.)
"""

from __future__ import annotations

import re

import pytest

from attnbook.exercises import EXERCISES, Choice, Numeric, diagnose, export
from bookdev.browser import SITE
from bookdev.exercise_driver import BY_PAGE, STATIC_IDS, card
from bookdev.site import load

pytestmark = pytest.mark.browser


def _card(page, eid: str):  # noqa: ANN001, ANN202
    return page.locator(card(eid))


def test_enough_static_exercises() -> None:
    assert len(STATIC_IDS) >= 10 and len(BY_PAGE) >= 10, (len(STATIC_IDS), sorted(BY_PAGE))


MAGNITUDE = "book/04_magnitude.html"  # a code exercise (04.4), a number and a choice to answer by keyboard
NUMERIC = next(e for e in BY_PAGE[MAGNITUDE] if isinstance(EXERCISES[e].answer, Numeric))
CHOICE = next(e for e in BY_PAGE[MAGNITUDE] if isinstance(EXERCISES[e].answer, Choice))


@pytest.fixture(scope="module")
def magnitude(module_page, site_url):  # noqa: ANN001, ANN201
    """The chapter loaded once for the three tests below: each uses its own exercise card alone."""
    page, _ = module_page
    load(page, f"{site_url}/{MAGNITUDE}")
    return page


def test_answering_a_number_by_keyboard_alone(magnitude) -> None:  # noqa: ANN001
    """Tab into the answer box, type, press Enter: the verdict appears."""
    page = magnitude
    feedback = _card(page, NUMERIC).locator(".attnex-feedback")
    box = _card(page, NUMERIC).locator('input[data-name="answer"]')
    box.focus()
    spec = EXERCISES[NUMERIC].answer
    page.keyboard.type(", ".join(f"{v:.6f}" for v in spec.value))
    page.keyboard.press("Enter")
    assert feedback.get_attribute("data-status") == "correct"
    page.keyboard.press("ControlOrMeta+A")  # replace the answer with one that is not a number
    page.keyboard.type("abc")
    _card(page, NUMERIC).locator('button[data-name="check"]').focus()
    page.keyboard.press("Enter")
    assert feedback.get_attribute("data-status") == "invalid"


def test_a_pasted_page_is_quoted_in_forty_characters(magnitude) -> None:  # noqa: ANN001
    """A 2,000-character paste into the answer box: the feedback quotes at most 40 characters of it, as the
    Python checker does, and stays a few lines tall."""
    page = magnitude
    card = _card(page, NUMERIC)
    pasted = "x" + "1234567890" * 200
    card.locator('input[data-name="answer"]').fill(pasted)
    card.locator('button[data-name="check"]').click()
    feedback = card.locator(".attnex-feedback")
    message = feedback.locator(".attnex-verdict-message").inner_text()
    assert message == diagnose(NUMERIC, pasted).message
    assert all(len(q) <= 40 for q in re.findall(r"'([^']*)'", message)) and len(message) < 200, message
    assert feedback.bounding_box()["height"] < 200


def test_choosing_an_option_by_keyboard_alone(magnitude) -> None:  # noqa: ANN001
    """A choice is made with the space bar and the arrow keys, and checked with Tab and Enter."""
    page = magnitude
    card = _card(page, CHOICE)
    card.locator('input[data-name="option"]').first.focus()
    page.keyboard.press("Space")  # selects the focused first option
    keys = EXERCISES[CHOICE].answer.keys
    page.keyboard.press("ArrowDown")  # moves the selection to the second option
    page.keyboard.press("Tab")  # on to the Check button
    page.keyboard.press("Enter")
    status = card.locator(".attnex-feedback").get_attribute("data-status")
    assert status == diagnose(CHOICE, keys[1]).status


def test_code_exercises_point_to_a_live_kernel(magnitude) -> None:  # noqa: ANN001
    card = _card(magnitude, "04.4")
    text = card.inner_text()
    assert "def scaled_scores(q, k):" in text and "Binder" in text and "Colab" in text and "Live Code" in text
    assert card.locator("button").count() == 0  # nothing to answer in the page


def test_every_verdict_link_points_at_an_existing_section() -> None:
    ids_of: dict[str, set[str]] = {}
    for ex in EXERCISES.values():
        data = export(ex)
        for href in [data["href"]] + [m["href"] for m in data["mistakes"]]:
            page, fragment = href.split("#")
            if page not in ids_of:
                html = (SITE / "book" / page).read_text(encoding="utf-8")
                ids_of[page] = set(re.findall(r'id="([^"]+)"', html))
            assert fragment in ids_of[page], f"{ex.id}: {href} has no such id in the built page"
