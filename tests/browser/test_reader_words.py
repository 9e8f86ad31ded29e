"""No test machinery in what a reader reads: the built pages (chapters and the reference pages a
reader opens, not the API reference of the tooling) never name the book's test files, nbval, its
make targets or its browser tests. Plain text of the built HTML, no browser needed."""

from __future__ import annotations

import html
import re

import pytest

from bookdev.browser import SITE

#: What a reader must not meet, with why it is machinery.
FORBIDDEN = {
    r"tests/(\w+/)?test_\w+\.py": "a test file",
    r"\bnbval\b": "the notebook test tool",
    r"NBVAL_IGNORE_OUTPUT": "an nbval marker in the code",
    r"\bmake (bench|test|execute|book|site)\b": "a make target",
    r"browser tests": "the book's browser tests",
    r"which the tests": "the book's tests",
    r"run_check\(": "an errata internal shown as the way to compute",
    r"once they are written": "a stale promise",
    r"not in the book yet": "a stale promise",
}
PAGES = sorted(p for p in (SITE / "book").glob("*.html") if p.name not in ("api.html", "genindex.html", "search.html"))


def visible_text(page_html: str) -> str:
    """The text a reader sees: scripts, styles and the embedded widget and exercise data removed."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", page_html, flags=re.S | re.I)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.sub(r"\s+", " ", html.unescape(text))


@pytest.mark.skipif(not PAGES, reason="no built site: run make book first")
@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_a_page_names_no_test_machinery(page) -> None:  # noqa: ANN001
    text = visible_text(page.read_text(encoding="utf-8"))
    found = [f"{why}: ...{text[max(0, m.start() - 50):m.end() + 30]}..." for pattern, why in FORBIDDEN.items()
             for m in re.finditer(pattern, text)]
    assert not found, found


def test_the_scan_finds_machinery_in_a_page() -> None:
    page = "<p>The same check runs in <code>tests/lib/test_scratch.py</code>; so nbval ignores it.</p><script>nbval</script>"
    text = visible_text(page)
    assert [p for p in FORBIDDEN if re.search(p, text)] == [r"tests/(\w+/)?test_\w+\.py", r"\bnbval\b"]
