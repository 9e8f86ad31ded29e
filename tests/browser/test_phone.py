"""The site on a phone: every page at 390 × 844 (an iPhone 12–15 screen in CSS pixels) is no wider
than the screen, and every slider's readout is fully visible, in light and dark mode.

A page may hold something wider than the screen only inside a box that scrolls sideways (a code
cell, a wide table); the page itself must not scroll sideways.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from . import widget_driver as wd
from ._site import PAGES, load
from .conftest import SITE

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def _has_widgets(page: str) -> bool:
    return wd.VIEW_MIME in (SITE / page).read_text(encoding="utf-8", errors="ignore")


# Every page in light mode; the slider pages in dark mode too (the site's dark theme around the
# widgets' white card).
CASES = [(p, "light") for p in PAGES] + [(p, "dark") for p in PAGES if _has_widgets(p)]

# Elements reaching past the right edge of the screen that are not inside a box that scrolls or
# clips sideways: what makes the page wider than the screen.
_OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const contained = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden" || o === "clip") return true;
    }
    return false;
  };
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    // text overflowing its box (a long word) shows as a box scrolling wider than it is
    const spills = getComputedStyle(el).overflowX === "visible" && r.left + el.scrollWidth > width + 1 &&
      ![...el.children].some((k) => k.getBoundingClientRect().left + k.scrollWidth > width + 1);
    if (r.width === 0 || (r.right <= width + 1 && !spills) || contained(el)) continue;
    if (el.closest("[hidden], .bd-sidebar-primary, .bd-sidebar-secondary") && getComputedStyle(el).visibility !== "visible") continue;
    out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} right=${Math.round(r.right)} ` +
             `"${(el.textContent || "").trim().slice(0, 60)}"`);
    if (out.length >= 8) break;
  }
  return { width, scrollWidth: document.documentElement.scrollWidth, out };
}"""

# Each slider readout (the <output> after a range input) and each slider label: its box must lie
# inside the screen, inside its widget card, and inside every ancestor that clips its overflow.
_CLIPPED_READOUTS = """() => {
  const width = document.documentElement.clientWidth;
  const problems = [];
  const checked = [];
  for (const el of document.querySelectorAll(".attnw-control output, .attnw-control label, .attnw-control input")) {
    const r = el.getBoundingClientRect();
    const name = el.dataset.name || el.getAttribute("for") || el.tagName;
    checked.push(name);
    if (el.tagName === "OUTPUT" && (!el.textContent.trim() || r.width < 1)) { problems.push(`${name}: empty or invisible`); continue; }
    if (r.left < -0.5 || r.right > width + 0.5) problems.push(`${name} "${el.textContent}" spans ${Math.round(r.left)}..${Math.round(r.right)}, the screen 0..${width}`);
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      const clips = a.classList.contains("attnw") || ["hidden", "clip", "auto", "scroll"].includes(cs.overflowX);
      if (!clips) continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5) {
        problems.push(`${name} "${el.textContent}" (${Math.round(r.left)}..${Math.round(r.right)}) is cut by ${a.tagName.toLowerCase()}.${[...a.classList].join(".")} (${Math.round(b.left)}..${Math.round(b.right)})`);
        break;
      }
    }
  }
  return { problems, checked };
}"""


@pytest.mark.parametrize(("name", "scheme"), CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_page_fits_a_phone(browser, site_url, name, scheme) -> None:  # noqa: ANN001
    host = urlparse(site_url).netloc
    context = browser.new_context(viewport=PHONE, color_scheme=scheme, has_touch=True)
    context.route("**/*", lambda r: r.continue_() if urlparse(r.request.url).netloc in (host, "") else r.abort())
    try:
        page = context.new_page()
        load(page, f"{site_url}/{name}")
        assert page.evaluate("() => document.documentElement.dataset.theme") == scheme
        widgets = _has_widgets(name)
        if widgets:
            wd.wait_for_widgets(page)
        wide = page.evaluate(_OVERFLOWING)
        assert wide["scrollWidth"] <= wide["width"] + 1, (
            f"{name} ({scheme}) is {wide['scrollWidth']} px wide on a {wide['width']} px screen; "
            f"reaching past the edge: {wide['out']}")
        if widgets:
            readouts = page.evaluate(_CLIPPED_READOUTS)
            assert any(c.endswith("-readout") for c in readouts["checked"]), f"{name}: no slider readout found"
            assert readouts["problems"] == [], f"{name} ({scheme}): {readouts['problems']}"
    finally:
        context.close()
