"""The derivations behind the errata rows: one named, typed function per row of ``book/_data/errata``.

One module per YAML file, with the file's name (``07_i_am_happy.py`` for ``07_i_am_happy.yml``,
``audit_004.py`` for ``audit_004.yml``); every module of this package is imported here, so a new
chapter's module is found by its name alone. A function is registered under its row id with
``@derives("row-id")``; the row's ``id`` names it, and ``tests/book/test_errata.py`` fails on a row with no
function and on a function with no row. Used by: "Errata" and "Number audit".
"""

from __future__ import annotations

import importlib
from pathlib import Path

from ._registry import DERIVATIONS, Value, derives, plain

#: The row modules, in file order (chapters in reading order, then the documents' audit rows).
MODULES = [importlib.import_module(f"{__name__}.{p.stem}")  # importing a module registers its derivations
           for p in sorted(Path(__file__).parent.glob("*.py")) if not p.stem.startswith("_")]

__all__ = ["DERIVATIONS", "MODULES", "Value", "derives", "plain"]
