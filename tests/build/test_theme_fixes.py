"""The fixes to the theme's pages in _ext/: CSS that keeps long code inside a phone's screen
(theme_fixes.py; checked in the browser by tests/browser/test_pages.py), and code blocks whose
same-looking neighbouring tokens share one span (code_spans.py)."""

from __future__ import annotations

import html
import importlib.util
import re
from pathlib import Path

from pydata_sphinx_theme.pygments import get_pygments_stylesheet
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

ROOT = Path(__file__).resolve().parents[2]


def _ext_module(name: str):  # noqa: ANN202
    spec = importlib.util.spec_from_file_location(name, ROOT / "_ext" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_css_is_shipped_and_lets_inline_code_wrap() -> None:
    fixes = _ext_module("theme_fixes")
    css = (fixes.STATIC / fixes.CSS).read_text(encoding="utf-8")
    assert "span.pre" in css and "overflow-wrap: anywhere" in css


spans = _ext_module("code_spans")
# The theme's two styles, as it writes them into _static/pygments.css (pydata-sphinx-theme's defaults).
CSS = get_pygments_stylesheet("a11y-high-contrast-light", "a11y-high-contrast-dark")
LOOK = spans.looks(CSS)
CODE = """import torch

def attend(q, k, v, mask=None):  # q: (n, d)
    scores = q @ k.T / k.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v, f"{len(q)} rows"
"""


def _looks_per_character(pre: str) -> list[tuple[str, object]]:
    """Each character of a block's text with the look of the token span it is in (None outside one)."""
    seen = []
    for m in spans._PIECE.finditer(pre):  # a token span, text, or another tag
        text = html.unescape(m.group(2) if m.group(1) else (m.group(3) or ""))
        seen += [(c, LOOK.get(m.group(1), m.group(1))) for c in text]
    return seen


def test_a_formula_keeps_the_punctuation_that_touches_it() -> None:
    """Issue 51: the comma after an inline formula started a line on a phone; the formula and the
    punctuation on either side of it are wrapped in one span that does not break (theme_fixes.css)."""
    fixes = _ext_module("theme_fixes")
    math = '<span class="math notranslate nohighlight">\\(\\sqrt{d_k}\\)</span>'
    body = f"by {math}, make ({math}) and {math} alone; {math}."
    context = {"body": body}
    fixes._math_with_punctuation(None, "p", "page.html", context, None)
    joined = '<span class="attnbook-nobr">'
    assert context["body"] == (f"by {joined}{math},</span> make {joined}({math})</span> and {math} alone; "
                               f"{joined}{math}.</span>")
    css = (fixes.STATIC / fixes.CSS).read_text(encoding="utf-8")
    assert re.search(r"\.attnbook-nobr\s*\{\s*white-space:\s*nowrap", css)
    page = {"body": "no formula, here."}
    fixes._math_with_punctuation(None, "p", "page.html", page, None)
    assert page["body"] == "no formula, here."


def test_names_punctuation_and_spaces_look_alike_and_prompts_keep_their_own():
    assert LOOK["n"] == LOOK["p"] == LOOK["w"]  # the text colour in both themes
    assert LOOK["n"] != LOOK["k"] and LOOK["n"] != LOOK["o"]
    assert "gp" not in LOOK and "hll" not in LOOK  # a prompt is unselectable (basic.css): its own span


def test_joined_spans_draw_every_character_as_before_and_are_fewer():
    """Every character keeps its text and, unless it is a space, the look of its span; there are
    fewer spans; a second pass changes nothing."""
    block = highlight(CODE, PythonLexer(), HtmlFormatter())
    pre = re.search(r"<pre>(.*)</pre>", block, re.S).group(1)
    merged = spans.merge_block(pre, LOOK)
    before, after = _looks_per_character(pre), _looks_per_character(merged)
    assert "".join(c for c, _ in after) == "".join(c for c, _ in before) == CODE
    changed = [(c, a, b) for (c, a), (_, b) in zip(before, after, strict=True) if a != b and c.strip()]
    assert not changed, changed[:5]
    assert merged.count("<span") < 0.75 * pre.count("<span"), (pre.count("<span"), merged.count("<span"))
    assert spans.merge_block(merged, LOOK) == merged


def test_only_highlighted_blocks_change():
    page = ('<p><span class="n">a</span><span class="p">(</span></p>'
            '<div class="highlight"><pre><span></span><span class="n">f</span><span class="p">(</span>'
            '<span class="gp">&gt;&gt;&gt; </span><span class="n">x</span>\n</pre></div>')
    assert spans.merge_page(page, LOOK) == page.replace(
        '<span class="n">f</span><span class="p">(</span>', '<span class="n">f(</span>')
