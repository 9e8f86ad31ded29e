"""``glue``: put a value computed in a chapter into its prose, wherever the chapter runs.

In the book's build, Jupyter Book's ``myst_nb.glue`` stores the value so that ``{glue}`role`` in
the markdown shows it. A reader who runs a chapter on Binder or Colab has no myst-nb, and does not
need it: there the value is simply displayed (or, with ``display=False``, nothing happens). A chapter
therefore imports ``glue`` from here and runs in every environment the book supports.

Used in: every chapter that glues a number into its prose (first: "Queries, keys and values").
"""

from __future__ import annotations

from typing import Any

from IPython.display import display as _display  # IPython comes with every Jupyter kernel

try:  # optional: only the book's own build environment has myst-nb
    from myst_nb import glue as _myst_glue
except ModuleNotFoundError:
    _myst_glue = None


def glue(name: str, value: Any, display: bool = True) -> None:
    """Store ``value`` under ``name`` for ``{glue}`name``` in the page; display it if ``display``."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"glue name must be a non-empty string, got {name!r}")
    if _myst_glue is not None:
        _myst_glue(name, value, display=display)
    elif display:
        _display(value)
