"""Accessibility: axe-core (pinned in package-lock.json) finds no serious or critical violation on
any built page, and every image has alt text."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from tests.browser._site import PAGES, load
from tests.browser.conftest import ROOT, SITE

pytestmark = pytest.mark.browser
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


def _summary(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:5]]
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} nodes, e.g. {targets})")
    return "\n".join(lines)


@pytest.mark.parametrize("name", PAGES)
def test_no_serious_or_critical_axe_violations(offline_page, site_url, name: str) -> None:
    """axe-core on the page in the light theme, then again after switching to the dark theme
    (colour contrast differs between the two)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run 'make node_modules/.installed' (npm ci); make test does")
    page, _ = offline_page
    page.add_init_script("localStorage.setItem('theme', 'light'); localStorage.setItem('mode', 'light');")
    load(page, f"{site_url}/{name}")
    page.add_script_tag(path=str(AXE))
    failures, backgrounds = [], []
    for theme in ("light", "dark"):
        page.evaluate("t => { document.documentElement.dataset.theme = t; document.documentElement.dataset.mode = t; }",
                      theme)
        page.wait_for_timeout(400)  # let colour transitions finish before contrast is measured
        backgrounds.append(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
        blocking = [v for v in result["violations"] if v["impact"] in BLOCKING]
        if blocking:
            failures.append(f"{theme} theme:\n{_summary(blocking)}")
    assert backgrounds[0] != backgrounds[1], f"the theme switch did not change the page: {backgrounds}"
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
