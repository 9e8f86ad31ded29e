"""Site tweaks for the book's Sphinx build (registered in _config.yml as a local extension)."""

from __future__ import annotations

from typing import Any


def _dedupe_scripts(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    """sphinx-thebe registers its inline config script on every `env-before-read-docs` event, which
    fires more than once per Jupyter Book build; the second copy re-declares a `const` and throws a
    page error. Keep the first copy of each script."""
    scripts = context.get("script_files")
    if not scripts:
        return
    seen: set[tuple[str, str]] = set()
    unique = []
    for js in scripts:
        key = (str(js.filename or ""), str(js.attributes.get("body", "")))  # None and "" both mean inline
        if key in seen:
            continue
        seen.add(key)
        unique.append(js)
    scripts[:] = unique


def setup(app: Any) -> dict[str, Any]:
    app.connect("html-page-context", _dedupe_scripts, priority=100)  # html-page-context stops at the first handler that returns a value: run early
    return {"parallel_read_safe": True, "parallel_write_safe": True}
