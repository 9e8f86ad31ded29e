"""Arrows point one way: chapters → attnbook (the book's tooling) → widgets → viz → core.

Importing attnlib and its core modules must not pull in matplotlib, seaborn, ipywidgets or anywidget,
and no module of attnlib may import attnbook.
"""

from __future__ import annotations

import ast
import subprocess
import sys

from tests._project import ROOT

CORE = ["attnlib", "attnlib.softmax", "attnlib.attention", "attnlib.attention_np", "attnlib.masks",
        "attnlib.modules", "attnlib.chunked", "attnlib.scratch", "attnlib.scaling", "attnlib.examples",
        "attnlib.text", "attnlib.heads", "attnlib.cost", "attnlib._checks", "attnlib.recurrence"]
FORBIDDEN = ["matplotlib", "seaborn", "ipywidgets", "anywidget"]


def _imported_modules(path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_core_imports_no_plotting_or_widgets() -> None:
    code = (
        "import importlib, sys\n"
        f"for m in {CORE!r}: importlib.import_module(m)\n"
        f"bad = sorted({{m.split('.')[0] for m in sys.modules}} & set({FORBIDDEN!r}) | "
        "({m.split('.')[0] for m in sys.modules} & {'attnbook'}))\n"
        "print(','.join(bad))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "", f"core modules import {res.stdout.strip()}"


def test_viz_does_import_matplotlib() -> None:
    # the check above could pass vacuously if nothing were importable; the viz layer must see matplotlib
    res = subprocess.run([sys.executable, "-c", "import attnlib.plots, sys; print('matplotlib' in sys.modules)"],
                         capture_output=True, text=True, timeout=120)
    assert res.stdout.strip() == "True", res.stderr


def test_attnlib_never_imports_attnbook() -> None:
    offenders = {}
    for path in sorted((ROOT / "attnlib").rglob("*.py")):
        bad = {m for m in _imported_modules(path) if m.split(".")[0] == "attnbook"}
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert not offenders, f"attnlib must not import the book's tooling: {offenders}"


def test_attnbook_imports_attnlib() -> None:
    # the tooling sits on top of the library; the scan above could pass vacuously if the packages
    # were unrelated
    imports = set().union(*(_imported_modules(p) for p in (ROOT / "attnbook").rglob("*.py")))
    assert any(m.split(".")[0] == "attnlib" for m in imports), sorted(imports)

