"""The built site loads from the local server alone, and the test browser lets nothing else through."""

from __future__ import annotations

import pytest

from bookdev.site import load

pytestmark = pytest.mark.browser


def test_home_page_loads_offline(offline_page, site_url) -> None:
    page, log = offline_page
    load(page, f"{site_url}/index.html")
    assert "Attention, step by step" in page.title()
    assert page.locator("h1").first.inner_text().startswith("Attention, step by step")
    assert log.page_errors == [], log.page_errors


OTHER_HOSTS = ["https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js", "http://93.184.215.14/"]


def test_a_request_to_another_host_is_blocked_and_recorded(offline_page, site_url) -> None:  # noqa: ANN001
    """Another host, by name or by address: each request fails in the browser, and the page's log names it;
    the site itself still answers."""
    page, log = offline_page
    load(page, f"{site_url}/book/intro.html")
    for i, url in enumerate(OTHER_HOSTS):
        outcome = page.evaluate("(u) => fetch(u, { mode: 'no-cors' }).then(() => 'reached', () => 'failed')", url)
        assert outcome == "failed", f"{url} was reached: other hosts are not blocked"
        assert log.external == OTHER_HOSTS[: i + 1], log.external
    assert page.evaluate("(u) => fetch(u).then((r) => r.status)", f"{site_url}/book/intro.html") == 200
