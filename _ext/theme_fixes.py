"""Fixes to the theme's pages for the book's Sphinx build (a local extension named in _config.yml).

- ``_dedupe_scripts``: drop doubled inline scripts (sphinx-thebe registers its config twice).
- ``_default_mode``: a valid light/dark mode on a reader's first visit.
- ``static/live_code.js`` (every page): when "Live Code" gets no kernel from mybinder.org within a
  time limit, the page says so, points at the Binder and Colab buttons and gives the code cells back
  as they were; thebe's request for require.js (once a kernel connects) goes to the site's copy.
- ``static/math_focus.js`` (every page): a formula a little too wide for its line (a phone is 390 px)
  is drawn up to a fifth smaller so that it fits; a wider one scrolls, fades out where more of it
  lies, and is focusable, so that the keyboard can scroll it (MathJax's menu, no longer loaded,
  used to make display formulas focusable).
- ``static/figure_zoom.js`` (every page): a figure drawn smaller than its own size (a wide figure
  on a phone) opens at full size in a dialog that pans, on a tap or by its button (keyboard too).
- ``static/theme_fixes.css`` (linked into every page): long inline code and API signatures wrap
  inside the text column instead of widening the page on a phone (390 px); the Exercises page's
  table becomes one block per exercise there; the fade of a formula that scrolls; the figure dialog;
  in the dark theme, no pale panel around a widget card or an exercise card (the theme paints one
  behind every widget and HTML output); a formula and its punctuation on one line.

- ``_math_with_punctuation``: an inline formula and the punctuation that touches it (the comma after
  √dₖ, an opening parenthesis before it) are kept on one line; a browser may otherwise break
  the line between a formula (an atomic box) and the comma after it, which then starts a line.

The theme's template overrides live in ``_templates/`` (accessibility fixes, and the home page's
browser title written once, not "Attention, step by step — Attention, step by step"). The
front-end assets the site serves itself are the business of the ``site_assets`` package.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parent / "static"
CSS = "theme_fixes.css"
LIVE_CODE = "live_code.js"
MATH_FOCUS = "math_focus.js"
FIGURE_ZOOM = "figure_zoom.js"


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


#: An inline formula as Sphinx writes it, with the punctuation that touches it on either side.
_MATH_JOIN = re.compile(r'([(\[“‘]?)(<span class="math notranslate nohighlight">[^<]*</span>)([,.;:!?)\]”’…]*)')


def _join(m: re.Match[str]) -> str:
    before, math, after = m.groups()
    return m.group(0) if not (before or after) else f'<span class="attnbook-nobr">{before}{math}{after}</span>'


def _math_with_punctuation(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    """Wrap each inline formula with the punctuation that touches it in a span that does not break
    (theme_fixes.css: ``.attnbook-nobr``), so that no line starts with the comma after a formula."""
    body = context.get("body")
    if isinstance(body, str) and "math notranslate" in body:
        context["body"] = _MATH_JOIN.sub(_join, body)


def _default_mode(app: Any, config: Any) -> None:
    """pydata-sphinx-theme writes ``localStorage.mode || default_mode`` into the page and logs a console
    error ("Got invalid theme mode") when both are empty, i.e. on a reader's first visit. Default to
    "auto" (follow the system's light/dark setting), unless the config chose a mode."""
    config.html_context.setdefault("default_mode", "auto")


def _static_path(app: Any, config: Any) -> None:
    """Serve ``static/`` (this folder's CSS) from ``_static`` without a source-level ``_static`` folder
    (Jupyter Book links every file of those into every page)."""
    if str(STATIC) not in [str(p) for p in config.html_static_path]:
        config.html_static_path.append(str(STATIC))


def setup(app: Any) -> dict[str, Any]:
    app.connect("config-inited", _default_mode)
    app.connect("config-inited", _static_path)
    app.add_css_file(CSS)
    app.add_js_file(LIVE_CODE, **{"defer": "defer"})
    app.add_js_file(MATH_FOCUS, **{"defer": "defer"})
    app.add_js_file(FIGURE_ZOOM, **{"defer": "defer"})
    # html-page-context stops at the first handler that returns a value: run early
    app.connect("html-page-context", _dedupe_scripts, priority=100)
    app.connect("html-page-context", _math_with_punctuation, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
