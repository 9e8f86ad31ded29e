"""The theme fixes of _ext/theme_fixes.py: CSS that keeps long code inside a phone's screen (checked
in the browser by tests/browser/test_pages.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _theme_fixes():
    spec = importlib.util.spec_from_file_location("theme_fixes", ROOT / "_ext" / "theme_fixes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_css_is_shipped_and_lets_inline_code_wrap() -> None:
    fixes = _theme_fixes()
    css = (fixes.STATIC / fixes.CSS).read_text(encoding="utf-8")
    assert "span.pre" in css and "overflow-wrap: anywhere" in css
