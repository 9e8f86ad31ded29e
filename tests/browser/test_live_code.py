"""Live Code with every other host blocked: thebe's front end comes from the site, the page says in
words that no kernel could be had and names Binder and Colab, and the sliders keep working."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from bookdev import widgets as wd
from bookdev.site import load

pytestmark = pytest.mark.browser

PAGE = "book/10_playground.html"  # sliders and code cells on one page


def _sharpening_matches_python(widget: wd.Widget, position: int) -> None:
    widget.set_range("d_k", position)
    expected = wd.expected_sharpening(widget.state, position)
    shown = widget.texts()
    assert wd.number(shown["d_k-readout"]) == expected["d_k"]
    assert abs(wd.number(shown["unscaled-max"]) - expected["unscaled"]["max_weight"]) <= 0.5e-3 + 1e-9


def test_live_code_offline_says_so_and_the_sliders_keep_working(offline_page, site_url) -> None:  # noqa: ANN001
    page, log = offline_page
    load(page, f"{site_url}/{PAGE}")
    wd.wait_for_widgets(page)
    page.evaluate("() => { window.ATTNBOOK_LIVE_CODE_TIMEOUT_MS = 20000; }")  # the page's limit is 90 s
    page.click(".dropdown-launch-buttons .dropdown-toggle")
    page.click(".btn-launch-thebe")
    message = page.wait_for_selector(".attnbook-live-code-message", timeout=40_000)
    text = message.inner_text()
    assert "Live Code could not start" in text
    assert "Binder" in text and "Colab" in text, text
    hrefs = message.eval_on_selector_all("a", "(links) => links.map((a) => a.href)")
    assert any("mybinder.org" in h for h in hrefs) and any("colab.research.google.com" in h for h in hrefs), hrefs
    assert message.get_attribute("role") == "alert"

    # thebe's front end came from the site; the only host Live Code tried is the Binder service
    thebe = page.evaluate("() => typeof window.thebelab")
    assert thebe == "object", "thebe did not load from the site"
    tried = {urlparse(u).netloc for u in log.external}
    assert tried <= {"mybinder.org"}, f"Live Code asked other hosts: {sorted(tried)}"

    # the static sliders still compute
    widgets = [w for w in wd.find_widgets(page) if w.kind == "SoftmaxSharpening"]
    assert widgets, "no sharpening slider on the page"
    for position in (0, 37, 100):
        _sharpening_matches_python(widgets[0], position)
