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


def chapters_with_exercises() -> str:
    """Which chapters have exercises, as a reader reads it: "01 to 09 and 11 to 20"."""
    numbers = sorted({int(ex.chapter) for ex in EXERCISES.values()})
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [f"{r[0]:02d}" if len(r) == 1 else f"{r[0]:02d} to {r[-1]:02d}" for r in runs]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
