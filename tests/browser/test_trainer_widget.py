"""The "Train it yourself" widget of "Attention that learns" on the built site, every other host blocked:
for 22 corpora, settings and seeds the page trains what attnlib.companions.trainer trains (the loss at each of the
first 20 steps to 1e-9 relative, every final weight to 1e-6 relative, the same held-out accuracy at every
step); the default run is the chapter's printed run; bad settings get a message and train nothing; a
runaway learning rate stops with finite weights; Stop and Continue give the run of one go; the fields
survive a reload and Reset restores them; it works by keyboard and fits a 390 px screen.
"""

from __future__ import annotations

import numpy as np
import pytest

from attnlib.companions import trainer
from bookdev import trainer_driver as td
from bookdev import widgets as wd

from . import theme_checks
from . import training_checks as tc

pytestmark = pytest.mark.browser

S = trainer.DEFAULTS["senses"]


def _senses(*changes: tuple[int, list[str]]) -> list[dict]:
    out = [dict(s, cues=list(s["cues"])) for s in S]
    for i, cues in changes:
        out[i]["cues"] = cues
    return out


RIVER, MONEY = S[0]["cues"], S[1]["cues"]
CASES = [
    {"n_train": 200, "n_test": 100, "steps": 40, "seed": 1},
    {"n_train": 120, "n_test": 80, "steps": 30, "seed": 2, "d_model": 4},
    {"n_train": 300, "n_test": 150, "steps": 25, "seed": 3, "d_model": 9, "lr": 0.05},
    {"n_train": 80, "n_test": 60, "steps": 50, "seed": 4, "weight_decay": 0.0},
    {"n_train": 150, "n_test": 100, "steps": 30, "seed": 5, "weight_decay": 2.0, "lr": 0.01},
    {"n_train": 100, "n_test": 50, "steps": 30, "seed": 6, "senses": _senses((0, [*RIVER, "canoe"]))},
    {"n_train": 100, "n_test": 50, "steps": 30, "seed": 7,
     "senses": _senses((0, [*RIVER, "coins"]), (1, [c for c in MONEY if c != "coins"]))},
    {"n_train": 100, "n_test": 50, "steps": 30, "seed": 8, "senses": _senses((0, RIVER[1:])),
     "watch": "we sat on the bank by the water"},
    {"n_train": 100, "n_test": 50, "steps": 30, "seed": 9, "senses": _senses((0, [*RIVER, "coins"]))},
    {"n_train": 90, "n_test": 40, "steps": 30, "seed": 10, "senses": S[:2]},
    {"n_train": 90, "n_test": 40, "steps": 30, "seed": 11, "senses": [*S, {"word": "bank", "sense": "seat",
                                                                             "cues": ["bench", "park"]}]},
    {"n_train": 90, "n_test": 40, "steps": 30, "seed": 12, "watch": "a bat near the cave", "senses": [*S, {"word": "club", "sense": "golf", "cues": ["golf", "swing"]},
                                                  {"word": "club", "sense": "dance", "cues": ["dance", "music"]}]},
    {"n_train": 60, "n_test": 40, "steps": 30, "seed": 13, "sentences": [
        {"sense": "bank:river", "text": "we went by boat to the bank"},
        {"sense": "bat:sport", "text": "the bat and the ball"}]},
    {"n_train": 0, "n_test": 30, "steps": 20, "seed": 14, "sentences": [
        {"sense": s, "text": t} for s, t in (("bank:river", "the bank by the river"), ("bank:money", "the bank and the money"),
                                             ("bat:animal", "the bat at the cave"), ("bat:sport", "the bat and the ball"))]},
    {"n_train": 50, "n_test": 30, "steps": 30, "seed": 15, "senses": _senses((1, [])),
     "sentences": [{"sense": "bank:money", "text": "we went to the bank today"}]},
    {"n_train": 200, "n_test": 100, "steps": 60, "seed": 16, "lr": 0.1, "d_model": 12},
    {"n_train": 400, "n_test": 200, "steps": 20, "seed": 2**32 - 1, "d_model": 2},
    {"n_train": 100, "n_test": 100, "steps": 30, "seed": 18, "d_model": 1},
    {"n_train": 100, "n_test": 100, "steps": 40, "seed": 19, "d_model": 32, "lr": 0.005},
    {"n_train": 150, "n_test": 100, "steps": 30, "seed": 20, "watch": "the bat near the game"},
    {"n_train": 100, "n_test": 50, "steps": 30, "seed": 21, "lr": 0.6},  # diverges: stops with its last finite weights
]  # and the chapter's run, with the fields as the page opens: test_the_default_run_is_the_chapters


#: Chapter 17 loaded, its TrainItYourself widget: the fixtures ``chapter`` (loaded once, for the tests that set every
#: field themselves before they train) and ``fresh_chapter`` (a page of the test's own) give ``(page, log, widget)``.
open_chapter = td.find


def test_the_page_trains_what_python_trains(chapter) -> None:  # noqa: ANN001
    _, log, w = chapter
    stopped = tc.trains_what_python_trains(w, td, CASES, trainer.train)
    assert len(CASES) >= 20 and stopped == 1
    assert log.external == [] and log.console_errors == [] and log.page_errors == []


def test_the_default_run_is_the_chapters(fresh_chapter) -> None:  # noqa: ANN001
    """Train with the fields as the page opens: the run printed above the widget."""
    _, log, w = fresh_chapter
    assert td.state(w) == "idle" and w.state["settings"] == trainer.check_settings({})
    td.click(w, "train")
    assert td.wait_until_ended(w) == "done"
    page, ref = td.read_run(w), trainer.train()  # Python's run of the chapter
    td.compare(page, ref, "the chapter's run")
    assert page["worker"], "the page trained on its own thread, not in a worker"
    assert f"{page['losses'][0]:.3f} -> {page['losses'][-1]:.4f}" == f"{ref.losses[0]:.3f} -> {ref.losses[-1]:.4f}"
    assert f"held-out accuracy {ref.accuracies[-1]:.3f}" in td.message(w)
    assert w.texts()["step"] == "150 of 150"
    assert log.external == [] and log.console_errors == [] and log.page_errors == []


BAD = [
    ({"n_train": "0"}, "the corpus is empty"),
    ({"senses": "bank river:\nbank money: money loan\nbat animal: cave\nbat sport: ball"}, "the sense 'bank:river' has no sentence"),
    ({"sentences": "bank:river | the river was quiet"}, "needs exactly one ambiguous word"),
    ({"sentences": "bank:river | the bank by the volcano"}, "'volcano'"),
    ({"sentences": "we sat on the bank"}, "must read 'word:sense | the sentence'"),
    ({"lr": "0"}, "the learning rate must be a finite number > 0, got 0"),
    ({"lr": "-0.1"}, "got -0.1"),
    ({"lr": "NaN"}, "got 'NaN'"),
    ({"lr": "1e309"}, "got '1e309'"),
    ({"lr": ""}, "got nothing"),
    ({"d_model": "2.5"}, "d_model must be a whole number from 1 to 32"),
    ({"steps": "0"}, "steps must be a whole number"),
    ({"seed": "-3"}, "seed must be a whole number"),
    ({"weight_decay": "x"}, "weight_decay must be a number"),
    ({"senses": "bank river: river"}, "at least two senses"),
    ({"senses": "bank river: bat\nbat sport: ball"}, "cannot be both"),
    ({"watch": "the river"}, "the watched sentence"),
]


def test_bad_settings_get_a_message_and_train_nothing(chapter) -> None:  # noqa: ANN001
    _, log, w = chapter
    tc.refuses_bad_settings(w, td, BAD, {"n_train": 50, "n_test": 20, "steps": 5},
                            lambda shown: "NaN" not in w.all_text().replace("got 'NaN'", ""))
    assert log.console_errors == [] and log.page_errors == []


def test_stop_and_continue_give_the_run_of_one_go(chapter) -> None:  # noqa: ANN001
    page_, _, w = chapter
    settings = {"n_train": 1500, "n_test": 500, "steps": 80, "seed": 3}
    gaps = tc.stop_and_continue(page_, w, td, settings, trainer.train(settings))
    assert gaps["all_losses"] < 1e-9


def test_ask_the_model_you_trained(chapter) -> None:  # noqa: ANN001
    _, _, w = chapter
    td.train(w, {"n_train": 300, "n_test": 100, "steps": 60})
    ref = trainer.train({"n_train": 300, "n_test": 100, "steps": 60})
    td.set_fields(w, {"ask": "the fish near the bank"})
    got = w.page.evaluate(f"() => JSON.parse({w.root}.dataset.answer)")
    assert "error" not in got, got
    batch = {"ids": np.array([[ref.corpus.vocab.index(x) for x in "the fish near the bank".split()] + [0] * 3]),
             "lengths": np.array([5]), "query": np.array([4]), "labels": np.array([0])}
    f = trainer.forward(ref.weights, batch)
    assert got["sense"] == ref.corpus.senses[int(np.argmax(f["probs"][0]))]
    assert np.allclose(got["row"], f["a"][0, :5], rtol=1e-6, atol=1e-12)
    td.set_fields(w, {"ask": "the bank by the volcano"})
    assert "volcano" in w.page.evaluate(f"() => JSON.parse({w.root}.dataset.answer).error")


def test_fields_survive_a_reload_and_reset_restores_them(fresh_chapter) -> None:  # noqa: ANN001
    page, _, w = fresh_chapter
    changed = td.fields_of({"senses": _senses((0, [*RIVER, "canoe"])), "lr": 0.05, "seed": 9,
                            "sentences": [{"sense": "bank:river", "text": "the canoe at the bank"}]})
    tc.fields_survive_a_reload(page, w, td, "TrainItYourself", changed)


def _reloaded(page) -> wd.Widget:  # noqa: ANN001
    """Reload the page as a reader does; the trainer once every widget has rendered again."""
    return tc.reloaded(page, td, "TrainItYourself")


def test_keyboard_alone_trains(chapter) -> None:  # noqa: ANN001
    """From the chapter's fields, six of them typed and Train pressed by keyboard alone."""
    page, _, w = chapter
    settings = {"n_train": 100, "n_test": 50, "d_model": 8, "lr": 0.03, "steps": 12}
    tc.keyboard_trains(page, w, td, ("n_train", "100"),
                       (("n_test", "50"), ("d_model", "8"), ("lr", "0.03"), ("weight_decay", "0.5"), ("steps", "12")),
                       3, trainer.train(settings))  # 3 Tabs: seed, watched sentence, Train


def test_fits_a_phone_in_both_themes(chapter) -> None:  # noqa: ANN001
    """After a short run, on a 390 px screen in each theme (on the module's page, given back at the desktop's
    size in the light theme)."""
    page, _, w = chapter
    tc.fits_a_phone_in_each_theme(page, w, lambda: td.train(w, {"n_train": 100, "n_test": 50, "steps": 10}))


LONG = "x" * 2000
#: Fields with a pasted 2,000-character word, and the same settings as Python takes them (its twin's message).
PASTED = [
    ({"sentences": f"bank:river | the bank by the {LONG}"}, {"sentences": [{"sense": "bank:river", "text": f"the bank by the {LONG}"}]}),
    ({"watch": f"the bank {LONG}"}, {"watch": f"the bank {LONG}"}),
    ({"n_train": "9" * 2000}, {"n_train": "9" * 2000}),
    ({"senses": f"bank river: water {LONG}1\nbank money: money loan\nbat animal: cave\nbat sport: ball"},
     {"senses": [{"word": "bank", "sense": "river", "cues": ["water", f"{LONG}1"]}, *S[1:]]}),
    ({"sentences": f"bank:{LONG} | the bank by the river"}, {"sentences": [{"sense": f"bank:{LONG}", "text": "the bank by the river"}]}),
]


def test_a_pasted_paragraph_is_quoted_short_as_python_quotes_it(chapter) -> None:  # noqa: ANN001
    """Issue 51: a 2,000-character word is quoted by its first 20 characters and its length (it was quoted in
    full: a message 1,000 to 2,000 px tall on a phone), and the page's message is its Python twin's."""
    page, log, w = chapter
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        for fields, settings in PASTED:
            td.set_fields(w, {**td.fields_of({}), **fields})
            td.click(w, "train")
            assert td.wait_until_ended(w) == "error", fields
            with pytest.raises(ValueError) as err:
                trainer.Trainer(settings)
            shown = td.message(w)
            assert shown == str(err.value), (shown[:200], str(err.value)[:200])
            assert "x" * 21 not in shown and "(20" in shown and len(shown) < 300, shown[:300]
            height = page.evaluate(f"() => {w.root}.querySelector('[data-name=\"message\"]').getBoundingClientRect().height")
            assert height < 150, f"the message is {height:.0f} px tall on a phone"
        td.set_fields(w, {**td.fields_of({}), "lr": LONG})
        td.click(w, "train")
        assert td.wait_until_ended(w) == "error" and td.message(w).endswith(f"got '{'x' * 20}…' (2000 characters)")
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
    assert log.console_errors == [] and log.page_errors == []


def test_a_huge_learning_rate_stops_with_pythons_message(chapter) -> None:  # noqa: ANN001
    """Issue 51: lr = 1e308 stopped with "NaN" and "1e+308" in its message; now the page says what Python says,
    in words and with the number as typed."""
    _, log, w = chapter
    settings = {"n_train": 60, "n_test": 20, "steps": 5, "lr": 1e308}
    td.set_fields(w, {**td.fields_of(settings), "lr": "1e308"})
    td.click(w, "train")
    assert td.wait_until_ended(w) == "diverged"
    with np.errstate(over="ignore", invalid="ignore"):
        ref = trainer.train(settings)
    shown = td.message(w)
    assert shown == f"Stopped: {ref.stopped}.", (shown, ref.stopped)
    assert "learning rate 1e308 is too large" in shown and "NaN" not in w.all_text() and "e+" not in shown
    assert log.console_errors == [] and log.page_errors == []


def test_restored_settings_are_said_to_be_restored(fresh_chapter) -> None:  # noqa: ANN001
    """Issue 51: a bad value kept in the page's storage came back after a reload with its error until Reset,
    and nothing said why; now the page says the settings are the reader's, kept from last time, and how
    to reset them."""
    page, log, w = fresh_chapter
    assert w.is_hidden("restored")
    td.set_fields(w, {"lr": LONG})
    w = _reloaded(page)
    assert not w.is_hidden("restored") and "Reset" in w.texts()["restored"], w.texts()["restored"]
    shown = td.message(w)
    assert td.state(w) == "error" and "from last time" in shown and "Reset" in shown and LONG not in shown, shown[:300]
    td.click(w, "reset")
    assert w.is_hidden("restored") and td.fields(w) == td.fields_of({})
    w = _reloaded(page)
    assert w.is_hidden("restored") and td.state(w) == "idle"
    assert log.console_errors == [] and log.page_errors == []


def test_the_charts_follow_the_theme(chapter) -> None:  # noqa: ANN001
    """After a short run the four charts are panels of the page's theme (they were white on the dark page),
    their axes, labels and curves 3:1 against them (:func:`theme_checks.chart_problems`)."""
    page, log, w = chapter
    td.set_fields(w, {"ask": w.state["ask"]})  # the sentence the page opens with (earlier tests typed others)
    td.train(w, {"n_train": 60, "n_test": 20, "steps": 5})
    assert theme_checks.chart_problems(page) == []
    assert log.page_errors == [] and log.console_errors == []
