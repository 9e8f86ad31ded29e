"""Site tweaks for the book's Sphinx build (registered in _config.yml as a local extension)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

# `//# sourceMappingURL=x.map` (JS) and `/*# sourceMappingURL=x.map */` (CSS), on a line of its own.
_SOURCE_MAP_COMMENT = re.compile(rb"\n?(?://|/\*)# sourceMappingURL=[^\n]*?\.map(?: ?\*/)?[ \t]*(?=\n|$)")


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


def drop_source_maps(outdir: Path) -> list[Path]:
    """Delete the ``*.map`` files of the built site and the comments that point at them.

    The themes ship source maps (about half of the site's bytes) that only a browser's developer
    tools ever fetch. Returns the deleted files. Called when the HTML build finishes.
    """
    removed = []
    for path in sorted(outdir.rglob("*.map")):
        path.unlink()
        removed.append(path)
    for path in [*outdir.rglob("*.js"), *outdir.rglob("*.css")]:
        data = path.read_bytes()
        if b"sourceMappingURL=" in data:
            path.write_bytes(_SOURCE_MAP_COMMENT.sub(b"", data))
    return removed


def _build_finished(app: Any, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        drop_source_maps(Path(app.outdir))


def setup(app: Any) -> dict[str, Any]:
    app.connect("build-finished", _build_finished)
    app.connect("html-page-context", _dedupe_scripts, priority=100)  # html-page-context stops at the first handler that returns a value: run early
    return {"parallel_read_safe": True, "parallel_write_safe": True}
