"""Accessibility: axe-core (pinned in package-lock.json) finds no serious or critical violation on
any built page, and every image has alt text."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from bookdev.browser import SITE
from bookdev.site import AXE, PAGES, THEMES

pytestmark = pytest.mark.browser


def _summary(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:5]]
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} nodes, e.g. {targets})")
    return "\n".join(lines)


@pytest.mark.parametrize("name", PAGES)
def test_no_serious_or_critical_axe_violations(page_visit, name: str) -> None:
    """axe-core on the page in the light theme, then again after switching to the dark theme
    (colour contrast differs between the two). The page is loaded once for all per-page checks
    (``page_visit`` in conftest.py)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run 'make node_modules/.installed' (npm ci); make test does")
    visit = page_visit(name)
    assert visit.axe is not None and set(visit.axe) == set(THEMES), f"{name}: axe did not run in both themes"
    backgrounds = [visit.backgrounds[theme] for theme in THEMES]
    assert backgrounds[0] != backgrounds[1], f"the theme switch did not change the page: {backgrounds}"
    failures = [f"{theme} theme:\n{_summary(visit.axe[theme])}" for theme in THEMES if visit.axe[theme]]
    assert not failures, f"{name}:\n" + "\n".join(failures)


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
