"""The published site as a whole: search works offline, the site ships no source maps, the figures
read in both themes, and every chapter has its launch buttons. (What every page must do on its own
is checked in test_pages.py.)"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from bookdev.browser import SITE
from bookdev.site import CHAPTERS, PAGES, load, wait_for_requests
from tests._project import config

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def test_the_site_has_pages() -> None:
    assert "index.html" in PAGES and "search.html" in PAGES, PAGES
    assert CHAPTERS, f"no chapter pages (book/NN_*.html) among {PAGES}"


def _search(page, site_url: str, query: str) -> None:  # noqa: ANN001
    """Open the search page for ``query`` and wait until Sphinx's search has finished (its title, which
    the theme hides, says so)."""
    page.goto(f"{site_url}/search.html?q={query}")
    page.locator("#search-results h2", has_text="Search Results").wait_for(state="attached", timeout=15_000)


def test_search_finds_a_chapter_offline(offline_page, site_url) -> None:
    page, log = offline_page
    _search(page, site_url, "magnitude")
    results = page.locator("#search-results ul.search li a")
    hrefs = results.evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert any("04_magnitude" in h for h in hrefs), hrefs
    wait_for_requests(page, log)  # every request the page made has ended: the record of other hosts is complete
    assert log.external == [] and log.page_errors == [], (log.external, log.page_errors)


def test_search_reports_no_match_for_a_word_that_is_nowhere(offline_page, site_url) -> None:
    page, _ = offline_page
    _search(page, site_url, "xylophonequartz")
    summary = page.locator("#search-results p.search-summary")
    assert page.locator("#search-results ul.search li").count() == 0
    assert "did not match any documents" in summary.inner_text()


def test_no_source_maps_in_the_site() -> None:
    maps = [p.relative_to(SITE).as_posix() for p in SITE.rglob("*.map")]
    assert maps == [], f"source maps are dead weight in the published site: {maps}"


def _luminance(rgb: tuple[int, int, int]) -> float:
    return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_figures_read_in_both_themes(offline_page, site_url, theme: str) -> None:
    """Screenshot a chapter at its first figure in each theme (tests/browser/artifacts/) and check
    that every figure stays a light card with dark ink while the page background follows the theme."""
    page, _ = offline_page
    page.emulate_media(color_scheme=theme)
    page.add_init_script(f"localStorage.setItem('theme', '{theme}'); localStorage.setItem('mode', '{theme}');")
    chapter = CHAPTERS[0]
    load(page, f"{site_url}/{chapter}")
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    rgb = tuple(int(x) for x in re.findall(r"\d+", background)[:3])
    assert (_luminance(rgb) < 0.3) if theme == "dark" else (_luminance(rgb) > 0.9), (theme, background)
    figures = page.locator("figure img, .cell_output img")
    assert figures.count() > 0, f"{chapter} has no figure"
    ARTIFACTS.mkdir(exist_ok=True)
    for i in range(figures.count()):
        fig = figures.nth(i)
        fig.scroll_into_view_if_needed()
        if i == 0:
            page.screenshot(path=str(ARTIFACTS / f"{Path(chapter).stem}-{theme}.png"))
        shot = Image.open(io.BytesIO(fig.screenshot())).convert("RGB")
        px = np.asarray(shot, dtype=float) / 255  # (height, width, 3)
        lum = px @ np.array([0.2126, 0.7152, 0.0722])  # (height, width)
        median, darkest = float(np.median(lum)), float(np.quantile(lum, 0.01))
        assert median > 0.7, f"{chapter} figure {i} in {theme} mode: the card is not light (median {median:.2f})"
        assert median - darkest > 0.5, f"{chapter} figure {i} in {theme} mode: the ink is too faint"


def test_figure_images_are_opaque() -> None:
    """A transparent PNG would show the page background (dark in dark mode) behind dark ink."""
    pngs = sorted((SITE / "_images").glob("*.png"))
    assert pngs, "no figures in _build/html/_images"
    for path in pngs:
        with Image.open(path) as im:
            if im.mode in ("RGBA", "LA") or "transparency" in im.info:
                alpha = im.convert("RGBA").getchannel("A")
                assert alpha.getextrema()[0] == 255, f"{path.name} has transparent pixels"


@pytest.mark.parametrize("name", CHAPTERS)
def test_chapter_has_binder_colab_and_live_code_buttons(name: str) -> None:
    cfg = config()
    repo = re.sub(r"^https://github\.com/", "", cfg["repository"]["url"].rstrip("/"))
    branch = cfg["repository"]["branch"]
    notebook = name.removesuffix(".html") + ".ipynb"
    html = (SITE / name).read_text(encoding="utf-8")
    binder = f"https://mybinder.org/v2/gh/{repo}/{branch}?urlpath=lab/tree/{notebook}"
    colab = f"https://colab.research.google.com/github/{repo}/blob/{branch}/{notebook}"
    assert f'href="{binder}"' in html, f"{name}: no Binder button to {binder}"
    assert f'href="{colab}"' in html, f"{name}: no Colab button to {colab}"
    assert "btn-launch-thebe" in html and f'repo: "{repo}"' in html, f"{name}: no live-code (thebe) button"
