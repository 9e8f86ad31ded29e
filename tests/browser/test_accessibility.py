"""Accessibility: every image of every built page has alt text. (axe-core runs on every page in
test_pages.py.)"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from bookdev.browser import SITE
from bookdev.site import PAGES

pytestmark = pytest.mark.browser


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs))


@pytest.mark.parametrize("name", PAGES)
def test_every_image_has_alt_text(name: str) -> None:
    parser = _Images()
    parser.feed((SITE / name).read_text(encoding="utf-8"))
    missing = [img.get("src") for img in parser.images if not (img.get("alt") or "").strip()]
    assert not missing, f"{name}: images without alt text: {missing}"
