"""Every exercise of the book, loaded once from the chapters' data and modules (``_load``): the
registry ``EXERCISES`` (id -> :class:`~attnbook.exercises.Exercise`) and :func:`by_chapter`.

Used by: ``_diagnose`` (the verdicts), ``_page`` (the chapters' exercise sets, the catalogue) and the
package's ``__init__``.
"""

from __future__ import annotations

from ._load import chapter_modules, exercises_of
from ._types import Exercise

_MODULES = chapter_modules()  # every <slug>.py of this package, in reading order
EXERCISES: dict[str, Exercise] = {ex.id: ex for mod in _MODULES for ex in exercises_of(mod)}


def by_chapter(chapter: str) -> list[Exercise]:
    """The exercises of one chapter ("07"), in order."""
    return [ex for ex in EXERCISES.values() if ex.chapter == chapter]
