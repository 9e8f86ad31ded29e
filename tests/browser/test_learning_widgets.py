"""The widgets of "Attention that learns" on the built site, every other host blocked: the in-page
model has attnlib's trained weights and predicts what attnlib predicts in Python (to 1e-6) for more
than 50 sentences; bad sentences get a message on the page; the training replay shows the stored
checkpoints; both are keyboard usable. (That they fit a 390 px wide screen is test_pages.py's check of
every card of every page.)
"""

from __future__ import annotations

import numpy as np
import pytest

from attnlib.companions import learning
from bookdev import widgets as wd

from . import learning_driver as ld

pytestmark = pytest.mark.browser

PAGE = "book/17_learning.html"
#: float32 weights trained on two CPUs agree to this (tests/nbval_report.py STATE_ATOL, the stored state's tolerance).
STATE_ATOL = 1e-4


def open_chapter(page, site_url: str):  # noqa: ANN001, ANN202
    """The chapter loaded into ``page``: its widgets by kind. The tests that share one load
    (``chapter``) only type sentences into the ask-the-model widget, each its own sentence first, and
    what the widget shows depends on that alone; the replay's test moves the replay alone, to every
    checkpoint it reads. A test that moves the replay from where it opens, or changes the page's
    size, has the chapter to itself (``fresh_chapter``)."""
    found = {w.kind: w for w in wd.load_widget_page(page, site_url, PAGE)}
    assert {"TrainingReplay", "AskModel"} <= set(found), f"widgets on {PAGE}: {sorted(found)}"
    return found


def test_in_page_weights_equal_attnlib(chapter) -> None:  # noqa: ANN001
    """The page holds the chapter's trained weights: this machine's retraining agrees with them to the
    tolerance of another CPU's float32 training (STATE_ATOL; an AVX2 machine ends up to 4e-6 away)."""
    _, _, found = chapter
    _, run = ld.chapter_run()
    python = run.checkpoint(-1).state
    page = found["AskModel"].state["weights"]
    assert set(page) == set(learning.check_state(python))
    for name, value in learning.check_state(python).items():
        np.testing.assert_allclose(np.asarray(page[name]), value, atol=STATE_ATOL, rtol=0, err_msg=name)


def test_in_page_predictions_equal_attnlib(chapter) -> None:  # noqa: ANN001
    """What the page computes equals attnlib's predict_np on the page's own stored weights, to 1e-6,
    whatever CPU trained them."""
    page, log, found = chapter
    corpus = ld.chapter_corpus()
    state = found["AskModel"].state["weights"]
    sentences = [" ".join(corpus.test.words(i)) for i in range(50)]
    sentences += ["We sat on the BANK, by the river.", "bat", "the cricket bat", "a bank with fish and money"]
    w = found["AskModel"]
    for text in sentences:
        shown = ld.type_sentence(w, text)
        ref = learning.predict_np(state, text)
        assert "error" not in shown, (text, shown)
        assert shown["words"] == ref["words"] and shown["query"] == ref["query"]
        np.testing.assert_allclose(shown["row"], ref["row"], atol=1e-6, rtol=0, err_msg=text)
        np.testing.assert_allclose(shown["probs"], ref["probs"], atol=1e-6, rtol=0, err_msg=text)
        assert shown["sense"] == ref["sense"]
        t = w.texts()
        assert t["sense"] == ref["sense"]
        assert abs(wd.number(t["probability"]) - ref["probs"].max()) <= ld.TOL
        for j, weight in enumerate(ref["row"]):
            assert abs(wd.number(t[f"row-{j}"]) - weight) <= ld.TOL
    assert log.external == [] and log.console_errors == [] and log.page_errors == []


@pytest.mark.parametrize("text", ["", "   ", "the bank by the volcano", "the bank " * 5, "the river", "bank bat"])
def test_bad_sentences_get_a_message(chapter, text) -> None:  # noqa: ANN001
    _, _, found = chapter
    w = found["AskModel"]
    shown = ld.type_sentence(w, text)
    with pytest.raises(ValueError) as info:
        learning.encode(text)
    assert shown == {"error": str(info.value)}
    msg, visible = ld.message(w)
    assert visible and msg == str(info.value)
    assert "NaN" not in w.all_text()
    # a good sentence afterwards hides the message again
    ld.type_sentence(w, "the bank by the river")
    assert ld.message(w)[1] is False


@pytest.mark.parametrize("text", ["we sat on the bank", "we saw the bat near the river",
                                  "the bank with money by the river", "a bat at the cave with the ball"])
def test_sentences_outside_the_training_pattern_get_a_caution(chapter, text) -> None:  # noqa: ANN001
    _, _, found = chapter
    w = found["AskModel"]
    ref = learning.predict_np(w.state["weights"], text)
    assert ref["outside"], text  # no cue word, or cue words of two senses
    shown = ld.type_sentence(w, text)
    assert shown["outside"] == ref["outside"] and shown["sense"] == ref["sense"]
    caution = ld.message(w, "outside")
    assert caution == (f"Outside what the model learned: {ref['outside']}.", True)
    assert "not an answer" in w.all_text()
    # a sentence inside the pattern: the caution goes, the answer is an answer again
    inside = ld.type_sentence(w, "the bank by the river")
    assert inside["outside"] is None and ld.message(w, "outside")[1] is False
    assert "predicted sense" in w.all_text() and "not an answer" not in w.all_text()


def test_vocabulary_buttons_assemble_a_sentence(chapter) -> None:  # noqa: ANN001
    page, _, found = chapter
    w = found["AskModel"]
    ld.type_sentence(w, "")
    page.evaluate(f"() => {w.root}.querySelector('details').open = true")
    for word in ("the", "bank", "near", "money"):
        page.evaluate(f"() => {w.root}.querySelector('button[data-word=\"{word}\"]').click()")
    t = w.texts()
    assert t["sentence"] == "the bank near money"
    assert t["sense"] == learning.predict_np(found["AskModel"].state["weights"], "the bank near money")["sense"]


def test_replay_shows_the_stored_checkpoints(chapter) -> None:  # noqa: ANN001
    _, _, found = chapter
    w = found["TrainingReplay"]
    ld.check_replay(w)
    # the stored values are what attnlib computes for the chapter's run
    _, run = ld.chapter_run()
    words = w.state["sentences"][0]
    for i, frame in enumerate(w.state["frames"]):
        ref = learning.replay_frame(run, i, words)
        assert frame["step"] == ref["step"] and abs(frame["loss"] - ref["loss"]) < 1e-6
        np.testing.assert_allclose(frame["maps"][0], ref["weights"], atol=1e-6)
        np.testing.assert_allclose(frame["probs"][0], ref["probs"], atol=1e-6)


def test_keyboard_moves_the_replay_and_types_a_sentence(fresh_chapter) -> None:  # noqa: ANN001
    page, _, found = fresh_chapter
    w = found["TrainingReplay"]
    page.evaluate(f"() => {w.root}.querySelector('input[data-name=\"index\"]').focus()")
    before = w.texts()
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    after = w.texts()
    assert after["index"] != before["index"] and after["loss"] != before["loss"]
    page.evaluate(f"() => {w.root}.querySelector('select[data-name=\"sentence\"]').focus()")
    before = w.texts()
    page.keyboard.press("ArrowDown")
    assert page.evaluate(f"() => {w.root}.querySelector('select[data-name=\"sentence\"]').value") == "1"
    assert w.texts()["map-0-0"] != before["map-0-0"] or w.texts()["sense"] != before["sense"]
    a = found["AskModel"]
    ld.type_sentence(a, "")
    page.evaluate(f"() => {a.root}.querySelector('input[data-name=\"sentence\"]').focus()")
    page.keyboard.type("a bat and a ball")
    t = a.texts()
    assert t["sentence"] == "a bat and a ball"
    assert t["sense"] == learning.predict_np(a.state["weights"], "a bat and a ball")["sense"]
