"""Exercises that name the reader's mistake, in a kernel and on the static page.

In a chapter: ``check("07.2", answer)`` prints *correct*, the misconception the answer shows (with
a one-line hint and the section that explains it), or *not yet* with a hint. ``diagnose`` returns
the same as a :class:`Verdict`. ``show("07")`` displays a chapter's exercises; on the static page
they are answered in the page itself (``exercise.js`` runs the same rule on the data of
:func:`export`). Each chapter's exercises are text in ``data/<slug>.yml`` and computations in
``<slug>.py``, where the slug is the notebook's stem (``07_i_am_happy``); ``_load`` finds every
chapter module and puts the two together.

Used in: the "Exercises" section of the chapters, and the "Exercises" page.
"""

from __future__ import annotations

from ._catalog import EXERCISES, by_chapter, chapters_with_exercises
from ._diagnose import check, diagnose
from ._page import Catalogue, ExerciseSet, catalogue, export, show
from ._types import (
    KIND_LABELS,
    Choice,
    Code,
    Exercise,
    FindError,
    Misconception,
    Mistake,
    Numeric,
    Section,
    Trained,
    Verdict,
)

__all__ = ["EXERCISES", "KIND_LABELS", "Catalogue", "Choice", "Code", "Exercise", "ExerciseSet", "FindError", "Misconception", "Mistake",
           "Numeric", "Section", "Trained", "Verdict", "by_chapter", "catalogue", "chapters_with_exercises", "check", "diagnose", "export", "show"]
