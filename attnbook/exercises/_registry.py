"""What a chapter's exercise text may name: its functions and the values its prompts show.

The text of the exercises of a chapter is data, in ``data/<slug>.yml`` (the slug is the notebook's stem); the computations stay in
Python, in ``<slug>.py``, registered on the chapter's :class:`ChapterCode`: ``@code.function`` for an
answer, a wrong answer, a wrong implementation, a reference or a case generator (the YAML names it),
(or :meth:`ChapterCode.add` for several one-line ones), and :meth:`ChapterCode.values` for the numbers the text shows through ``{name}`` fields. As with the
errata (``attnbook.derivations``), ``tests/book/test_exercise_data.py`` fails on a name with no function and on
a function or value that no exercise names. Used by: ``attnbook.exercises._load``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ._format import fmt

F = TypeVar("F", bound=Callable[..., Any])


class Numbers:
    """A number, vector or matrix for a prompt: ``{name:.2f}`` rounds every entry to 2 decimals and
    shows a vector in brackets, as :func:`~attnbook.exercises._format.fmt` does."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return fmt(self.value, self._digits(spec))

    @staticmethod
    def _digits(spec: str) -> int:
        if not spec:
            return 3
        if not (spec.startswith(".") and spec.endswith("f") and spec[1:-1].isdigit()):
            raise ValueError(f"a Numbers field takes a format like '.3f', got {spec!r}")
        return int(spec[1:-1])


class Rows(Numbers):
    """The rows of a matrix for a prompt, each as :class:`Numbers` shows a vector, separated by commas:
    ``{rows:.1f}`` gives ``[1.0, 0.0], [0.5, 2.0]``."""

    def __format__(self, spec: str) -> str:
        return ", ".join(fmt(row, self._digits(spec)) for row in self.value)


class ChapterCode:
    """The registry of one chapter's exercise code: named functions and named prompt values."""

    def __init__(self, module_name: str) -> None:
        slug = module_name.rpartition(".")[2] if isinstance(module_name, str) else ""
        if not (len(slug) > 3 and slug[:2].isdigit() and slug[2] == "_"):
            raise ValueError(f"ChapterCode(__name__) needs a chapter module named like '07_i_am_happy', got {module_name!r}")
        self.slug = slug  # the chapter's key, as in book/<slug>.ipynb and data/<slug>.yml
        self.chapter = slug[:2]  # "07", the first part of the exercise ids "07.N"
        self.functions: dict[str, Callable[..., Any]] = {}
        self.prompt_values: dict[str, Any] = {}

    def function(self, fn: F, name: str | None = None) -> F:
        """Register ``fn`` under ``name`` (its own name by default); usable as a decorator."""
        if not callable(fn):
            raise TypeError(f"chapter {self.chapter}: function() needs a callable, got {type(fn).__name__}")
        key = name or fn.__name__
        if key in self.functions:
            raise ValueError(f"chapter {self.chapter}: two functions named {key!r}")
        self.functions[key] = fn
        return fn

    def add(self, **named: Callable[..., Any]) -> None:
        """Register several small functions at once, each under its keyword (a one-line answer or
        wrong answer: ``code.add(ex1_answer=lambda: SCALED[1], ex1_missing_scale=lambda: S[1])``)."""
        for key, fn in named.items():
            self.function(fn, name=key)

    def values(self, **named: Any) -> None:
        """Register the values the text shows as ``{name}`` (or ``{name:.3f}``) fields."""
        for key, value in named.items():
            if key in self.prompt_values:
                raise ValueError(f"chapter {self.chapter}: two values named {key!r}")
            self.prompt_values[key] = value

    def named(self, name: Any, where: str) -> Callable[..., Any]:
        """The function the YAML calls ``name`` (``where`` says which field, for the error)."""
        if not isinstance(name, str) or name not in self.functions:
            raise KeyError(f"{where}: no function {name!r} is registered in attnbook.exercises.{self.slug} "
                           f"(registered: {', '.join(sorted(self.functions)) or 'none'})")
        return self.functions[name]
