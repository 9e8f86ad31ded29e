"""The decoding chapter's KV-cache widget on the built page: the previous/next buttons (mouse and
keyboard) step the generation and the page shows what attnlib computes; the card fits a 390 px
phone screen. The generic checks (offline rendering, numbers at every step, axe, arrow keys) run
for it in test_widgets.py."""

from __future__ import annotations

import pytest

from attnlib.widgets.decoding import decoding_numbers
from bookdev import widgets as wd

pytestmark = pytest.mark.browser
PAGE = "book/15_decoding.html"
TOL = 0.5e-3 + 1e-9


def _the_stepper(widgets: list[wd.Widget]) -> wd.Widget:
    steppers = [w for w in widgets if w.kind == "DecodingStepper"]
    assert len(steppers) == 1, f"expected one DecodingStepper on {PAGE}, found {[w.kind for w in widgets]}"
    return steppers[0]


@pytest.fixture()
def stepper(offline_page, site_url):  # noqa: ANN001, ANN201
    """The chapter freshly loaded: the button test starts from the page's first render."""
    page, log = offline_page
    return page, log, _the_stepper(wd.load_widget_page(page, site_url, PAGE))


def _step_shown(w: wd.Widget) -> int:
    return int(wd.number(w.texts()["cache-length"]))


def _weights_match(w: wd.Widget) -> None:
    step = _step_shown(w)
    exp = decoding_numbers(w.state["query_vectors"], w.state["key_vectors"], w.state["value_vectors"], step)
    t = w.texts()
    for j in range(step):
        assert abs(wd.number(t[f"weight-{j}"]) - exp["weights"][j]) <= TOL, (step, j, t[f"weight-{j}"])


def test_buttons_step_the_generation_with_mouse_and_keyboard(stepper) -> None:  # noqa: ANN001
    page, log, w = stepper
    n = len(w.state["tokens"])
    start = _step_shown(w)
    assert start == w.state["step"]
    next_button = f"{w.root}.querySelector('[data-name=\"next\"]')"
    prev_button = f"{w.root}.querySelector('[data-name=\"prev\"]')"
    page.evaluate(f"() => {next_button}.click()")
    assert _step_shown(w) == start + 1
    _weights_match(w)
    page.evaluate(f"() => {prev_button}.focus()")
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    assert _step_shown(w) == start - 1
    _weights_match(w)
    for _ in range(n):
        page.evaluate(f"() => {next_button}.click()")
    assert _step_shown(w) == n and page.evaluate(f"() => {next_button}.disabled")
    _weights_match(w)
    assert log.console_errors == [] and log.page_errors == [] and log.external == []


@pytest.mark.parametrize("name", [PAGE])
def test_card_fits_a_phone_screen(live_page, name: str) -> None:  # noqa: ANN001
    page, _ = live_page(name)
    w = _the_stepper(wd.find_widgets(page))
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate(f"() => {w.root}.scrollIntoView()")
    width = page.evaluate(f"() => [{w.root}.scrollWidth, {w.root}.clientWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1] + 1, f"the card overflows its own width at 390 px: {width}"
    assert width[1] <= width[2], f"the card is wider than the 390 px screen: {width}"
