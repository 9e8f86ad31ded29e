"""The rule that turns a reader's answer into a verdict (``exercise.js`` runs the same rule on the page).

An exercise is a typed object (:class:`Exercise`). Its answer is computed by attnlib when the data
module is imported (never typed in), and each misconception it recognises is a :class:`Mistake`: a
named function that produces the wrong answer that mistake gives (or, for a multiple-choice or
find-the-error exercise, the option a reader with that misconception picks).

:func:`diagnose` returns a :class:`Verdict`, one of four: ``correct``; ``misconception`` (named, with
a one-line hint and the section that explains it); ``not-yet`` (a hint); ``invalid`` (the answer
could not be judged: empty, not a number, NaN, the wrong number of values; for code, a function that
raises, never returns, or returns the wrong type). It never says just "wrong".

The static page runs the same rule in ``exercise.js`` on the table :func:`export` gives it: the
wrong answers of every misconception are computed here, in Python, and travel as numbers. Nothing is
evaluated from strings. Used in: the "Exercises" section of every chapter, and the "Exercises" page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from ._catalog import EXERCISES
from ._parsing import (
    AnswerError,
    _describe,
    _matches,
    _parse_option,
    _plain,
    normalise_text,
    parse_numbers,
    quote,
)
from ._runner import _call, _copy
from ._types import (
    CODE_TIMEOUT,
    TITLES,
    Choice,
    Code,
    Exercise,
    FindError,
    Mistake,
    Numeric,
    Section,
    Trained,
    Verdict,
)


def _verdict(ex: Exercise, status: str, message: str, *, mistake: Mistake | None = None,
             detail: str = "", link: Section | None = None) -> Verdict:
    if mistake is not None:
        m = mistake.misconception
        return Verdict(ex.id, "misconception", f"Not quite: {m.name}.", m.hint, m.key, ex.link_of(m), detail)
    return Verdict(ex.id, status, TITLES[status], message, None, link, detail)


# --- the rule ----------------------------------------------------------------------------------

def confusions(spec: Numeric, mistakes: Sequence[Mistake]) -> list[tuple[np.ndarray, list[str]]]:
    """The wrong answers that more than one slip gives, as (value, the slips' names): two mistakes with
    the same value, or a mistake whose value two other slips give together (for one number, the product
    of their factors: 15.4's "no factor 2" × "one key/value head per query head" is ×8, the value of
    "bits, not bytes"). An answer at one of them shows no misconception alone, so none is named."""
    valued = [m for m in mistakes if m.computed is not None and m.computed.size == spec.value.size]
    out: list[tuple[np.ndarray, list[str]]] = []

    def add(value: np.ndarray, names: list[str]) -> None:
        for v, known in out:
            if _matches(value, v, spec.tol):
                known.extend(n for n in names if n not in known)
                return
        out.append((value, names))

    for i, a in enumerate(valued):
        for b in valued[i + 1:]:
            if _matches(a.computed, b.computed, spec.tol):
                add(a.computed, [a.misconception.name, b.misconception.name])
    if spec.value.size == 1 and spec.value[0] != 0:
        factors = [(m, m.computed[0] / spec.value[0]) for m in valued]
        for i, (a, fa) in enumerate(factors):
            for b, fb in factors[i + 1:]:
                both = spec.value * fa * fb
                for c in valued:
                    if c is not a and c is not b and _matches(both, c.computed, spec.tol):
                        add(c.computed, [c.misconception.name, f"{a.misconception.name} and {b.misconception.name} together"])
    return out


def _close_to_a_slip(got: np.ndarray, spec: Numeric, mistakes: Sequence[Mistake]) -> bool:
    """Whether ``got`` lies within the near-miss window of a mistake's value: then "close, check your
    rounding" could be another method rounded (18.3's −ln 0.85 beside 1 − 0.85), so it is not said."""
    return any(m.computed is not None and _matches(got, m.computed, NEAR_MISS * spec.tol) for m in mistakes)


def _unit_power(got: np.ndarray, spec: Numeric) -> int | None:
    """The power of 10 by which ``got`` is the right answer in another unit, for an answer asked in a
    unit (``spec.units``); the tolerance scales with the target and is never wider than a small part of
    it, so 0 (or all zeros) is no unit slip."""
    if not spec.units or not np.all(np.abs(spec.value) > spec.tol):
        return None
    for power in UNIT_POWERS:
        scaled = spec.value * 10.0 ** power
        tol = np.maximum(spec.tol * 10.0 ** power, UNIT_RTOL * np.abs(scaled))
        if got.shape == scaled.shape and bool(np.all(np.abs(got - scaled) <= tol)):
            return power
    return None


def _numeric_rule(ex: Exercise, spec: Numeric, got: np.ndarray, mistakes: Sequence[Mistake]) -> Verdict:
    if _matches(got, spec.value, spec.tol):
        return _verdict(ex, "correct", ex.why)
    for value, names in confusions(spec, mistakes):
        if _matches(got, value, spec.tol):
            return _verdict(ex, "not-yet", AMBIGUOUS_MESSAGE.format(names="; or ".join(names), hint=ex.hint),
                            link=ex.section)
    # a mistake may give a different number of values (a shape without the batch axis)
    named = [m for m in mistakes if m.computed is not None and _matches(got, m.computed, spec.tol)]
    if len(named) > 1:  # two slips' values both within the tolerance of this answer: it shows neither alone
        return _verdict(ex, "not-yet", AMBIGUOUS_MESSAGE.format(
            names="; or ".join(m.misconception.name for m in named), hint=ex.hint), link=ex.section)
    if named:
        return _verdict(ex, "misconception", "", mistake=named[0])
    if got.size != spec.value.size:
        raise AnswerError(f"Expected {spec.expect}, got {got.size} number{'s' if got.size != 1 else ''}.")
    if _matches(got, spec.value, NEAR_MISS * spec.tol) and not _close_to_a_slip(got, spec, mistakes):
        return _verdict(ex, "not-yet", NEAR_MISS_MESSAGE.format(expect=spec.expect), link=ex.section)
    power = _unit_power(got, spec)
    if power is not None:
        return _verdict(ex, "not-yet", UNIT_MESSAGE.format(power=power, expect=spec.expect), link=ex.section)
    return _verdict(ex, "not-yet", ex.hint, link=ex.section)


def _diagnose_numeric(ex: Exercise, spec: Numeric, answer: Any, mistakes: Sequence[Mistake]) -> Verdict:
    note = comma_note(answer) if isinstance(answer, str) else ""
    try:
        v = _numeric_rule(ex, spec, parse_numbers(answer, spec.expect), mistakes)
    except AnswerError as err:
        raise AnswerError(f"{err} {note}".strip()) from None
    if note and v.status != "correct":
        return Verdict(v.exercise, v.status, v.title, f"{v.message} {note}".strip(), v.misconception, v.link, v.detail)
    return v


def comma_note(text: str) -> str:
    """A word on a decimal comma (``0,185``): the page reads a comma as a separator, so it is two numbers."""
    found = _DECIMAL_COMMA.search(normalise_text(text))
    if not found:
        return ""
    token = found.group(0)
    return COMMA_NOTE.format(typed=quote(token), point=quote(token.replace(",", ".")))


_DECIMAL_COMMA = re.compile(r"(?<![0-9.])[0-9]+,[0-9]+(?![0-9.])")
COMMA_NOTE = "(A comma separates two numbers: if '{typed}' is one decimal number, write it with a point, {point}.)"
#: The right number in another unit (FLOP for MFLOP, bytes for kB) differs by one of these powers of 10.
UNIT_POWERS = (3, 6, 9, -3, -6, -9)
#: A unit slip is matched within this part of the scaled target (or the scaled tolerance, if wider).
UNIT_RTOL = 0.005
UNIT_MESSAGE = ("Your number is the right one times 10^{power}: check the unit. "
                "Enter {expect}, in the unit the exercise asks for.")
AMBIGUOUS_MESSAGE = ("More than one slip gives this number: {names}. Check each step. {hint}")
#: An answer within this many tolerances of the right one has the right method and the wrong rounding.
NEAR_MISS = 10
NEAR_MISS_MESSAGE = ("Close: your method looks right, but the value is off by more than rounding allows. "
                     "Check your rounding (keep more decimals in the steps): enter {expect}.")


def _diagnose_choice(ex: Exercise, spec: Choice, answer: Any) -> Verdict:
    key = _parse_option(answer, spec.keys)
    if key == spec.correct:
        return _verdict(ex, "correct", ex.why)
    for m in ex.mistakes:
        if m.option == key:
            return _verdict(ex, "misconception", "", mistake=m)
    return _verdict(ex, "not-yet", ex.hint, link=ex.section)


def _diagnose_find_error(ex: Exercise, spec: FindError, answer: Any) -> Verdict:
    if answer is None or (isinstance(answer, (str, list, tuple)) and len(answer) == 0):
        raise AnswerError(f"Empty answer: give the step and the right value, e.g. ('{spec.keys[0]}', 1.23).")
    if not isinstance(answer, (list, tuple)) or len(answer) != 2:
        raise AnswerError(f"Give two things, the step and the right value, e.g. ('{spec.keys[0]}', 1.23); "
                          f"got a {_describe(answer)}.")
    step = _parse_option(answer[0], spec.keys)
    if step != spec.wrong_step:
        for m in ex.mistakes:
            if m.option == step:
                return _verdict(ex, "misconception", "", mistake=m)
        return _verdict(ex, "not-yet", ex.hint, link=ex.section)
    value_mistakes = [m for m in ex.mistakes if m.computed is not None]
    v = _diagnose_numeric(ex, spec.value, answer[1], value_mistakes)
    note = comma_note(answer[1]) if isinstance(answer[1], str) else ""
    if v.status == "not-yet" and v.message == f"{ex.hint} {note}".strip():  # a near miss or a unit slip keeps its own message
        return _verdict(ex, "not-yet", f"{spec.value_hint} {note}".strip(), link=ex.section)
    return v


def diagnose(exercise_id: str, answer: Any, *, timeout: float = CODE_TIMEOUT) -> Verdict:
    """The verdict on ``answer`` to exercise ``exercise_id`` (e.g. ``"07.2"``); never raises for a
    bad answer (that is an ``invalid`` verdict saying what is wrong)."""
    if not isinstance(exercise_id, str) or exercise_id not in EXERCISES:
        raise KeyError(f"no exercise {exercise_id!r}; the ids look like '07.2' (see the Exercises page)")
    ex = EXERCISES[exercise_id]
    try:
        spec = ex.answer
        if isinstance(spec, Numeric):
            return _diagnose_numeric(ex, spec, answer, ex.mistakes)
        if isinstance(spec, Choice):
            return _diagnose_choice(ex, spec, answer)
        if isinstance(spec, FindError):
            return _diagnose_find_error(ex, spec, answer)
        if isinstance(spec, Trained):
            return _diagnose_trained(ex, spec, answer)
        return _diagnose_code(ex, spec, answer, timeout)
    except AnswerError as err:
        return _verdict(ex, "invalid", str(err))


def check(exercise_id: str, answer: Any, *, timeout: float = CODE_TIMEOUT) -> None:
    """Print the verdict on ``answer`` to exercise ``exercise_id``: correct, the misconception it
    shows (with a hint and the section to read), or "not yet" with a hint. Never raises for a bad
    answer and never hangs: a function that runs longer than ``timeout`` seconds is stopped."""
    print(diagnose(exercise_id, answer, timeout=timeout).text())


# --- code exercises ----------------------------------------------------------------------------

def _items(x: Any, n: int) -> list[Any]:
    """A function's result split into the ``n`` parts the reference returns: with ``n > 1``, any
    sequence of ``n`` items (a tuple, or a list such as ``[k, v]``); with ``n == 1``, the whole result
    is one part (a tuple of counts is a vector)."""
    if n > 1 and isinstance(x, (tuple, list)) and len(x) == n:
        return list(x)
    return [x]


def _parts(x: Any, n: int = 1) -> list[np.ndarray] | None:
    """A function's result as ``n`` float arrays (:func:`_items`), or None if it is not numeric."""
    out = []
    for item in _items(x, n):
        if item is None or isinstance(item, (str, bytes, dict)):
            return None
        if isinstance(item, torch.Tensor) and item.dtype.is_complex:
            return None
        try:
            arr = np.asarray(_plain(item))
            if arr.dtype == object or arr.dtype.kind not in "biuf":
                return None
            out.append(arr.astype(np.float64))
        except (TypeError, ValueError):
            return None
    return out


def _is_bool(x: Any, n: int = 1) -> list[bool]:
    """For each of the ``n`` parts of a function's result, whether it holds booleans: a boolean tensor
    or array, or (nested) lists of True and False."""
    def one(item: Any) -> bool:
        try:
            return np.asarray(_plain(item)).dtype == np.bool_
        except (TypeError, ValueError):
            return False
    return [one(i) for i in _items(x, n)]


def _kind_of(part: Any) -> str:
    """What a returned mask is made of, for the boolean-mask message: its dtype, or 'a list of numbers'."""
    dtype = getattr(part, "dtype", None)
    return str(dtype) if dtype is not None else f"a {_describe(part)} of numbers"


def _bool_mask_message(part: Any) -> str:
    """The boolean-mask message for a mask returned as numbers: what a float mask does differs from
    what an integer one (uint8, int64) does, and the message says the one that was returned."""
    dtype = getattr(part, "dtype", None)
    floating = dtype is not None and (dtype.is_floating_point if isinstance(dtype, torch.dtype)
                                      else np.dtype(dtype).kind == "f")
    why = FLOAT_MASK_WHY if floating or dtype is None else INT_MASK_WHY
    return BOOL_MASK_MESSAGE.format(dtype=_kind_of(part), why=why)


def _low_precision(value: Any, n: int) -> str | None:
    """The name of a half-precision dtype (float16, bfloat16) among a result's parts, or None."""
    for item in _items(value, n):
        if isinstance(item, torch.Tensor) and item.dtype in (torch.float16, torch.bfloat16):
            return str(item.dtype).replace("torch.", "")
        if isinstance(item, np.ndarray) and item.dtype == np.float16:
            return "float16"
    return None


def _same(a: list[np.ndarray], b: list[np.ndarray], rtol: float, atol: float) -> bool:
    return len(a) == len(b) and all(
        x.shape == y.shape and bool(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True)) for x, y in zip(a, b)
    )


def _shapes(args: tuple[Any, ...]) -> str:
    def one(a: Any) -> str:
        if isinstance(a, (torch.Tensor, np.ndarray)):
            return str(tuple(a.shape))
        return repr(a)
    return ", ".join(one(a) for a in args)


def _show(parts: list[np.ndarray]) -> str:
    def one(p: np.ndarray) -> str:
        text = np.array2string(np.round(p, 4), precision=4, separator=", ", threshold=24, edgeitems=3)
        return re.sub(r"\s+", " ", text)
    return "; ".join(f"shape {p.shape}: {one(p)}" for p in parts)


def _diagnose_code(ex: Exercise, spec: Code, fn: Any, timeout: float) -> Verdict:
    name = spec.signature.split("(")[0].replace("def ", "")
    if fn is None:
        raise AnswerError(f"Empty answer: pass your function, e.g. check({ex.id!r}, {name}).")
    if not callable(fn):
        raise AnswerError(f"Pass your function itself, e.g. check({ex.id!r}, {name}) — got a {_describe(fn)}.")
    cases = spec.make_cases()
    references = [spec.reference(*(_copy(a) for a in args)) for args in cases]
    n = len(references[0]) if isinstance(references[0], tuple) else 1  # the parts of the answer
    expected = [_parts(r, n) for r in references]
    got: list[list[np.ndarray]] = []
    not_bool: str | None = None  # set when a boolean mask is asked for and a number tensor came back
    half: str | None = None  # set when a part came back in float16 or bfloat16
    for i, args in enumerate(cases, start=1):
        where = f"case {i} of {len(cases)} (inputs of shape {_shapes(args)})"
        status, value = _call(fn, tuple(_copy(a) for a in args), timeout)
        if status == "timeout":
            raise AnswerError(f"Your function did not return within {timeout:g} s on {where}, so it was stopped. "
                              "Look for a loop that never ends.")
        if status == "raised":
            raise AnswerError(f"Your function raised {type(value).__name__}: {value} — on {where}.")
        if value is None:
            raise AnswerError(f"Your function returned None on {where}: did you forget 'return'?")
        parts = _parts(value, n)
        if parts is None or len(parts) != len(expected[i - 1]):
            raise AnswerError(f"Your function returned a {_describe(value)} on {where}; expected {spec.returns}.")
        wanted, given = _is_bool(references[i - 1], n), _is_bool(value, n)
        if not_bool is None and any(w and not g for w, g in zip(wanted, given)):
            not_bool = _bool_mask_message(_items(value, n)[wanted.index(True)])
        half = half or _low_precision(value, n)
        got.append(parts)
    if all(_same(g, e, spec.rtol, spec.atol) for g, e in zip(got, expected)):
        if not_bool is not None:  # the right 0/1 pattern in a float tensor masks nothing
            return _verdict(ex, "not-yet", not_bool, link=ex.section)
        return _fresh_cases(ex, spec, fn, n, timeout, seeded=cases)
    for m in ex.mistakes:
        if m.impl is None:
            continue
        wrong = [_parts(m.impl(*(_copy(a) for a in args)), n) for args in cases]
        if all(w is not None and _same(g, w, spec.rtol, spec.atol) for g, w in zip(got, wrong)):
            return _verdict(ex, "misconception", "", mistake=m)
    if half is not None and all(_same(g, e, HALF_RTOL, HALF_RTOL) for g, e in zip(got, expected)):
        return _verdict(ex, "not-yet", LOW_PRECISION_MESSAGE.format(dtype=half), link=ex.section)
    for i, (g, e, args) in enumerate(zip(got, expected, cases), start=1):
        where = f"case {i} of {len(cases)} (inputs of shape {_shapes(args)})"
        if any(not np.all(np.isfinite(p)) for p in g):
            raise AnswerError(f"Your function returned NaN or infinity on {where}; expected {spec.returns}.")
        if [p.shape for p in g] != [p.shape for p in e]:
            return _verdict(ex, "not-yet", ex.hint, link=ex.section,
                            detail=f"First failing case: {where}: expected shape "
                                   f"{', '.join(str(p.shape) for p in e)}, got {', '.join(str(p.shape) for p in g)}.")
        if not _same(g, e, spec.rtol, spec.atol):
            return _verdict(ex, "not-yet", ex.hint, link=ex.section,
                            detail=f"First failing case: {where}.\nexpected {_show(e)}\ngot      {_show(g)}")
    raise AssertionError("unreachable: some case must differ")  # pragma: no cover


def _fresh_cases(ex: Exercise, spec: Code, fn: Any, n: int, timeout: float, seeded: list[tuple]) -> Verdict:
    """The verdict on a function that passed the ``seeded`` cases: it must pass cases drawn afresh at each
    check too, so that copying the expected values a failure message printed passes nothing."""
    known = [_inputs_key(args) for args in seeded]
    rng = np.random.default_rng()
    for _ in range(FRESH_DRAWS):  # inputs the seeded cases do not already hold (a small space repeats them)
        cases = spec.cases(rng)
        if any(_inputs_key(args) not in known for args in cases):
            break
    for i, args in enumerate(cases, start=1):
        where = f"a case drawn afresh for this check ({i} of {len(cases)}, inputs of shape {_shapes(args)})"
        status, value = _call(fn, tuple(_copy(a) for a in args), timeout)
        if status == "timeout":
            raise AnswerError(f"Your function did not return within {timeout:g} s on {where}, so it was stopped.")
        if status == "raised":
            raise AnswerError(f"Your function raised {type(value).__name__}: {value} — on {where}.")
        expected = _parts(spec.reference(*(_copy(a) for a in args)), n)
        parts = None if value is None else _parts(value, n)
        if parts is None or expected is None or not _same(parts, expected, spec.rtol, spec.atol):
            return _verdict(ex, "not-yet", FRESH_CASE_MESSAGE, link=ex.section,
                            detail=f"It differs on {where}." + (f"\ngot {_show(parts)}" if parts else ""))
    return _verdict(ex, "correct", ex.why)


#: How many times the fresh cases are drawn again while every one of them is a seeded case (one left
#: padding exercise draws its lengths from 125 combinations: a repeat 1 time in 125).
FRESH_DRAWS = 50


def _inputs_key(args: tuple) -> Any:
    """A case's inputs as a comparable value: tensors and arrays by shape and values."""
    if isinstance(args, (torch.Tensor, np.ndarray)):
        a = np.asarray(args.detach() if isinstance(args, torch.Tensor) else args)
        return (a.shape, a.tobytes())
    if isinstance(args, (list, tuple)):
        return tuple(_inputs_key(a) for a in args)
    return args


FRESH_CASE_MESSAGE = ("Your function gives the right result on the fixed cases but not on new inputs: "
                      "compute the result from the inputs, for any inputs of these shapes.")
BOOL_MASK_MESSAGE = "Return a boolean mask (dtype torch.bool, True = may attend), not {dtype}: {why}"
FLOAT_MASK_WHY = "used as a mask, a floating tensor is added to the scores, so its 1.0 and 0.0 mask nothing."
INT_MASK_WHY = ("masked_fill and attention read only a torch.bool mask as True and False; a mask of integers "
                "is refused or read as numbers.")
#: A result in half precision within this relative distance of the answer has the right method.
HALF_RTOL = 2e-2
LOW_PRECISION_MESSAGE = ("Your function returns {dtype}, which keeps about 3 significant digits: its result is the "
                         "right one rounded, but too coarse. Compute in the inputs' dtype (no .half() or "
                         "{dtype} conversion).")


# --- training exercises ------------------------------------------------------------------------

def _predicted(predict: Any, inputs: tuple[Any, ...], n: int, timeout: float) -> np.ndarray:
    """The class ids ``predict(*inputs)`` returns, as an (n,) integer array, or an :class:`AnswerError`."""
    def no_grad_predict(*args: Any) -> Any:
        with torch.no_grad():  # grad mode belongs to the thread: set it in the one that runs predict
            return predict(*args)

    status, value = _call(no_grad_predict, tuple(_copy(a) for a in inputs), timeout)
    if status == "timeout":
        raise AnswerError(f"predict did not return within {timeout:g} s on {n} sentences, so it was stopped.")
    if status == "raised":
        raise AnswerError(f"predict raised {type(value).__name__}: {value}")
    parts = _parts(value)
    if parts is None or len(parts) != 1:
        raise AnswerError(f"predict returned a {_describe(value)}; expected one class id per example, shape ({n},).")
    ids = parts[0]
    if ids.ndim == 2 and ids.shape[0] == n:
        raise AnswerError(f"predict returned scores of shape {ids.shape}: return one class id per example, "
                          "e.g. logits.argmax(dim=-1).")
    if ids.shape != (n,):
        raise AnswerError(f"predict returned shape {ids.shape}; expected ({n},), one class id per example.")
    if not np.all(np.isfinite(ids)):
        raise AnswerError("predict returned NaN or infinity; expected one whole-number class id per example.")
    if not np.all(ids == np.round(ids)):
        odd = float(ids[ids != np.round(ids)][0])
        raise AnswerError(f"predict returned numbers that are not whole (such as {odd:.4g}); expected one class id "
                          "per example, e.g. logits.argmax(dim=-1).")
    return ids.astype(np.int64)


def _diagnose_trained(ex: Exercise, spec: Trained, fn: Any) -> Verdict:
    name = spec.signature.split("(")[0].replace("def ", "")
    if fn is None:
        raise AnswerError(f"Empty answer: pass your training function, e.g. check({ex.id!r}, {name}).")
    if not callable(fn):
        raise AnswerError(f"Pass your training function itself, e.g. check({ex.id!r}, {name}) — got a {_describe(fn)}.")
    train_args, test_inputs, test_labels, train_inputs, train_labels = spec.data()
    status, predict = _call(fn, tuple(_copy(a) for a in train_args), spec.timeout)
    if status == "timeout":
        raise AnswerError(f"Your training did not finish within {spec.timeout:g} s, so it was stopped. "
                          "Fewer steps, or a smaller model, are enough here.")
    if status == "raised":
        raise AnswerError(f"Your training function raised {type(predict).__name__}: {predict}")
    if not callable(predict):
        raise AnswerError(f"Your training function returned a {_describe(predict)}; it must return the function "
                          f"predict, {spec.returns}.")
    test = _predicted(predict, test_inputs, len(test_labels), spec.timeout)
    accuracy = float(np.mean(test == np.asarray(test_labels)))
    measured = f"Held-out accuracy {accuracy:.3f} (needed: {spec.threshold:.2f})."
    if accuracy >= spec.threshold:
        return _verdict(ex, "correct", f"{measured} {ex.why}".strip())
    train = _predicted(predict, train_inputs, len(train_labels), spec.timeout)
    train_accuracy = float(np.mean(train == np.asarray(train_labels)))
    majority = float(np.max(np.bincount(np.asarray(train_labels, dtype=np.int64))) / len(train_labels))
    guessing = train_accuracy < majority + CHANCE_MARGIN
    # one class for every held-out sentence is "did not learn" only when the training sentences say so too: a
    # model right on them learned something, and the message must not contradict the accuracy printed beside it
    outcome = ("memorised" if train_accuracy >= spec.threshold else
               "one-class" if len(np.unique(test)) == 1 and guessing else None)
    detail = f"{measured} Training accuracy {train_accuracy:.3f}."
    for m in ex.mistakes:
        if outcome is not None and m.outcome == outcome:
            return _verdict(ex, "misconception", "", mistake=m, detail=detail)
    if outcome is None and guessing:
        # An untrained model guesses: varied senses, so not "one sense for every sentence", but the same cause.
        unlearned = next((m.misconception.hint for m in ex.mistakes if m.outcome == "one-class"), "")
        message = CHANCE_MESSAGE.format(train=train_accuracy, majority=majority)
        return _verdict(ex, "not-yet", f"{message} {unlearned}".strip(), link=ex.section, detail=detail)
    return _verdict(ex, "not-yet", ex.hint, link=ex.section, detail=detail)


#: A training accuracy below the most common class's share plus this is a guess: a model of the chapter's
#: design that never took a step scores between 0.16 and 0.38 over 40 seeds (the most common sense: 0.27).
CHANCE_MARGIN = 0.15
CHANCE_MESSAGE = ("Your model is guessing: its training accuracy ({train:.3f}) is no better than always answering "
                  "the most common sense ({majority:.3f}).")
