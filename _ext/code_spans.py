"""Lighter code blocks: in a highlighted code block, neighbouring Pygments spans that look the same
in both themes become one span. A name, the punctuation after it and the spaces between are all the
text colour in both of the theme's styles, so ``foo(a, b)`` is one span instead of six. The page
draws the same and copies the same text; the reader's browser (and the browser tests: layout, axe's
grid of every box) has about 30 % fewer elements on a chapter (chapter 17: 8,040 to 5,443).

Two spans join when their classes have the same declarations in the light and in the dark theme of
``_static/pygments.css``, which the theme writes when the build finishes; this runs after it, on
every HTML page of the build. Spaces and line breaks between two such spans join them too (they have
no ink). Generic tokens (prompts, output, inserted and deleted lines: ``g*``), error tokens and
highlighted lines keep their spans, as does anything that is not a plain token span. Running it again
changes nothing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sphinx.util import logging

# A rule of the theme's pygments.css: html[data-theme="light"] .highlight .n { color: #080808 }
_RULE = re.compile(r'html\[data-theme="(light|dark)"\] \.highlight \.(\w+) \{([^}]*)\}')
# A highlighted block as Sphinx writes it, and the pieces of its text: a token span, text, a tag.
_BLOCK = re.compile(r'(<div class="highlight"><pre>)(.*?)(</pre>)', re.S)
_PIECE = re.compile(r'<span class="(\w+)">([^<]*)</span>|([^<]+)|(<[^>]*>)')
# Classes that keep their own spans: Generic.* (basic.css makes prompts unselectable), errors, and
# the background of highlighted lines.
_KEEP = re.compile(r"g\w*|err|hll")

logger = logging.getLogger(__name__)


def looks(css: str) -> dict[str, tuple[str, str]]:
    """Each token class styled in both themes of ``css`` (pygments.css): ``(light, dark)`` declarations."""
    found: dict[str, dict[str, str]] = {}
    for theme, cls, declarations in _RULE.findall(css):
        found.setdefault(cls, {})[theme] = " ".join(declarations.split())
    return {cls: (d["light"], d["dark"]) for cls, d in found.items()
            if d.get("light") and d.get("dark") and not _KEEP.fullmatch(cls)}


def merge_block(html: str, look: dict[str, tuple[str, str]]) -> str:
    """The inside of one ``<pre>`` with its same-looking neighbouring token spans joined."""
    out: list[Any] = []  # [class, text] for a token span that may grow, or a piece kept as it is
    for m in _PIECE.finditer(html):
        cls, text = m.group(1), m.group(2)
        if cls in look:
            gap = ""  # spaces or line breaks since the last token span
            if len(out) > 1 and isinstance(out[-1], str) and not out[-1].strip() and isinstance(out[-2], list):
                gap, last = out[-1], out[-2]
            else:
                last = out[-1] if out else None
            if isinstance(last, list) and look[last[0]] == look[cls]:
                if gap:
                    out.pop()
                if not last[1].strip():
                    last[0] = cls  # the class of the first word, not of the spaces before it
                last[1] += gap + text
                continue
            out.append([cls, text])
        else:
            out.append(m.group(0))
    return "".join(f'<span class="{p[0]}">{p[1]}</span>' if isinstance(p, list) else p for p in out)


def merge_page(html: str, look: dict[str, tuple[str, str]]) -> str:
    """A whole page with every highlighted block's spans joined (:func:`merge_block`)."""
    return _BLOCK.sub(lambda m: m.group(1) + merge_block(m.group(2), look) + m.group(3), html)


def merge_site(out: Path) -> tuple[int, int]:
    """Join the spans of every page under ``out``; ``(pages changed, spans before minus after)``."""
    css = out / "_static" / "pygments.css"
    if not css.is_file():
        return 0, 0
    look = looks(css.read_text(encoding="utf-8"))
    pages = joined = 0
    for page in out.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        merged = merge_page(html, look)
        if merged != html:
            page.write_text(merged, encoding="utf-8")
            pages += 1
            joined += html.count("<span") - merged.count("<span")
    return pages, joined


def _build_finished(app: Any, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        pages, joined = merge_site(Path(app.outdir))
        logger.info(f"[code_spans] {joined} code spans joined on {pages} pages")


def setup(app: Any) -> dict[str, Any]:
    # after the theme writes _static/pygments.css (pydata-sphinx-theme, at the default priority 500)
    app.connect("build-finished", _build_finished, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
