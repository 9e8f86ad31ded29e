"""Answer the book's exercises on a built page as a reader does (type a number, tick an option, press
Check; no kernel) and read the feedback the page shows, to compare with the Python checker
(``attnbook.exercises.diagnose``). :func:`bookdev.site.read_page` enters every answer of
:func:`answers` into every exercise card of a chapter (:func:`read_feedback`); test_pages' check
``exercise_feedback_is_pythons`` compares. Also used by tests/browser/test_exercises.py.
"""

from __future__ import annotations

import json
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from attnbook.exercises import EXERCISES, Choice, Code, FindError, Numeric, Trained, diagnose


def card(eid: str) -> str:
    """The CSS selector of exercise ``eid``'s card on its page (what attnbook.exercises writes)."""
    return f'section.attnex[data-exercise="{eid}"]'


def page_of(eid: str) -> str:
    """The built page of exercise ``eid``: its chapter's."""
    return f"book/{EXERCISES[eid].section.chapter}.html"


#: The exercises a page checks by itself (not code to run, not a model to train), in order.
STATIC_IDS = [eid for eid, ex in sorted(EXERCISES.items()) if not isinstance(ex.answer, (Code, Trained))]
#: Those exercises by page.
BY_PAGE: dict[str, list[str]] = defaultdict(list)
for _eid in STATIC_IDS:
    BY_PAGE[page_of(_eid)].append(_eid)


#: A pasted page (2,000 characters): the feedback quotes at most 40 of them.
PASTED = "1234567890" * 200


def _comma(values: np.ndarray) -> str:
    """The values written with a decimal comma, as in much of Europe: ``0,185 0,865``."""
    return " ".join(f"{v:.3f}".replace(".", ",") for v in values)


def answers(eid: str) -> list[object]:
    """What a reader might enter: the right answer, every misconception, an unrelated answer, zeros, the
    right number times 1,000, a decimal comma, a pasted page, and bad input."""
    ex = EXERCISES[eid]
    spec = ex.answer

    def text(values: np.ndarray) -> str:
        return ", ".join(f"{v:.6g}" if abs(v) >= 1e-3 else f"{v:.6f}" for v in values)

    if isinstance(spec, Numeric):
        out: list[object] = [text(spec.value)] + [text(m.computed) for m in ex.mistakes]
        return out + [text(spec.value * 1.7 + 13.0), text(np.zeros_like(spec.value)), text(spec.value * 1e3),
                      _comma(spec.value), "abc" + PASTED, "", "nan"]
    if isinstance(spec, Choice):
        return [k for k in spec.keys] + [""]
    assert isinstance(spec, FindError)
    right = text(spec.value.value)
    out = [(spec.wrong_step, right)] + [(m.option, right) if m.option else (spec.wrong_step, text(m.computed))
                                        for m in ex.mistakes]
    return out + [(spec.wrong_step, text(spec.value.value * 1.7 + 13.0)), ("", right), (spec.wrong_step, "x"),
                  (spec.wrong_step, "0"), (spec.wrong_step, _comma(spec.value.value)), (spec.wrong_step, "x" + PASTED)]


# The feedback box as the reader sees it: status, title, message and link.
_FEEDBACK = """(box) => {
  const text = (sel) => { const e = box.querySelector(sel); return e ? e.innerText : null; };
  const link = box.querySelector("a.attnex-verdict-link");
  return { status: box.dataset.status || "", title: text(".attnex-verdict-title"),
           message: text(".attnex-verdict-message") ?? "", href: link ? link.getAttribute("href") : null };
}"""
# Fill one card's form (``selector``: the card's, :func:`card`; ``option``: the option to tick, "" for
# none, null when the card has no options; ``value``: the text for the answer box, or null), click
# Check, return the feedback.
_ENTER = """([selector, option, value]) => {
  const card = document.querySelector(selector);
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


def enter(page: Any, eid: str, answer: object) -> dict[str, str]:
    """Put ``answer`` into the exercise's form as a reader leaves it (the value typed, with its
    ``input`` event; the options ticked), press Check, and read the feedback: in one call to the
    page. Typing and pressing keys for real is tests/browser/test_exercises.py's part."""
    spec = EXERCISES[eid].answer
    if isinstance(spec, Numeric):
        option, value = None, str(answer)
    elif isinstance(spec, Choice):
        option, value = answer or "", None
    else:
        step, value = answer  # type: ignore[misc]
        option, value = step or "", str(value)
    return page.evaluate(_ENTER, [card(eid), option, value])


def python_verdict(eid: str, answer: object) -> Any:
    """The Python checker's verdict on ``answer`` (what :func:`answers` lists) to exercise ``eid``."""
    if isinstance(EXERCISES[eid].answer, FindError):
        step, value = answer  # type: ignore[misc]
        return diagnose(eid, (step or None, value))
    return diagnose(eid, answer)


def node_verdicts(cases: list[tuple[dict, object]]) -> list[dict]:
    """diagnose() of exercise.js on (exercise data, answer) pairs, run in node with a stub page: the page's
    verdicts without a browser (tests/book/test_exercise_parity.py and tests/book/test_exercise_feedback.py)."""
    script = Path(__file__).resolve().parents[1] / "attnbook" / "exercises" / "exercise.js"
    program = (
        "globalThis.window = {}; globalThis.document = {readyState: 'loading', addEventListener() {}};\n"
        + script.read_text(encoding="utf-8")
        + "\nconst cases = JSON.parse(require('fs').readFileSync(0, 'utf-8'));\n"
        + "process.stdout.write(JSON.stringify(cases.map(([ex, a]) => window.attnbookExercises.diagnose(ex, a))));\n"
    )
    out = subprocess.run(["node", "-e", program], input=json.dumps(cases), capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.stdout)


def read_feedback(page: Any, name: str) -> list[dict[str, Any]]:
    """Every answer of :func:`answers` entered into every exercise card of page ``name`` (none when
    the page has no exercise the page checks by itself), each with the feedback the page showed:
    ``{"eid", "answer", "shown"}``."""
    return [{"eid": eid, "answer": answer, "shown": enter(page, eid, answer)}
            for eid in BY_PAGE.get(name, []) for answer in answers(eid)]
