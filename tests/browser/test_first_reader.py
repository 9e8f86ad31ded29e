"""Small things a first reader sees (issue 19): browser titles and navigation without TeX leftovers,
the home page's title written once, the d_k slider read aloud as "d sub k", chapter 13's
"Reproduces" line without a literal backslash, and captions dark and heavy enough to read.
"""

from __future__ import annotations

import pytest

from . import widget_driver as wd
from ._site import PAGES, load
from .conftest import SITE

pytestmark = pytest.mark.browser

BOOK = "Attention, step by step"

# The page's title, the left navigation, the previous/next links and the page's own table of contents.
_NAV_TEXT = """() => [document.title,
  ...[...document.querySelectorAll(".bd-sidebar-primary nav a, .prev-next-area a, .bd-toc-nav a")].map((a) => a.innerText)]"""

# Weight, size and contrast ratio (WCAG) of each caption against the first opaque background behind it.
_CAPTIONS = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let a = el; a; a = a.parentElement) {
      const c = rgb(getComputedStyle(a).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] === 1)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  return [...document.querySelectorAll("figcaption, .attnw-table caption")].filter((e) => e.offsetParent).map((e) => {
    const cs = getComputedStyle(e.querySelector("p") || e);
    const [l1, l2] = [lum(rgb(cs.color).slice(0, 3)), lum(background(e))].sort((a, b) => b - a);
    return { text: e.innerText.slice(0, 50), weight: Number(cs.fontWeight), size: parseFloat(cs.fontSize),
             contrast: (l1 + 0.05) / (l2 + 0.05) };
  });
}"""


@pytest.fixture(scope="module")
def nav_texts(browser, site_url):  # noqa: ANN001, ANN201
    """Every page's title and navigation texts, read in one browser context."""
    context = browser.new_context()
    page = context.new_page()
    texts = {}
    try:
        for name in PAGES:
            if 'http-equiv="refresh"' in (SITE / name).read_text(encoding="utf-8").lower():
                continue  # index.html only redirects to the intro
            page.goto(f"{site_url}/{name}", wait_until="load")
            texts[name] = page.evaluate(_NAV_TEXT)
    finally:
        context.close()
    return texts


def test_home_page_title_once(nav_texts) -> None:  # noqa: ANN001
    assert nav_texts["book/intro.html"][0] == BOOK
    assert nav_texts["book/05_softmax.html"][0].endswith(f" — {BOOK}")


def test_titles_and_navigation_have_no_tex_leftovers(nav_texts) -> None:  # noqa: ANN001
    bad = {name: [t for t in texts if "d_k" in t or "\\" in t or "$" in t] for name, texts in nav_texts.items()}
    bad = {k: v for k, v in bad.items() if v}
    assert bad == {}, f"titles or navigation show TeX: {bad}"
    assert any("√dₖ" in t for t in nav_texts["book/06_scaling.html"]), "chapter 06's title lost its √dₖ"


def test_d_k_slider_is_read_as_d_sub_k(offline_page, site_url) -> None:  # noqa: ANN001
    page, _ = offline_page
    load(page, f"{site_url}/book/15_playground.html")
    wd.wait_for_widgets(page)
    slider = page.get_by_role("slider", name="d sub k", exact=True)
    assert slider.count() >= 1, "no slider named 'd sub k'"
    assert slider.first.get_attribute("aria-valuetext").startswith("d sub k = ")


def test_reproduces_line_has_no_literal_backslash(offline_page, site_url) -> None:  # noqa: ANN001
    page, _ = offline_page
    load(page, f"{site_url}/book/13_multihead_causal.html")
    spoken = page.evaluate("""() => {
      const p = [...document.querySelectorAll("p")].find((e) => e.innerText.startsWith("Reproduces:"));
      return p ? [...p.querySelectorAll("mjx-assistive-mml")].map((m) => m.textContent).join(" | ") : "";
    }""")
    assert "heads" in spoken, f"no typeset math naming num_heads in the Reproduces line: {spoken!r}"
    assert "\\" not in spoken, f"the Reproduces line shows a literal backslash: {spoken!r}"


@pytest.mark.parametrize("name", ["book/15_playground.html", "book/13_multihead_causal.html"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_captions_meet_contrast(offline_page, site_url, name, scheme) -> None:  # noqa: ANN001
    """Figure and widget-panel captions: regular weight or heavier, contrast at least 4.5:1."""
    page, _ = offline_page
    page.emulate_media(color_scheme=scheme)
    load(page, f"{site_url}/{name}")
    if "playground" in name:
        wd.wait_for_widgets(page)
    captions = page.evaluate(_CAPTIONS)
    assert len(captions) >= 2, f"{name}: no captions found"
    pale = [c for c in captions if c["weight"] < 400 or c["contrast"] < 4.5]
    assert pale == [], f"{name} ({scheme}): captions too pale: {pale}"
