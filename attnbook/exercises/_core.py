"""The exercise checker: exercises as data, and the rule that turns a reader's answer into a verdict.

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

import copy
import ctypes
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any, Literal

import numpy as np
import torch

Kind = Literal["predict", "compute", "code", "find-error"]
Status = Literal["correct", "misconception", "not-yet", "invalid"]
KINDS: tuple[str, ...] = ("predict", "compute", "code", "find-error")
KIND_LABELS = {"predict": "Predict, then run", "compute": "Compute by hand", "code": "Write the code",
               "find-error": "Find the error"}
CODE_TIMEOUT = 3.0  # seconds a reader's function may run on one case before it is stopped
REPOSITORY = "attention-step-by-step/attention-book"


# --- where a hint points --------------------------------------------------------------------------

def slug(title: str) -> str:
    """The HTML id Sphinx gives a section titled ``title`` (docutils ``make_id`` of the rendered
    text): math and code marks dropped, accents stripped, runs of other characters become ``-``."""
    text = title.replace("$", "").replace("`", "").replace("\\", " ")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    text = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    text = re.sub(r"^[^a-z]+", "", text)  # an id starts with a letter
    return text


@dataclass(frozen=True)
class Section:
    """A section of a chapter: the notebook's file stem and the heading text as written there."""

    chapter: str  # e.g. "07_i_am_happy"
    title: str  # the heading's markdown text, e.g. "Step 5: softmax, row by row"

    @property
    def href(self) -> str:
        return f"{self.chapter}.html#{slug(self.title)}"

    @property
    def plain_title(self) -> str:
        return self.title.replace("$", "").replace("`", "").replace("\\sqrt{d_k}", "√d_k").replace("^\\top", "ᵀ")


@dataclass(frozen=True)
class Misconception:
    """A typical mistake: a short key, a name a reader recognises, a one-line hint, where to read."""

    key: str
    name: str
    hint: str
    section: Section | None = None


@dataclass
class Mistake:
    """One misconception an exercise recognises, and what it produces.

    Exactly one of: ``value`` (a function of no argument giving the wrong numeric answer),
    ``option`` (the option key a reader with this misconception picks), ``impl`` (for a code
    exercise, a wrong implementation with the same signature as the reference).
    """

    misconception: Misconception
    value: Callable[[], Any] | None = None
    option: str | None = None
    impl: Callable[..., Any] | None = None
    computed: np.ndarray | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        given = [x is not None for x in (self.value, self.option, self.impl)]
        if sum(given) != 1:
            raise ValueError(f"Mistake {self.misconception.key!r} needs exactly one of value, option, impl")
        if self.value is not None:
            self.computed = _as_float_array(self.value())


# --- answers ------------------------------------------------------------------------------------

@dataclass
class Numeric:
    """A numeric answer: one number, a vector, a matrix or a shape, computed by ``compute()``.

    ``tol`` is the absolute tolerance (ask for 3 decimals, accept ±0.0005 or so); ``expect`` says
    what to enter, e.g. "3 numbers, the weights of row 1".
    """

    compute: Callable[[], Any]
    tol: float
    expect: str
    value: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.value = _as_float_array(self.compute())
        if self.value.size == 0 or not np.all(np.isfinite(self.value)):
            raise ValueError(f"the answer must be finite numbers, got {self.value!r}")


@dataclass
class Choice:
    """A multiple-choice answer: ``options`` as (key, text) pairs, ``correct`` one of the keys."""

    options: Sequence[tuple[str, str]]
    correct: str

    def __post_init__(self) -> None:
        keys = [k for k, _ in self.options]
        if self.correct not in keys or len(set(keys)) != len(keys):
            raise ValueError(f"correct {self.correct!r} must be one of the distinct keys {keys}")

    @property
    def keys(self) -> list[str]:
        return [k for k, _ in self.options]


@dataclass
class FindError:
    """A hand calculation in steps, one of which has a slip: name the step, give its right value.

    ``steps`` are (key, text) pairs shown to the reader; ``wrong_step`` is the key of the slip;
    ``value`` the right value of the number that step got wrong. Mistakes with ``option`` name a
    wrong step; mistakes with ``value`` are wrong values for the right step.
    """

    steps: Sequence[tuple[str, str]]
    wrong_step: str
    value: Numeric
    value_hint: str

    def __post_init__(self) -> None:
        Choice(self.steps, self.wrong_step)  # same checks

    @property
    def keys(self) -> list[str]:
        return [k for k, _ in self.steps]


@dataclass
class Code:
    """A "write the code" answer: the reader's function is run on seeded cases against ``reference``.

    ``signature`` is what the reader writes (``def scaled_scores(q, k):``), ``cases(rng)`` returns
    a list of argument tuples (torch tensors or NumPy arrays), ``returns`` says what to return.
    """

    signature: str
    returns: str
    reference: Callable[..., Any]
    cases: Callable[[np.random.Generator], list[tuple[Any, ...]]]
    seed: int = 0
    rtol: float = 1e-5
    atol: float = 1e-6

    def make_cases(self) -> list[tuple[Any, ...]]:
        return self.cases(np.random.default_rng(self.seed))


Answer = Numeric | Choice | FindError | Code


@dataclass
class Exercise:
    """One exercise. ``id`` is "CC.N" (chapter, number); ``section`` is where its topic is explained."""

    id: str
    kind: str  # one of KINDS
    skill: str
    prompt: str
    answer: Numeric | Choice | FindError | Code
    mistakes: list[Mistake]
    hint: str
    section: Section
    why: str = ""  # one line shown with "Correct."

    def __post_init__(self) -> None:
        if not re.fullmatch(r"\d\d\.\d+", self.id):
            raise ValueError(f"exercise id must look like '07.2', got {self.id!r}")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        expected = {"predict": (Numeric, Choice), "compute": (Numeric, Choice), "code": (Code,),
                    "find-error": (FindError,)}[self.kind]
        if not isinstance(self.answer, expected):
            raise TypeError(f"{self.id}: a {self.kind} exercise needs {expected}, got {type(self.answer).__name__}")
        keys = [m.misconception.key for m in self.mistakes]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.id}: misconception keys repeat: {keys}")

    @property
    def chapter(self) -> str:
        return self.id.split(".")[0]

    def link_of(self, m: Misconception) -> Section:
        return m.section or self.section


# --- verdicts ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    """What the checker says about one answer. ``title`` and ``message`` are what the page shows too."""

    exercise: str
    status: str  # "correct", "misconception", "not-yet" or "invalid"
    title: str
    message: str
    misconception: str | None = None
    link: Section | None = None
    detail: str = ""

    def text(self) -> str:
        lines = [f"{self.exercise} — {self.title}"]
        if self.message:
            lines.append(self.message)
        if self.detail:
            lines.append(self.detail)
        if self.link is not None:
            lines.append(f'See "{self.link.plain_title}" in {self.link.chapter}.ipynb')
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        link = ""
        if self.link is not None:
            link = f'<br><a href="{escape(self.link.href)}">See: {escape(self.link.plain_title)}</a>'
        detail = f"<pre>{escape(self.detail)}</pre>" if self.detail else ""
        return (f'<div class="attnex-verdict attnex-{self.status}"><strong>{escape(self.exercise)} — '
                f"{escape(self.title)}</strong><br>{escape(self.message)}{detail}{link}</div>")


TITLES = {"correct": "Correct.", "not-yet": "Not yet.", "invalid": "Check the form of your answer."}


def _verdict(ex: Exercise, status: str, message: str, *, mistake: Mistake | None = None,
             detail: str = "", link: Section | None = None) -> Verdict:
    if mistake is not None:
        m = mistake.misconception
        return Verdict(ex.id, "misconception", f"Not quite: {m.name}.", m.hint, m.key, ex.link_of(m), detail)
    return Verdict(ex.id, status, TITLES[status], message, None, link, detail)


# --- numbers from a reader --------------------------------------------------------------------

# One rule for what counts as a number, the same in exercise.js: the text is NFKC-normalised (full-width
# digits and signs become ASCII), the minus sign U+2212 that the book prints becomes "-", invisible
# characters (byte-order mark, zero-width spaces) are dropped; then only the ASCII digits 0-9 count.
_NUMBER = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
_SEPARATORS = re.compile(r"[ \t\n\r\f\v,;()\[\]]+")
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060"))


def normalise_text(text: str) -> str:
    """A reader's typed answer in the form the rule reads (see the comment above)."""
    return unicodedata.normalize("NFKC", text).replace("\u2212", "-").translate(_INVISIBLE).strip(" \t\n\r\f\v")


class AnswerError(ValueError):
    """An answer that cannot be judged; the message says why, in the words the page uses too."""


def _plain(x: Any) -> Any:
    """``x`` with every torch tensor in it (nested in lists or tuples too) as a NumPy array: detached
    from autograd, dense, on the CPU."""
    if isinstance(x, torch.Tensor):
        x = x.detach().cpu()
        x = x.to_dense() if x.layout != torch.strided else x
        return x.numpy() if x.dtype == torch.bool else x.double().numpy()
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _as_float_array(x: Any) -> np.ndarray:
    return np.asarray(_plain(x), dtype=np.float64).reshape(-1)


def _describe(x: Any) -> str:
    return type(x).__name__


def parse_numbers(answer: Any, expect: str) -> np.ndarray:
    """A reader's numeric answer as a flat float array, or :class:`AnswerError` saying what is wrong.

    Accepts a number, a list/tuple (nested), a NumPy array, a torch tensor, or text such as
    ``"0.3, 0.33, 0.37"`` (the page's input: numbers separated by commas, spaces or semicolons;
    brackets ignored). ``exercise.js`` parses text by the same rule.
    """
    if answer is None:
        raise AnswerError(f"Empty answer: enter {expect}.")
    if isinstance(answer, str):
        tokens = [t for t in _SEPARATORS.split(normalise_text(answer)) if t]
        if not tokens:
            raise AnswerError(f"Empty answer: enter {expect}.")
        values = []
        for t in tokens:
            if t.lower() in ("nan", "inf", "+inf", "-inf", "infinity", "-infinity"):
                raise AnswerError("Your answer contains NaN or infinity: enter finite numbers.")
            if not _NUMBER.match(t):
                digits = " (write numbers with the digits 0-9)" if any(c.isdecimal() and not c.isascii() for c in t) else ""
                raise AnswerError(f"Expected {expect}; '{t}' is not a number{digits}.")
            values.append(float(t))
        arr = np.asarray(values, dtype=np.float64)
    else:
        if isinstance(answer, bool) or callable(answer) or isinstance(answer, (dict, set, bytes)):
            raise AnswerError(f"Expected {expect}, got a {_describe(answer)}.")
        try:
            arr = _as_float_array(answer)
        except (TypeError, ValueError):
            raise AnswerError(f"Expected {expect}, got a {_describe(answer)} that is not made of numbers.") from None
        if arr.size == 0:
            raise AnswerError(f"Empty answer: enter {expect}.")
    if not np.all(np.isfinite(arr)):
        raise AnswerError("Your answer contains NaN or infinity: enter finite numbers.")
    return arr


def _matches(got: np.ndarray, target: np.ndarray, tol: float) -> bool:
    return got.shape == target.shape and bool(np.all(np.abs(got - target) <= tol + 1e-12))


def _parse_option(answer: Any, keys: Sequence[str]) -> str:
    choices = ", ".join(keys)
    if answer is None or (isinstance(answer, str) and not normalise_text(answer)):
        raise AnswerError(f"Empty answer: choose one of {choices}.")
    if not isinstance(answer, str):
        raise AnswerError(f"Choose one of {choices} (the letter, as text), got a {_describe(answer)}.")
    raw = normalise_text(answer)
    key = raw.lstrip("(").rstrip(")").lower()
    if key not in keys:
        raise AnswerError(f"Choose one of {choices}; '{raw}' is not one of them.")
    return key


# --- the rule ----------------------------------------------------------------------------------

def _diagnose_numeric(ex: Exercise, spec: Numeric, answer: Any, mistakes: Sequence[Mistake]) -> Verdict:
    got = parse_numbers(answer, spec.expect)
    if _matches(got, spec.value, spec.tol):
        return _verdict(ex, "correct", ex.why)
    for m in mistakes:  # a mistake may give a different number of values (a shape without the batch axis)
        if m.computed is not None and _matches(got, m.computed, spec.tol):
            return _verdict(ex, "misconception", "", mistake=m)
    if got.size != spec.value.size:
        raise AnswerError(f"Expected {spec.expect}, got {got.size} number{'s' if got.size != 1 else ''}.")
    if _matches(got, spec.value, NEAR_MISS * spec.tol):
        return _verdict(ex, "not-yet", NEAR_MISS_MESSAGE.format(expect=spec.expect), link=ex.section)
    for power in UNIT_POWERS if np.all(spec.value != 0) else ():
        if _matches(got, spec.value * 10.0 ** power, spec.tol * 10.0 ** max(power, 0)):
            return _verdict(ex, "not-yet", UNIT_MESSAGE.format(power=power, expect=spec.expect), link=ex.section)
    return _verdict(ex, "not-yet", ex.hint, link=ex.section)


#: The right number in another unit (FLOP for MFLOP, bytes for kB) differs by one of these powers of 10.
UNIT_POWERS = (3, 6, 9, -3, -6, -9)
UNIT_MESSAGE = ("Your number is the right one times 10^{power}: the method is right, the unit is not. "
                "Enter {expect}, in the unit the exercise asks for.")
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
    if v.status == "not-yet" and v.message == ex.hint:  # a near miss or a unit slip keeps its own message
        return _verdict(ex, "not-yet", spec.value_hint, link=ex.section)
    return v


def diagnose(exercise_id: str, answer: Any, *, timeout: float = CODE_TIMEOUT) -> Verdict:
    """The verdict on ``answer`` to exercise ``exercise_id`` (e.g. ``"07.2"``); never raises for a
    bad answer (that is an ``invalid`` verdict saying what is wrong)."""
    from . import EXERCISES  # inside: the package's __init__ imports this module, then builds the registry

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
        return _diagnose_code(ex, spec, answer, timeout)
    except AnswerError as err:
        return _verdict(ex, "invalid", str(err))


def check(exercise_id: str, answer: Any, *, timeout: float = CODE_TIMEOUT) -> None:
    """Print the verdict on ``answer`` to exercise ``exercise_id``: correct, the misconception it
    shows (with a hint and the section to read), or "not yet" with a hint. Never raises for a bad
    answer and never hangs: a function that runs longer than ``timeout`` seconds is stopped."""
    print(diagnose(exercise_id, answer, timeout=timeout).text())


# --- code exercises ----------------------------------------------------------------------------

class _Timeout(BaseException):
    """Raised inside a reader's function whose time is up; a BaseException, so that the reader's
    ``except Exception: pass`` cannot swallow it."""


def _stop_thread(thread: threading.Thread, patience: float = 2.0) -> bool:
    """Raise :class:`_Timeout` inside ``thread`` at its next Python instruction, again and again until
    it ends (a loop that catches even BaseException once is caught at its next turn); a long C call
    finishes first, then stops. True when the thread has ended within ``patience`` seconds."""
    deadline = time.perf_counter() + patience
    while thread.is_alive() and thread.ident is not None and time.perf_counter() < deadline:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(_Timeout))
        thread.join(0.05)
    return not thread.is_alive()


def _call(fn: Callable[..., Any], args: tuple[Any, ...], timeout: float) -> tuple[str, Any]:
    """Run ``fn(*args)`` in a daemon thread: ("ok", value), ("raised", exc) or ("timeout", None)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn(*args)
        except _Timeout:
            box["timeout"] = True
        except BaseException as err:  # noqa: BLE001 - the reader's code may raise anything
            box["error"] = err

    thread = threading.Thread(target=target, daemon=True, name="attnbook-exercise")
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        _stop_thread(thread)
        return "timeout", None
    if "error" in box:
        return "raised", box["error"]
    if "timeout" in box:
        return "timeout", None
    return "ok", box.get("value")


def _copy(x: Any) -> Any:
    """A fresh copy of one case's argument, so that a function that changes its inputs (empties a
    list, writes into a tensor) changes nothing the next call sees."""
    if isinstance(x, torch.Tensor):
        return x.detach().clone()
    return copy.deepcopy(x)


def _parts(x: Any) -> list[np.ndarray] | None:
    """A function's result as a list of float arrays (a tuple gives several), or None if it is not numeric."""
    items = list(x) if isinstance(x, tuple) else [x]
    out = []
    for item in items:
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


def _is_bool(x: Any) -> list[bool]:
    """For each part of a function's result (a tuple gives several), whether it is a boolean tensor/array."""
    items = list(x) if isinstance(x, tuple) else [x]
    return [isinstance(i, (torch.Tensor, np.ndarray)) and i.dtype in (torch.bool, np.bool_) for i in items]


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
    expected = [_parts(r) for r in references]
    got: list[list[np.ndarray]] = []
    not_bool: str | None = None  # set when a boolean mask is asked for and a number tensor came back
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
        parts = _parts(value)
        if parts is None or len(parts) != len(expected[i - 1]):
            raise AnswerError(f"Your function returned a {_describe(value)} on {where}; expected {spec.returns}.")
        wanted, given = _is_bool(references[i - 1]), _is_bool(value)
        if not_bool is None and any(w and not g for w, g in zip(wanted, given)):
            part = value[wanted.index(True)] if isinstance(value, tuple) else value
            not_bool = BOOL_MASK_MESSAGE.format(dtype=getattr(part, "dtype", _describe(part)))
        got.append(parts)
    if all(_same(g, e, spec.rtol, spec.atol) for g, e in zip(got, expected)):
        if not_bool is not None:  # the right 0/1 pattern in a float tensor masks nothing
            return _verdict(ex, "not-yet", not_bool, link=ex.section)
        return _verdict(ex, "correct", ex.why)
    for m in ex.mistakes:
        if m.impl is None:
            continue
        wrong = [_parts(m.impl(*(_copy(a) for a in args))) for args in cases]
        if all(w is not None and _same(g, w, spec.rtol, spec.atol) for g, w in zip(got, wrong)):
            return _verdict(ex, "misconception", "", mistake=m)
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


BOOL_MASK_MESSAGE = ("Return a boolean mask (dtype torch.bool, True = may attend), not {dtype}: used as a mask, "
                     "a floating tensor is added to the scores, so its 1.0 and 0.0 mask nothing.")


# --- rounding helpers for prompts ---------------------------------------------------------------

def fmt(x: Any, digits: int = 3) -> str:
    """Numbers for a prompt: one number, or a bracketed list, rounded to ``digits`` decimals."""
    arr = _as_float_array(x)
    items = [f"{v:.{digits}f}" for v in arr]
    return items[0] if arr.size == 1 and np.ndim(x) == 0 else "[" + ", ".join(items) + "]"

