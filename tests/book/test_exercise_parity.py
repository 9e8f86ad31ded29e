"""The page and the kernel give the same verdict on the same typed answer: exercise.js (run in node,
on the data export() gives the page) against diagnose() in Python, over unusual characters, near
misses and every exercise's own answer and mistakes."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from attnbook.exercises import EXERCISES, Choice, FindError, Numeric, diagnose, export
from attnbook.exercises._diagnose import NEAR_MISS
from attnbook.exercises._parsing import parse_numbers
from bookdev.exercise_driver import node_verdicts

NODE = shutil.which("node")

# Texts a reader may type: the book's minus sign, full-width and Arabic-Indic digits, a byte-order
# mark, zero-width and no-break spaces, separators and brackets, non-finite words, and empty ones.
ODD_TEXTS = ["−0.5", "－0.5", "０.５", "٠٫٥", "\ufeff0.5", "0\u200b.5", "0.5\u00a0", "\u30000.5", "(0.5)", "[0.5, 0.25]",
             "0.5;0.25", "1e-3", ".5", "5.", "+0.5", "0,5", "nan", "Infinity", "", "   ", "\ufeff", "½", "0.5 x",
             "2²", "١٢", "1\u20222"]
CHOICES = ["a", " (b) ", "\ufeffc", "Ａ", "ａ", "(a", "e", "", "α"]


def _node_verdicts(cases: list[tuple[dict, object]]) -> list[dict]:
    return node_verdicts(cases)


def _cases() -> list[tuple[str, object, object]]:
    """(exercise id, answer for Python, answer for the page) over every non-code exercise."""
    cases = []
    for eid, ex in sorted(EXERCISES.items()):
        spec = ex.answer
        if isinstance(spec, Numeric):
            right = ", ".join(f"{v:.6f}" for v in spec.value)
            near = ", ".join(f"{v + 5 * spec.tol:.6f}" for v in spec.value)
            in_units = [", ".join(f"{v * 10.0 ** k:.9g}" for v in spec.value) for k in (3, 6, -3)]
            texts = [right, near, right.replace("-", "−"), *in_units] + ODD_TEXTS
            texts += [", ".join(f"{v:.6f}" for v in m.computed) for m in ex.mistakes if m.computed is not None]
            cases += [(eid, t, t) for t in texts]
        elif isinstance(spec, Choice):
            cases += [(eid, c, c) for c in CHOICES + [spec.correct]]
        elif isinstance(spec, FindError):
            value = ", ".join(f"{v:.6f}" for v in spec.value.value)
            in_mega = ", ".join(f"{v * 1e6:.9g}" for v in spec.value.value)
            for step in [spec.wrong_step, *spec.keys[:2], "\ufeff" + spec.wrong_step]:
                for text in [value, in_mega, "−1", "٣", ""]:
                    cases.append((eid, (step, text), {"step": step, "value": text}))
    return cases


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_page_and_kernel_agree_on_every_typed_answer() -> None:
    cases = _cases()
    page = _node_verdicts([(export(EXERCISES[eid]), page_answer) for eid, _, page_answer in cases])
    assert len(page) == len(cases) > 300
    differ = []
    for (eid, answer, _), p in zip(cases, page):
        k = diagnose(eid, answer)
        if (k.status, k.title, k.message) != (p["status"], p["title"], p["message"]):
            differ.append((eid, answer, (k.status, k.message[:80]), (p["status"], p["message"][:80])))
    assert not differ, differ[:10]


def test_the_books_minus_sign_and_full_width_digits_are_numbers() -> None:
    assert parse_numbers("−0.5, －１．２５", "two numbers").tolist() == [-0.5, -1.25]
    assert parse_numbers("\ufeff0.5\u200b", "one number").tolist() == [0.5]
    ex = next(e for e in EXERCISES.values() if isinstance(e.answer, Numeric))
    assert "digits 0-9" in diagnose(ex.id, "٣").message  # other scripts' digits: a clear word, on both sides


def test_a_near_miss_says_the_method_is_right_and_to_check_the_rounding() -> None:
    for ex in EXERCISES.values():
        if not isinstance(ex.answer, Numeric) or ex.answer.tol == 0:  # a shape: no rounding to get wrong
            continue
        near = ex.answer.value + 3 * ex.answer.tol
        v = diagnose(ex.id, ", ".join(f"{x:.6f}" for x in near))
        assert v.status in ("not-yet", "misconception"), (ex.id, v.text())
        other_method = any(m.computed is not None and m.computed.shape == near.shape
                           and np.all(np.abs(m.computed - near) <= NEAR_MISS * ex.answer.tol) for m in ex.mistakes)
        if other_method:  # as near to a mistake's value: "close" could be the other method rounded
            assert "method looks right" not in v.message, (ex.id, v.text())
        elif v.status == "not-yet":
            assert "method looks right" in v.message and "rounding" in v.message, (ex.id, v.text())
        far = diagnose(ex.id, ", ".join(f"{x + 1000 * ex.answer.tol + 1:.6f}" for x in ex.answer.value))
        assert "method looks right" not in far.message, (ex.id, far.text())


def test_the_right_number_in_another_unit_is_named_a_unit_slip() -> None:
    """15.5 asks for MFLOP: the FLOP count is the right number in the wrong unit, not a wrong step. Only an
    exercise asked in a unit says so: elsewhere the right number times 1,000 is another method."""
    ex = EXERCISES["15.5"]
    flops = f"{ex.answer.value.value[0] * 1e6:.0f}"
    v = diagnose("15.5", (ex.answer.wrong_step, flops))
    assert v.status == "not-yet" and "10^6" in v.message and "check the unit" in v.message, v.text()
    v = diagnose("01.1", f"{EXERCISES['01.1'].answer.value[0] * 1e3:.3f}")  # a cosine has no unit
    assert "unit" not in v.message, v.text()
