"""Arrows point one way: chapters → attnbook (the book's tooling) → widgets → viz → core.

Importing attnlib and its core modules must not pull in matplotlib, seaborn, ipywidgets or anywidget,
and no module of attnlib may import attnbook.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests._project import ROOT, pyproject_toml

#: Every module of attnlib except the viz layer (plots, style) and the widgets is core: derived from
#: the tree, so a new module is guarded the day it is added.
NOT_CORE = {"plots", "style"}
CORE = ["attnlib"] + [f"attnlib.{p.stem}" for p in sorted((ROOT / "attnlib").glob("*.py"))
                      if p.stem != "__init__" and p.stem not in NOT_CORE]
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


@pytest.fixture(scope="module")
def imported() -> dict[str, list[str]]:
    """What a fresh interpreter holds in ``sys.modules`` after importing every core module (``"core"``),
    and then attnlib's viz layer too (``"viz"``): one subprocess for the three checks below."""
    code = (
        "import importlib, json, sys\n"
        f"for m in {CORE!r}: importlib.import_module(m)\n"
        "core = sorted(sys.modules)\n"
        "import attnlib.plots\n"
        "print(json.dumps({'core': core, 'viz': sorted(sys.modules)}))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_core_imports_no_plotting_or_widgets(imported: dict[str, list[str]]) -> None:
    top = {m.split(".")[0] for m in imported["core"]}
    bad = sorted(top & (set(FORBIDDEN) | {"attnbook"}))
    assert not bad, f"core modules import {bad}"


COMPANIONS = [f"attnlib.companions.{p.stem}" for p in sorted((ROOT / "attnlib" / "companions").glob("*.py"))
              if p.stem != "__init__"]


def test_the_core_never_imports_the_companions(imported: dict[str, list[str]]) -> None:
    """The reusable core stands alone: importing every core module loads no chapter companion, and no
    core file names one."""
    companions = [m for m in imported["core"] if m.startswith("attnlib.companions")]
    assert not companions, f"core modules import companions: {companions}"
    for path in sorted((ROOT / "attnlib").glob("*.py")):
        if path.stem in NOT_CORE:  # the viz layer may use the companions' array check (companions.checks)
            continue
        text = path.read_text(encoding="utf-8")
        assert "companions" not in "".join(line for line in text.splitlines(True)
                                           if line.lstrip().startswith(("import ", "from "))), path.name


def test_the_companions_build_on_the_core() -> None:
    # the check above could pass vacuously if the companions were empty or did not use the core
    assert {"attnlib.companions.examples", "attnlib.companions.learning", "attnlib.companions.lm"} <= set(COMPANIONS)
    from_core = set()
    for path in (ROOT / "attnlib" / "companions").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
                from_core.add(f"attnlib.{node.module}")
    assert {"attnlib.modules", "attnlib.transformer", "attnlib.softmax"} <= from_core <= set(CORE), from_core


def test_viz_does_import_matplotlib(imported: dict[str, list[str]]) -> None:
    # the checks above could pass vacuously if nothing were importable; the viz layer must see
    # matplotlib, in the same interpreter that just found the core without it
    assert "matplotlib" in imported["viz"] and "attnlib.softmax" in imported["core"]


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



# Where the repository's own Python lives (not the venv, node_modules or the build).
_SKIP = {".venv", "node_modules", "_build", ".git", ".pytest_cache", ".ruff_cache", ".hypothesis"}


@functools.cache
def _project_python() -> list:
    """Every .py file of the repository outside :data:`_SKIP` (which is never walked into)."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in _SKIP]
        found += [Path(folder) / f for f in files if f.endswith(".py")]
    return sorted(found)


def _imports_with_names(path) -> set[str]:
    """Every module a file imports, relative ones included (``from .x import y`` gives ``x`` and
    ``x.y``; ``from . import y`` gives ``y``), so that an import of a test module by any spelling shows."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}".lstrip(".") for alias in node.names)
    return {m for m in found if m}


def test_nothing_outside_tests_imports_a_test_module() -> None:
    """Benchmarks, tools, the site extension and the dev helpers (bookdev) share code through
    bookdev or the packages, never through tests/."""
    offenders = {}
    for path in _project_python():
        rel = path.relative_to(ROOT)
        if rel.parts[0] == "tests":
            continue
        bad = sorted(m for m in _imports_with_names(path) if m.split(".")[0] == "tests")
        if bad:
            offenders[rel.as_posix()] = bad
    assert not offenders, f"only tests/ may import test modules: {offenders}"


def test_no_test_file_imports_another_test_file() -> None:
    """Shared test code lives in helper modules (tests/strategies.py, tests/_project.py,
    tests/_minibook.py) or in bookdev, not in another test_*.py."""
    offenders = {}
    for path in _project_python():
        bad = sorted(m for m in _imports_with_names(path) if m.split(".")[-1].startswith("test_"))
        if bad:
            offenders[path.relative_to(ROOT).as_posix()] = bad
    assert not offenders, f"test files imported as helper modules: {offenders}"


def test_the_import_scans_see_imports() -> None:
    # the two scans above could pass vacuously: they must see this very file's imports, and a
    # relative import of a helper module
    assert {"ast", "subprocess", "tests._project"} <= _imports_with_names(ROOT / "tests" / "build" / "test_layering.py")
    assert "strategies.random_qkv" in _imports_with_names(ROOT / "tests" / "lib" / "test_attention.py")
    assert ROOT / "benchmarks" / "bench_widgets.py" in _project_python()


def test_readers_packages_do_not_ship_or_import_the_dev_helpers() -> None:
    """bookdev is for tests and benchmarks: attnlib and attnbook never import it, and the
    distribution readers install (Colab, Binder) packages only attnlib and attnbook."""
    for package in ("attnlib", "attnbook"):
        for path in (ROOT / package).rglob("*.py"):
            bad = {m for m in _imports_with_names(path) if m.split(".")[0] == "bookdev"}
            assert not bad, f"{path.relative_to(ROOT)} imports the dev helpers {bad}"
    include = pyproject_toml()["tool"]["setuptools"]["packages"]["find"]["include"]
    assert include and all(pattern.split("*")[0] in ("attnlib", "attnbook") for pattern in include), include


def test_no_site_extension_shadows_a_package() -> None:
    """Jupyter Book puts _ext/ first on sys.path for its local extensions: an _ext/attnbook.py would
    hide the attnbook package from autodoc (the API page) and from every chapter built with it."""
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert {"attnlib", "attnbook", "bookdev"} <= packages, packages
    clashes = sorted(p.name for p in (ROOT / "_ext").iterdir() if p.stem in packages)
    assert not clashes, f"_ext/ modules named like a package: {clashes}"


def test_the_core_list_is_derived_from_the_tree() -> None:
    assert {"attnlib.decoding", "attnlib.generation", "attnlib.transformer", "attnlib._validate",
            "attnlib.softmax"} <= set(CORE)
    assert not any(m.startswith("attnlib.companions") for m in CORE)
    assert not any(m.startswith(("attnlib.plots", "attnlib.style", "attnlib.widgets")) for m in CORE)
    assert len(CORE) == 1 + len([p for p in (ROOT / "attnlib").glob("*.py") if p.stem != "__init__"]) - len(NOT_CORE)


def _private_attnlib_imports(modules: set[str]) -> list[str]:
    """The imported names that reach into a private module of attnlib (a part after ``attnlib`` that
    starts with ``_``): ``attnlib._validate``, ``attnlib._validate.require_finite``."""
    bad = []
    for m in modules:
        parts = m.split(".")
        if parts[0] == "attnlib" and len(parts) > 1 and parts[1].startswith("_") and parts[1] != "__version__":
            bad.append(m)
    return sorted(bad)


def test_nothing_outside_attnlib_and_its_tests_imports_a_private_attnlib_module() -> None:
    """attnbook, the chapters, the benchmarks, tools, bookdev and _ext use attnlib's public modules only:
    a private module (``attnlib._validate``) may change without notice."""
    offenders = {}
    for path in _project_python():
        rel = path.relative_to(ROOT)
        if rel.parts[0] in ("attnlib", "tests"):
            continue
        bad = _private_attnlib_imports(_imports_with_names(path))
        if bad:
            offenders[rel.as_posix()] = bad
    for nb in sorted((ROOT / "book").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        lines = [ln for ln in code.splitlines() if ln.lstrip().startswith(("import ", "from "))]
        bad = _private_attnlib_imports(_imports_with_names_of("\n".join(ln.strip() for ln in lines)))
        if bad:
            offenders[nb.name] = bad
    assert not offenders, f"private attnlib modules imported outside attnlib: {offenders}"
    # the scan sees such an import
    assert _private_attnlib_imports(_imports_with_names_of("from attnlib._validate import require_finite")) == [
        "attnlib._validate", "attnlib._validate.require_finite"]


def _imports_with_names_of(source: str) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found
