"""``show_source``: show the real code of an attnlib function on the page, read from the library itself.

The chapters import attnlib and never paste its code; where the code is the lesson, a chapter shows it
with ``show_source(fn)``. The text comes from ``inspect.getsource`` on the installed library, so what the
page shows is the one copy that runs. The result displays as:

- ``text/markdown``: a title line and a highlighted ``python`` code block (Jupyter, Colab, the site and
  the PDF render it);
- ``text/plain``: the same title and the plain source (a terminal, and what the book's checks compare:
  a change to the function changes the stored output of the cell that shows it).

Each block is held to ``max_lines`` lines (30 by default): a longer function should be split into
named steps rather than shown as a wall.

Used in every chapter whose subject is a function or a loop (``git grep show_source book/`` lists them).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

MAX_LINES = 30


@dataclass(frozen=True)
class Source:
    """The source of one or more functions or classes, ready to display (see the module docstring)."""

    blocks: tuple[tuple[str, str], ...]  # (qualified name, dedented source)

    def _repr_markdown_(self) -> str:
        parts = []
        for name, code in self.blocks:
            fence = "`" * max(3, 1 + max((len(r) for r in _backtick_runs(code)), default=0))
            parts.append(f"`{name}`\n\n{fence}python\n{code}\n{fence}")
        return "\n\n".join(parts)

    def __repr__(self) -> str:
        return "\n\n".join(f"# {name}\n{code}" for name, code in self.blocks)

    @property
    def lines(self) -> int:
        """Lines of code shown, all blocks together."""
        return sum(code.count("\n") + 1 for _, code in self.blocks)


def _backtick_runs(text: str) -> list[str]:
    runs, cur = [], ""
    for ch in text:
        if ch == "`":
            cur += ch
        elif cur:
            runs.append(cur)
            cur = ""
    return runs + ([cur] if cur else [])


def _without_docstring(code: str) -> str:
    """``code`` (one dedented def or class) without the docstring of that def or class."""
    node = ast.parse(code).body[0]
    body = getattr(node, "body", [])
    first = body[0] if body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
        return code
    lines = code.splitlines()
    return "\n".join(lines[: first.lineno - 1] + lines[first.end_lineno:])


def _name(obj: Callable) -> str:
    module = getattr(obj, "__module__", None) or "?"
    return f"{module}.{obj.__qualname__}"


def show_source(*objs: Callable, docstring: bool = True, max_lines: int = MAX_LINES) -> Source:
    """The source of each function, method or class in ``objs``, for display in a chapter.

    ``docstring=False`` leaves out each docstring (the code alone). Raises ``TypeError`` for anything
    without Python source (a number, a builtin, an instance) and ``ValueError`` when nothing is given
    or a block is longer than ``max_lines`` lines. Used in: "From scratch in NumPy", "Decoding",
    "Attention that learns", "Attention we can check".
    """
    if not objs:
        raise ValueError("show_source() needs at least one function or class to show")
    if isinstance(max_lines, bool) or not isinstance(max_lines, int) or max_lines < 1:
        raise ValueError(f"max_lines must be a positive int, got {max_lines!r}")
    if not isinstance(docstring, bool):
        raise TypeError(f"docstring must be a bool, got {type(docstring).__name__}")
    blocks = []
    for obj in objs:
        if not (inspect.isfunction(obj) or inspect.isclass(obj) or inspect.ismethod(obj)):
            raise TypeError(f"show_source() shows functions, methods and classes, got {type(obj).__name__}: {obj!r:.60}")
        code = textwrap.dedent(inspect.getsource(obj)).rstrip("\n")
        if not docstring:
            code = _without_docstring(code)
        n = code.count("\n") + 1
        if n > max_lines:
            raise ValueError(f"{_name(obj)} has {n} lines, more than max_lines={max_lines}: "
                             "split it into named steps, or show it without its docstring")
        blocks.append((_name(obj), code))
    return Source(tuple(blocks))
