"""The exercise types: an exercise, its answer (numeric, choice, find the error, code), the
misconceptions it recognises, and the verdict. Used by the checker (``_diagnose``), the loader and the page."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any, Literal

import numpy as np

from ._parsing import _as_float_array

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
    exercise, a wrong implementation with the same signature as the reference), ``outcome`` (for a
    training exercise, the outcome of the reader's run that shows it: one of ``OUTCOMES``).
    """

    misconception: Misconception
    value: Callable[[], Any] | None = None
    option: str | None = None
    impl: Callable[..., Any] | None = None
    outcome: str | None = None
    computed: np.ndarray | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        given = [x is not None for x in (self.value, self.option, self.impl, self.outcome)]
        if sum(given) != 1:
            raise ValueError(f"Mistake {self.misconception.key!r} needs exactly one of value, option, impl, outcome")
        if self.outcome is not None and self.outcome not in OUTCOMES:
            raise ValueError(f"Mistake {self.misconception.key!r}: outcome must be one of {OUTCOMES}, got {self.outcome!r}")
        if self.value is not None:
            self.computed = _as_float_array(self.value())


# --- answers ------------------------------------------------------------------------------------

@dataclass
class Numeric:
    """A numeric answer: one number, a vector, a matrix or a shape, computed by ``compute()``.

    ``tol`` is the absolute tolerance (ask for 3 decimals, accept ±0.0005 or so); ``expect`` says
    what to enter, e.g. "3 numbers, the weights of row 1". ``units`` marks an answer asked in a unit
    (MiB, MFLOP), where the right number in another unit is a slip worth naming.
    """

    compute: Callable[[], Any]
    tol: float
    expect: str
    units: bool = False  # the answer is in a unit (MiB, MFLOP): the right number times 10^±3k is named a unit slip
    value: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.value = _as_float_array(self.compute())
        if self.value.size == 0 or not np.all(np.isfinite(self.value)):
            raise ValueError(f"the answer must be finite numbers, got {self.value!r}")


@dataclass
class Choice:
    """A multiple-choice answer: ``options`` as (key, text) pairs, and the right one's key: given, or a
    function of no argument that finds it (an experiment, such as a training run), called the first
    time ``correct`` is asked for, so that loading every exercise of the book runs no experiment."""

    options: Sequence[tuple[str, str]]
    key: str | Callable[[], str]

    def __post_init__(self) -> None:
        if len(set(self.keys)) != len(self.keys):
            raise ValueError(f"the option keys must be distinct, got {self.keys}")
        if not callable(self.key):
            self._one_of_the_keys(self.key)

    def _one_of_the_keys(self, key: str) -> str:
        if key not in self.keys:
            raise ValueError(f"correct {key!r} must be one of the distinct keys {self.keys}")
        return key

    @functools.cached_property
    def correct(self) -> str:
        """The right option's key."""
        return self._one_of_the_keys(self.key() if callable(self.key) else self.key)

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


@dataclass
class Trained:
    """A "train a model" answer: the reader's training function runs once on a fixed, seeded
    training set, returns a ``predict`` function, and is judged by its held-out accuracy.

    ``data()`` returns ``(train_args, test_inputs, test_labels, train_inputs, train_labels)``: the
    reader's function is called as ``train(*train_args)``, its ``predict(*inputs)`` must return one
    class id per example. ``threshold`` is the held-out accuracy to reach; ``timeout`` the seconds
    the training may take.
    """

    signature: str
    returns: str
    data: Callable[[], tuple[tuple[Any, ...], tuple[Any, ...], Any, tuple[Any, ...], Any]]
    threshold: float
    timeout: float = 120.0

    def __post_init__(self) -> None:
        if not 0 < self.threshold <= 1:
            raise ValueError(f"threshold must be an accuracy in (0, 1], got {self.threshold!r}")


#: The outcomes of a reader's training run that a :class:`Mistake` can name: every prediction the same
#: class, or right on the training examples but not on the held-out ones.
OUTCOMES: tuple[str, ...] = ("one-class", "memorised")

Answer = Numeric | Choice | FindError | Code | Trained


@dataclass
class Exercise:
    """One exercise. ``id`` is "CC.N" (chapter, number); ``section`` is where its topic is explained."""

    id: str
    kind: str  # one of KINDS
    skill: str
    prompt: str
    answer: Numeric | Choice | FindError | Code | Trained
    mistakes: list[Mistake]
    hint: str
    section: Section
    why: str = ""  # one line shown with "Correct."

    def __post_init__(self) -> None:
        if not re.fullmatch(r"\d\d\.\d+", self.id):
            raise ValueError(f"exercise id must look like '07.2', got {self.id!r}")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        expected = {"predict": (Numeric, Choice), "compute": (Numeric, Choice), "code": (Code, Trained),
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
