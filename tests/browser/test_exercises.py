"""The exercises on the built site, with every host but the local server blocked: a reader types right
and wrong answers into the page (no kernel), and the feedback the page shows equals the verdict of the
Python checker for the same input. Also: answering works with the keyboard alone, and every link a
verdict can show points at a section that exists. (That the cards fit a 390 px screen is checked on
every page by tests/browser/test_pages.py.)
"""

from __future__ import annotations

import re
from collections import defaultdict

import numpy as np
import pytest

from attnbook.exercises import EXERCISES, Choice, Code, FindError, Numeric, Trained, diagnose, export
from bookdev.browser import SITE
from bookdev.site import load

pytestmark = pytest.mark.browser


def _page_of(eid: str) -> str:
    return f"book/{EXERCISES[eid].section.chapter}.html"


def _answers(eid: str) -> list[object]:
    """What a reader might enter: the right answer, every misconception, an unrelated answer, bad input."""
    ex = EXERCISES[eid]
    spec = ex.answer

    def text(values: np.ndarray) -> str:
        return ", ".join(f"{v:.6g}" if abs(v) >= 1e-3 else f"{v:.6f}" for v in values)

    if isinstance(spec, Numeric):
        out: list[object] = [text(spec.value)] + [text(m.computed) for m in ex.mistakes]
        return out + [text(spec.value * 1.7 + 13.0), "abc", "", "nan"]
    if isinstance(spec, Choice):
        return [k for k in spec.keys] + [""]
    assert isinstance(spec, FindError)
    right = text(spec.value.value)
    out = [(spec.wrong_step, right)] + [(m.option, right) if m.option else (spec.wrong_step, text(m.computed))
                                        for m in ex.mistakes]
    return out + [(spec.wrong_step, text(spec.value.value * 1.7 + 13.0)), ("", right), (spec.wrong_step, "x")]


STATIC_IDS = [eid for eid, ex in sorted(EXERCISES.items()) if not isinstance(ex.answer, (Code, Trained))]
BY_PAGE: dict[str, list[str]] = defaultdict(list)
for _eid in STATIC_IDS:
    BY_PAGE[_page_of(_eid)].append(_eid)


def _card(page, eid: str):  # noqa: ANN001, ANN202
    return page.locator(f'section.attnex[data-exercise="{eid}"]')


def _enter(page, eid: str, answer: object) -> dict[str, str]:  # noqa: ANN001
    """Put ``answer`` into the exercise's form as a reader leaves it (the value typed, with its
    ``input`` event; the options ticked), press Check, and read the feedback: in one call to the
    page. Typing and pressing keys for real is :func:`test_answering_by_keyboard_alone`'s part."""
    spec = EXERCISES[eid].answer
    if isinstance(spec, Numeric):
        option, value = None, str(answer)
    elif isinstance(spec, Choice):
        option, value = answer or "", None
    else:
        step, value = answer  # type: ignore[misc]
        option, value = step or "", str(value)
    return page.evaluate(_ENTER, [eid, option, value])


# The feedback box as the reader sees it: status, title, message and link.
_FEEDBACK = """(box) => {
  const text = (sel) => { const e = box.querySelector(sel); return e ? e.innerText : null; };
  const link = box.querySelector("a.attnex-verdict-link");
  return { status: box.dataset.status || "", title: text(".attnex-verdict-title"),
           message: text(".attnex-verdict-message") ?? "", href: link ? link.getAttribute("href") : null };
}"""
# Fill one card's form (``option``: the option to tick, "" for none, null when the card has no
# options; ``value``: the text for the answer box, or null), click Check, return the feedback.
_ENTER = """([eid, option, value]) => {
  const card = document.querySelector(`section.attnex[data-exercise="${eid}"]`);
  if (option !== null) {
    card.querySelectorAll('input[data-name="option"]').forEach((e) => { e.checked = false; });
    if (option) {
      const box = card.querySelector(`input[data-name="option"][value="${option}"]`);
      box.checked = true;
      box.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  if (value !== null) {
    const box = card.querySelector('input[data-name="answer"]');
    box.value = value;
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }
  card.querySelector('button[data-name="check"]').click();
  return (""" + _FEEDBACK + """)(card.querySelector(".attnex-feedback"));
}"""


def _python(eid: str, answer: object):  # noqa: ANN202
    if isinstance(EXERCISES[eid].answer, FindError):
        step, value = answer  # type: ignore[misc]
        return diagnose(eid, (step or None, value))
    return diagnose(eid, answer)


def test_enough_static_exercises() -> None:
    assert len(STATIC_IDS) >= 10 and len(BY_PAGE) >= 10, (len(STATIC_IDS), sorted(BY_PAGE))


@pytest.mark.parametrize("page_name", sorted(BY_PAGE))
def test_page_feedback_equals_the_python_checker(page_name: str, open_page) -> None:  # noqa: ANN001
    page, log = open_page(page_name)  # loaded once every answer form is built
    checked = 0
    for eid in BY_PAGE[page_name]:
        statuses = set()
        for answer in _answers(eid):
            shown = _enter(page, eid, answer)
            v = _python(eid, answer)
            assert shown["status"] == v.status, (eid, answer, shown, v)
            assert shown["title"] == f"{eid} — {v.title}", (eid, answer, shown, v)
            assert shown["message"] == v.message, (eid, answer, shown, v)
            expected_href = v.link.href if v.link is not None else None
            assert shown["href"] == expected_href, (eid, answer, shown, v)
            for bad in ("undefined", "[object", "null"):
                assert bad not in shown["title"] + shown["message"], (eid, answer, shown)
            statuses.add(v.status)
            checked += 1
        assert {"correct", "invalid"} <= statuses and ({"misconception", "not-yet"} & statuses), (eid, statuses)
    assert checked > 0
    assert log.external == [], f"{page_name} requested other hosts: {log.external}"
    assert log.console_errors == [] and log.page_errors == [], (log.console_errors, log.page_errors)


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
