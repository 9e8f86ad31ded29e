"""No broken internal link in the built site: every href/src of every page that stays on the site
resolves to a file that exists, and every #fragment to an element id on the target page."""

from __future__ import annotations

import functools
import posixpath
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

import pytest

from bookdev.browser import SITE
from bookdev.site import PAGES

# Attributes that point at another resource, per tag.
LINK_ATTRS = {"a": "href", "link": "href", "area": "href", "img": "src", "script": "src", "source": "src",
              "iframe": "src", "video": "src", "audio": "src", "embed": "src", "track": "src"}
# A fragment the browser resolves without an element of that id (HTML: "#top" scrolls to the top).
BUILTIN_FRAGMENTS = {"", "top"}


class _Page(HTMLParser):
    """The ids of a page and the links it makes, as ``(tag, url)``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        url = a.get(LINK_ATTRS.get(tag, ""))
        if url is not None:
            self.links.append((tag, url.strip()))


@functools.cache
def _parse(rel: str) -> _Page:
    page = _Page()
    page.feed((SITE / rel).read_text(encoding="utf-8"))
    return page


def _broken_links(rel: str) -> list[str]:
    broken = []
    for tag, url in _parse(rel).links:
        parts = urlsplit(url)
        if parts.scheme or parts.netloc:  # http(s), mailto, javascript, data, //host: not ours
            continue
        if parts.path:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), unquote(parts.path)))
            if target.startswith(".."):
                broken.append(f"<{tag}> {url}: leaves the site")
                continue
            path = SITE / target
            if path.is_dir():
                path, target = path / "index.html", posixpath.join(target, "index.html")
            if not path.is_file():
                broken.append(f"<{tag}> {url}: no file {target}")
                continue
        else:
            target = rel
        fragment = unquote(parts.fragment)
        if fragment not in BUILTIN_FRAGMENTS and target.endswith(".html"):
            if fragment not in _parse(target).ids:
                broken.append(f"<{tag}> {url}: no id {fragment!r} in {target}")
    return broken


def test_link_checker_finds_a_broken_link(tmp_path, monkeypatch) -> None:
    """The checker itself: a missing file, a missing id and a good link, on a throwaway site."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.html").write_text(
        '<a href="sub/b.html#here">ok</a><a href="sub/b.html#gone">bad id</a><a href="nope.html">bad file</a>'
        '<img src="https://example.org/x.png"><a href="#top">top</a><a href="sub/">dir</a>', encoding="utf-8")
    (tmp_path / "sub" / "b.html").write_text('<p id="here">b</p>', encoding="utf-8")
    (tmp_path / "sub" / "index.html").write_text("<p>i</p>", encoding="utf-8")
    monkeypatch.setitem(globals(), "SITE", tmp_path)  # _broken_links reads the module's SITE
    _parse.cache_clear()
    try:
        broken = _broken_links("a.html")
    finally:
        _parse.cache_clear()
    assert broken == ["<a> sub/b.html#gone: no id 'gone' in sub/b.html", "<a> nope.html: no file nope.html"]


@pytest.mark.parametrize("name", PAGES)
def test_no_broken_internal_links(name: str) -> None:
    broken = _broken_links(name)
    assert not broken, f"{name} has {len(broken)} broken internal links:\n" + "\n".join(broken)


def test_pages_link_to_each_other() -> None:
    """Guard against a checker that checks nothing: the chapters are linked from the start page."""
    intro_links = [url for _, url in _parse("book/intro.html").links]
    assert sum(1 for u in intro_links if not urlsplit(u).scheme and u.endswith(".html")) >= 2, intro_links
