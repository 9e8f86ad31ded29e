"""Arrows point one way: chapters → widgets → viz → core. Importing attnlib and its core modules
must not pull in matplotlib, seaborn, ipywidgets or anywidget."""

from __future__ import annotations

import subprocess
import sys

CORE = ["attnlib", "attnlib.softmax", "attnlib.attention", "attnlib.attention_np", "attnlib.masks",
        "attnlib.modules", "attnlib.chunked", "attnlib.scratch", "attnlib.scaling", "attnlib.examples",
        "attnlib.text", "attnlib.errata", "attnlib.heads", "attnlib.cost", "attnlib.compare"]
FORBIDDEN = ["matplotlib", "seaborn", "ipywidgets", "anywidget"]


def test_core_imports_no_plotting_or_widgets() -> None:
    code = (
        "import importlib, sys\n"
        f"for m in {CORE!r}: importlib.import_module(m)\n"
        f"bad = sorted({{m.split('.')[0] for m in sys.modules}} & set({FORBIDDEN!r}))\n"
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
