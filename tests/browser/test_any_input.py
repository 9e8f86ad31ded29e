"""Pages that survive any input, on the built site with every other host blocked: a long unknown word
is shortened in the writer's and the ask widget's message; the writer's seed box shows the seed in
use and says when it keeps it (an empty box, text); greedy says why top-k and top-p are off; and an
exercise card's native radio buttons are drawn for its own background in both themes. That every
control of every widget takes long, empty, Unicode and out-of-range values, and that every widget's
charts, buttons and card follow the theme as loaded (theme_checks.py), is checked on test_widgets.py's
load of each widget page; the writer's strip and the trainer's charts, once they have drawn, in
test_writer_widget.py and test_trainer_widget.py.
"""

from __future__ import annotations

import pytest

from attnlib.companions.checks import quoted_word
from bookdev import widgets as wd
from bookdev.site import THEMES, WIDTHS, set_theme

from . import writer_driver as xd

pytestmark = pytest.mark.browser

LONG_WORD = "x" * 2000


def _message_and_widths(w: wd.Widget, name: str) -> list:
    return w.page.evaluate(f"""() => {{ const r = {w.root}; const m = r.querySelector('[data-name="{name}"]');
      return [m.textContent, document.scrollingElement.scrollWidth, document.documentElement.clientWidth,
              m.getBoundingClientRect().right, r.getBoundingClientRect().right]; }}""")


def _a_long_unknown_word_is_shortened_in_the_writer(w: wd.Widget) -> None:
    ref = xd.twin(w, prompt=f"<s> pia has a {LONG_WORD}").numbers()
    for width in WIDTHS:
        w.page.set_viewport_size({"width": width, "height": 900})
        xd.set_controls(w, prompt=f"<s> pia has a {LONG_WORD}")
        text, page_w, win, msg_right, card_right = _message_and_widths(w, "message")
        assert text == ref["error"] == (f"unknown word '{'x' * 20}…' (2000 characters): the model knows only its "
                                        f"{len(w.state['vocab'])}-word vocabulary")
        assert page_w <= win and msg_right <= card_right <= win, (width, page_w, win, msg_right, card_right)


def test_a_long_unknown_word_is_shortened_in_the_ask_widget(offline_page, site_url) -> None:  # noqa: ANN001
    page, log = offline_page
    ask = next(w for w in wd.load_widget_page(page, site_url, "book/17_learning.html") if w.kind == "AskModel")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        ask.page.evaluate(f"""(t) => {{ const i = {ask.root}.querySelector('input[type="text"]'); i.value = t;
          i.dispatchEvent(new Event("input", {{ bubbles: true }})); }}""", f"the bank {LONG_WORD}")
        text, page_w, win, msg_right, card_right = _message_and_widths(ask, "message")
        assert f"'{'x' * 20}…' (2000 characters)" in text and LONG_WORD not in text, (width, text[:200])
        assert page_w <= win and msg_right <= card_right <= win, (width, page_w, win, msg_right, card_right)


#: What a reader types into the writer's seed box, and the seed the writer then uses.
SEEDS = [("-5", 0), ("1e12", 4294967295), ("2.7", 3), ("4294967296", 4294967295), ("17", 17), ("", 17), ("abc", 17),
         ("x" * 2000, 17)]


def _the_seed_box_shows_the_seed_in_use(w: wd.Widget) -> None:
    """Each typed seed in turn: the box shows the seed in use, a note says so when it differs from what
    was typed, and three steps from a restart write what Python writes (the page's other controls as it
    opens)."""
    for typed, used in SEEDS:
        box, note = w.page.evaluate(f"""(typed) => {{ const r = {w.root}; const s = r.querySelector('input[data-name="seed"]');
          s.focus(); s.value = typed; s.dispatchEvent(new Event("change", {{ bubbles: true }}));
          return [s.value, r.querySelector('[data-name="seed-note"]').textContent]; }}""", typed)
        assert box == str(used), f"typed {typed}: the box shows {box}, the seed in use is {used}"
        assert (note == "") == (typed == str(used)), (typed, note)
        if note:
            assert note.endswith(f"using {used}") and len(note) < 160, (typed, note)
        if typed and not typed.strip("-0123456789.e"):
            assert "not a seed" in note or not note, (typed, note)
        else:  # an empty box, or text: the note says the seed is kept (issue 51: it kept it silently)
            assert note.startswith("the seed box is empty" if typed == "" else f"{quoted_word(typed)} is not a number"), (typed, note)
        xd.press(w, "restart")
        xd.press(w, "next", 3)
        assert xd.result(w)["new"] == xd.twin(w, seed=used, steps=3).numbers()["new"], typed


def _greedy_says_why_top_k_and_top_p_are_off(w: wd.Widget) -> None:
    """Issue 51: at temperature 0 (greedy) the top-k and top-p sliders were greyed out with no word why."""
    for t in (0.0, 1.0, 0.0):
        xd.set_controls(w, temperature=t)
        off, note, described, shown = w.page.evaluate(f"""() => {{ const r = {w.root};
          const k = r.querySelector('input[data-name="top_k"]'), p = r.querySelector('input[data-name="top_p"]');
          const n = r.querySelector('[data-name="rule-note"]');
          return [[k.disabled, p.disabled], n.textContent, [k, p].map((e) => e.getAttribute('aria-describedby') === n.id),
                  !n.hidden && n.getBoundingClientRect().height > 0]; }}""")
        assert off == [t == 0, t == 0] and shown == (t == 0), (t, off, shown)
        assert described == [True, True] and "temperature" in note and "greedy" in note, note


def test_the_writers_seed_box_greedy_note_and_a_long_unknown_word(offline_page, site_url) -> None:  # noqa: ANN001
    """On one load of chapter 19, in turn: the seed box (from the page as it opens), greedy's note, a long
    unknown word in the prompt at a desktop's width and a phone's."""
    page, log = offline_page
    w = next(w for w in wd.load_widget_page(page, site_url, xd.PAGE) if w.kind == "WriteWithModel")
    _the_seed_box_shows_the_seed_in_use(w)
    _greedy_says_why_top_k_and_top_p_are_off(w)
    _a_long_unknown_word_is_shortened_in_the_writer(w)
    assert log.page_errors == []


def _radio_and_card(page) -> list:  # noqa: ANN001
    """Per theme: the colour at the centre of the first exercise card's first unchecked radio button
    (its inner fill, as drawn), and the card's background, both as 0-255 grey levels."""
    box = page.evaluate("""() => { const r = [...document.querySelectorAll('.attnex input[type="radio"]')].find((e) => !e.checked);
      r.scrollIntoView({ block: "center" }); const b = r.getBoundingClientRect();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 }; }""")
    shot = page.screenshot(clip={"x": box["x"] - 1, "y": box["y"] - 1, "width": 2, "height": 2})
    import io

    import matplotlib.image

    centre = matplotlib.image.imread(io.BytesIO(shot), format="png")[..., :3].mean() * 255
    card = page.evaluate("""() => getComputedStyle(document.querySelector('.attnex')).backgroundColor
      .match(/\\d+/g).slice(0, 3).map(Number)""")
    return [centre, sum(card) / 3]


def test_exercise_cards_and_their_radio_buttons_read_right_in_both_themes(open_page) -> None:  # noqa: ANN001
    """An unchecked radio button is hollow: its inside has the card's own shade (a light card and a light
    inside, a dark card and a dark inside), not a filled disc of the other theme's colour."""
    page, _ = open_page("book/05_softmax.html")
    for theme in THEMES:
        set_theme(page, theme)
        centre, card = _radio_and_card(page)
        assert (card > 128) == (theme == "light"), f"{theme}: the card's background is {card:.0f} of 255"
        assert abs(centre - card) < 60, f"{theme}: an unchecked radio button's inside is {centre:.0f}, its card {card:.0f}"
