"""The "continue the text" widget of "Attention on real text" on the built site, every other host blocked:
for 26 prompts of a reader's kind (ordinary text, speakers' names, unknown characters, empty, longer than
the context, Unicode, whitespace only) and five rules the page's logits equal Python's
(``ContinueText.numbers()`` on the page's own stored weights) to 1e-9 relative, and its characters,
candidates and every head's rows are Python's; bad and long prompts get Python's message or note; typed,
clicked and keyboard-driven, it writes what Python writes; it fits a 390 px screen. The chapter is loaded
once for the module (what it shows as it opens is test_widgets.py's check), and each test sets what it reads.
"""

from __future__ import annotations

import pytest

from bookdev import widgets as wd

from . import continue_text_driver as cd
from .writer_driver import keyboard_write, press

pytestmark = pytest.mark.browser

SPEECH = ("First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak.\n\n"
          "First Citizen:\nYou are all resolved rather to die than to famish?\n")
PROMPTS = [
    "To be, or not to be, that is the question:", "I love you", "the quick brown fox jumps over", "hello world. ",
    "ROMEO:\n", "JULIET:\nO Romeo, Romeo! wherefore art thou Romeo?", "KING RICHARD III:\n", "First Citizen:\n",
    "MENENIUS:\nWhat", "HAMLET:\nTo be", "Zoë, 1599", "tab\there", "emoji 🎭 mask", "<b>bold</b> & {braces}",
    "é" * 2000, "", SPEECH, SPEECH[:65], SPEECH[:64], "日本語のテキスト", "ROMEO: «hi»", "\u202eevil",
    "   ", "\n\n", " \n \n", "3 3 3",
]
# (temperature, top_k, top_p): greedy, plain sampling, top-k, top-p, and all three at once
RULES = [(0.0, 65, 1.0), (1.0, 65, 1.0), (0.8, 10, 1.0), (1.5, 65, 0.9), (1.2, 5, 0.8)]


def open_chapter(page, site_url: str) -> wd.Widget:  # noqa: ANN001
    return cd.find(wd.load_widget_page(page, site_url, cd.PAGE))


def _state(i: int, prompt: str, steps: int) -> dict:
    t, k, p = RULES[i % len(RULES)]
    return {"prompt": prompt, "temperature": t, "top_k": k, "top_p": p, "seed": 7 * i, "steps": steps}


def test_the_page_continues_as_python_does(chapter) -> None:  # noqa: ANN001
    """26 prompts, five rules and as many seeds, 1 to 12 characters, and 70 greedy ones (past the context,
    where the model keeps its latest 32 characters): the page's numbers are Python's. Then three sampled
    runs of 60 characters, past the context too (three seeds, temperatures and top-k): the same characters
    and logits."""
    _, log, w = chapter
    states = [_state(i, prompt, 1 + (i * 7) % 12) for i, prompt in enumerate(PROMPTS)] + [_state(0, "ROMEO:\n", 70)]
    sampled = [_state(i, "KING RICHARD III:\n", 60) for i in (1, 2, 4)]
    pages = cd.page_numbers(w, states) + cd.page_numbers(w, sampled, rows=False)
    widget, worst, errors = cd.twin(w), 0.0, 0
    for state, page in zip(states + sampled, pages, strict=True):
        ref = cd.twin(w, widget, **state).numbers()
        worst = max(worst, cd.compare(page, ref, f"prompt {state['prompt'][:40]!r}, rule {state}"))
        errors += "error" in ref
    unknown = [p for p in PROMPTS if not set(p) <= set(w.state["vocab"])]  # characters the text never uses
    assert errors == len(unknown) == 8, f"{errors} prompts refused, {len(unknown)} with unknown characters"
    assert worst <= cd.LOGIT_RTOL  # the largest relative difference of a logit (2e-10 on the machine it was written on)
    assert log.external == [] and log.console_errors == [] and log.page_errors == []


def test_bad_and_long_prompts_say_what_happens(chapter) -> None:  # noqa: ANN001
    """Typed in the box, greedy, then "write 64 more": an unknown character is named (a long paste quoted
    short) and nothing is written; an empty prompt starts from a new line; a long one keeps its last 64
    characters; each says so, as Python does."""
    _, _, w = chapter
    w.set_range("temperature", 0)
    shown = w.page.evaluate(f"""(prompts) => {{
      const root = {w.root}, box = root.querySelector('textarea[data-name="prompt"]');
      const seen = (name) => {{ const e = root.querySelector(`[data-name="${{name}}"]`); return !e.hidden && e.offsetParent !== null ? e.textContent : null; }};
      const press = (name) => {{ const b = root.querySelector(`button[data-name="${{name}}"]`); if (!b.disabled) b.click(); }};
      return prompts.map((p) => {{
        box.value = p; box.dispatchEvent(new Event("input", {{ bubbles: true }}));
        press("restart"); press("finish");
        return {{ message: seen("message"), note: seen("note"), story: seen("story"),
          next: root.querySelector('button[data-name="next"]').disabled, result: root.result() }};
      }});
    }}""", ["naïve 🎭" + "ü" * 300, "", SPEECH, "ROMEO:\n"])
    bad, empty, long, ok = shown
    ref = cd.twin(w, prompt="naïve 🎭" + "ü" * 300).numbers()
    assert bad["message"] == ref["error"] and bad["story"] is None and bad["next"] is True and bad["result"] == ref
    assert "'ï', '🎭', 'ü'" in ref["error"] and "65 characters" in ref["error"] and len(ref["error"]) < 200
    for got, prompt in ((empty, ""), (long, SPEECH)):
        ref = cd.twin(w, prompt=prompt, temperature=0.0, steps=64).numbers()
        assert got["message"] is None and got["note"] == ref["note"] and ref["note"]
        cd.compare(got["result"], ref, f"typed {prompt[:20]!r}")
    assert ok["note"] is None and ok["message"] is None and ok["story"].startswith("ROMEO:\n")


def test_buttons_and_the_keyboard_write_what_python_writes(chapter) -> None:  # noqa: ANN001
    """Clear, type a beginning, set the temperature with arrow keys and a seed, then Enter on "next
    character" and on "write 64 more": the page holds Python's characters; 30 more clicks write 30
    characters; the card fits a 390 px phone. (The time a character takes is benchmarks/bench_widgets.py's
    to measure, docs/notes/REAL_TEXT.md: a timed test fails on a busy machine.)"""
    page, _, w = chapter
    for name, position in (("temperature", 0), ("top_k", 65), ("top_p", 20)):
        w.set_range(name, position)
    keyboard_write(w, "JULIET:\nO Rom", arrows=7, seed=11, nexts=3, finish=True)  # greedy -> T = 0.7
    t = w.texts()
    assert t["temperature-readout"] == "T = 0.7" and t["seed"] == "11"
    ref = cd.twin(w, prompt="JULIET:\nO Rom", temperature=0.7, top_k=65, top_p=1.0, seed=11, steps=67).numbers()
    cd.compare(cd.result(w), ref, "typed and pressed")
    press(w, "restart")
    press(w, "next", 30)
    assert len(cd.result(w)["new"]) == 30
    assert wd.phone_problems(page, w) == []  # on a 390 px phone, the card fits
    page.set_viewport_size({"width": 1280, "height": 900})
