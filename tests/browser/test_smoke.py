"""The built site loads from the local server alone."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_home_page_loads_offline(offline_page, site_url) -> None:
    page, log = offline_page
    page.goto(f"{site_url}/index.html", wait_until="networkidle")
    assert "Attention, step by step" in page.title()
    assert page.locator("h1").first.inner_text().startswith("Attention, step by step")
    assert log.page_errors == [], log.page_errors
