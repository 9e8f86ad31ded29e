"""Exercises that name the reader's mistake, in a kernel and on the static page.

In a chapter: ``check("07.2", answer)`` prints *correct*, the misconception the answer shows (with
a one-line hint and the section that explains it), or *not yet* with a hint. ``diagnose`` returns
the same as a :class:`Verdict`. ``show("07")`` displays a chapter's exercises; on the static page
they are answered in the page itself (``exercise.js`` runs the same rule on the data of
:func:`export`). Each chapter's exercises are text in ``data/chNN.yml`` and computations in
``chNN.py`` (``_load`` puts the two together).

Used in: the "Exercises" section of chapters 01-14 and 16-18, and the "Exercises" page.
"""

from __future__ import annotations

from . import (
    ch01,
    ch02,
    ch03,
    ch04,
    ch05,
    ch06,
    ch07,
    ch08,
    ch09,
    ch10,
    ch11,
    ch12,
    ch13,
    ch14,
    ch16,
    ch17,
    ch18,
)
from ._core import (
    KIND_LABELS,
    Choice,
    Code,
    Exercise,
    FindError,
    Misconception,
    Mistake,
    Numeric,
    Section,
    Verdict,
    check,
    diagnose,
)
from ._load import exercises_of
from ._page import Catalogue, ExerciseSet, catalogue, export, show

_MODULES = (ch01, ch02, ch03, ch04, ch05, ch06, ch07, ch08, ch09, ch10, ch11, ch12, ch13, ch14, ch16, ch17, ch18)
EXERCISES: dict[str, Exercise] = {ex.id: ex for mod in _MODULES for ex in exercises_of(mod)}


# The types are documented here, where readers import them from (the API reference links to them).
for _cls in (Catalogue, Choice, Code, Exercise, ExerciseSet, FindError, Misconception, Mistake, Numeric, Section,
             Verdict):
    _cls.__module__ = __name__


def by_chapter(chapter: str) -> list[Exercise]:
    """The exercises of one chapter ("07"), in order."""
    return [ex for ex in EXERCISES.values() if ex.chapter == chapter]


__all__ = ["EXERCISES", "KIND_LABELS", "Catalogue", "Choice", "Code", "Exercise", "ExerciseSet", "FindError", "Misconception", "Mistake",
           "Numeric", "Section", "Verdict", "by_chapter", "catalogue", "check", "diagnose", "export", "show"]
