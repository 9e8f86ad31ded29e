"""The "Watch an induction head form" widget of "Two layers that compose" on the built site, every other host
blocked: for 22 settings and seeds (1 and 2 layers, 1 to 4 heads, several sizes, a fixed repeat length, a
diverging learning rate) the page trains what attnlib.companions.induction trains (the loss at each of the first
20 steps to 1e-9 relative, every final weight to 1e-6 relative, every head's prefix-matching and previous-token
score at every step to 1e-6); bad settings get a message in the reader's terms and train nothing; Stop and
Continue give the run of one go; heads switched off and typed tokens show what Python computes; the fields
survive a reload and Reset restores them; it trains by keyboard and fits a 390 px screen in both themes.
Short runs only: the default run's timing is benchmarks/bench_induction.py's.
"""

from __future__ import annotations

import numpy as np
import pytest

from attnlib.companions import induction
from bookdev import induction_driver as idr

from . import theme_checks
from . import training_checks as tc

pytestmark = pytest.mark.browser

SMALL = {"batch": 4, "steps": 20}
CASES = [
    {**SMALL, "seed": 1},
    {**SMALL, "seed": 2, "layers": 1},
    {**SMALL, "seed": 3, "heads": 1, "d_model": 8},
    {**SMALL, "seed": 4, "heads": 4, "d_model": 16},
    {**SMALL, "seed": 5, "layers": 1, "heads": 3, "d_model": 12},
    {**SMALL, "seed": 6, "repeat_min": 8, "repeat_max": 8},  # a fixed offset: the trap
    {**SMALL, "seed": 7, "layers": 1, "repeat_min": 5, "repeat_max": 5},
    {**SMALL, "seed": 8, "vocab": 2},
    {**SMALL, "seed": 9, "vocab": 64, "context": 32, "repeat_max": 16},
    {**SMALL, "seed": 10, "context": 4, "repeat_min": 2, "repeat_max": 2},
    {**SMALL, "seed": 11, "d_model": 1, "heads": 1},
    {**SMALL, "seed": 12, "lr": 0.02},
    {**SMALL, "seed": 13, "lr": 0.001, "batch": 1},
    {**SMALL, "seed": 14, "batch": 9, "steps": 30},
    {**SMALL, "seed": 2**32 - 1, "steps": 25},
    {**SMALL, "seed": 16, "d_model": 48, "heads": 4, "steps": 12},
    {**SMALL, "seed": 17, "layers": 1, "heads": 4, "d_model": 4},
    {**SMALL, "seed": 18, "context": 12, "repeat_min": 2, "repeat_max": 6},
    {**SMALL, "seed": 19, "steps": 1},
    {**SMALL, "seed": 20, "heads": 2, "d_model": 6, "vocab": 7, "context": 9, "repeat_min": 3, "repeat_max": 4},
    {**SMALL, "seed": 21, "lr": 5.0, "steps": 40},  # diverges: stops with its last finite weights
    {"seed": 0, "steps": 40},  # the chapter's settings, the first 40 steps
]


#: Chapter 20 loaded, its WatchInduction widget: the fixtures ``chapter`` (loaded once, for the tests that set every
#: field themselves before they train) and ``fresh_chapter`` (a page of the test's own) give ``(page, log, widget)``.
open_chapter = idr.find


def test_the_page_trains_what_python_trains(chapter) -> None:  # noqa: ANN001
    _, log, w = chapter
    stopped = tc.trains_what_python_trains(w, idr, CASES, induction.train)
    assert len(CASES) >= 20 and stopped == 1
    assert {c.get("layers", 2) for c in CASES} == {1, 2}
    assert log.external == [] and log.console_errors == [] and log.page_errors == []


BAD = [
    ({"layers": "0"}, "layers must be a whole number from 1 to 2, got '0'"),
    ({"lr": "0"}, "the learning rate must be a finite number > 0, got '0'"),
    ({"lr": "NaN"}, "got 'NaN'"),
    ({"lr": ""}, "got nothing"),
    ({"repeat_max": "9"}, "does not fit in a context of 16 tokens"),
    ({"repeat_min": "7", "repeat_max": "6"}, "is longer than the longest"),
    ({"vocab": "1"}, "vocab must be a whole number from 2 to 64"),
    ({"heads": "3"}, "must split evenly into 3 heads"),
    ({"d_model": "thirty-two"}, "d_model must be a whole number"),
    ({"steps": "x" * 500}, "(500 characters)"),
    ({"seed": "-3"}, "seed must be a whole number"),
]


def test_bad_settings_get_a_message_and_train_nothing(chapter) -> None:  # noqa: ANN001
    _, log, w = chapter
    tc.refuses_bad_settings(w, idr, BAD, {"steps": 3, "batch": 2}, lambda shown: len(shown) < 200)
    assert log.console_errors == [] and log.page_errors == []


def test_stop_and_continue_give_the_run_of_one_go(chapter) -> None:  # noqa: ANN001
    page_, _, w = chapter
    settings = {"steps": 60, "batch": 16, "seed": 3}
    tc.stop_and_continue(page_, w, idr, settings, induction.train(settings))


def test_heads_switched_off_and_typed_tokens_show_what_python_computes(chapter) -> None:  # noqa: ANN001
    _, _, w = chapter
    settings = {"steps": 30, "batch": 8, "seed": 5}
    idr.train(w, settings)
    ref = induction.train(settings)
    w.page.evaluate(f"() => {w.root}.querySelector('[data-name=\"head-1\"]').click()")  # L1H2 off
    got = w.page.evaluate(f"() => JSON.parse({w.root}.dataset.look)")
    seq = induction.watched(settings)
    keep = np.ones((2, 2))
    keep[0, 1] = 0.0
    f = induction.forward(ref.weights, seq.tokens, 2, keep)
    assert got["tokens"] == seq.tokens[0].tolist()
    assert np.allclose(np.array(got["patterns"]).reshape(2, 2, 16, 16), np.stack([c["a"][0] for c in f["layers"]]), rtol=1e-6, atol=1e-12)
    assert got["second"] == pytest.approx(induction.measure(f, seq)["second"], rel=1e-6)
    idr.set_fields(w, {"ask": "5 9 2 7 5 9 2"})
    got = w.page.evaluate(f"() => JSON.parse({w.root}.dataset.look)")
    ids = np.array([[5, 9, 2, 7, 5, 9, 2]])
    f = induction.forward({**ref.weights, "pos": ref.weights["pos"][:7]}, ids, 2, keep)
    assert np.allclose(np.array(got["patterns"]).reshape(2, 2, 7, 7), np.stack([c["a"][0] for c in f["layers"]]), rtol=1e-6, atol=1e-12)
    assert got["loss"] == pytest.approx(f["loss"], rel=1e-6)
    idr.set_fields(w, {"ask": "5 99 " + "x" * 300})
    error = w.page.evaluate(f"() => JSON.parse({w.root}.dataset.look).error")
    assert "from 0 to 31, got '99'" in error and len(error) < 120


def test_fields_survive_a_reload_and_reset_restores_them(fresh_chapter) -> None:  # noqa: ANN001
    page, _, w = fresh_chapter
    changed = idr.fields_of({"layers": 1, "lr": 0.05, "seed": 9, "repeat_min": 8, "repeat_max": 8})
    tc.fields_survive_a_reload(page, w, idr, "WatchInduction", changed)


def test_keyboard_alone_trains(chapter) -> None:  # noqa: ANN001
    page, _, w = chapter
    settings = {"batch": 4, "lr": 0.02, "steps": 8}
    tc.keyboard_trains(page, w, idr, ("batch", "4"), (("lr", "0.02"), ("steps", "8")), 2, induction.train(settings))  # 2 Tabs: seed, Train


def test_fits_a_phone_in_both_themes(chapter) -> None:  # noqa: ANN001
    """After a short run, on a 390 px screen in each theme (on the module's page, given back at the desktop's
    size in the light theme)."""
    page, _, w = chapter

    def pattern_follows(theme: str) -> None:
        ground, cell = page.evaluate(f"""() => {{ const p = {w.root}.querySelector('[data-name="pattern-0"]');
          return [getComputedStyle(p.querySelector('.attnw-ground')).fill, getComputedStyle(p.querySelector('rect[fill-opacity]')).fill]; }}""")
        assert (_lum(ground) < 0.2) == (theme == "dark"), f"{theme}: the attention pattern is drawn on {ground}"
        assert _lum(cell) != _lum(ground), f"{theme}: the pattern's cells {cell} on {ground}"

    tc.fits_a_phone_in_each_theme(page, w, lambda: idr.train(w, {"steps": 5, "batch": 4}), pattern_follows)


def _lum(css: str) -> float:
    """The relative luminance (WCAG, :func:`theme_checks.lum`) of a CSS rgb(...) colour."""
    return theme_checks.lum([float(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3]])
