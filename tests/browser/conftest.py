"""Browser-test fixtures: the built site served from a local HTTP server, and Debian's Chromium
driven by Playwright with every request to another host blocked and recorded.

The server, the browser and the blocking live in :mod:`bookdev.browser`, shared with
``benchmarks/bench_widgets.py``; these fixtures give them pytest's scopes and failures. One server
and one browser serve the whole session (each pytest-xdist worker has its own). A test gets its own
page in a fresh browser context (``offline_page``, ``open_page``), where no other test sees what it
does; or, where a module's tests each set everything they read themselves, they share one load of
their chapter (``module_page``, loaded once by the module's own fixture).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from bookdev import browser as bb
from bookdev.site import load


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """Serve _build/html on 127.0.0.1 (random port) for the whole session."""
    if not (bb.SITE / "index.html").exists():
        pytest.fail(f"no built site at {bb.SITE}: run 'make book' first (make test does)")
    with bb.serve(bb.SITE) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole session."""
    try:
        with bb.chromium() as b:
            yield b
    except bb.BrowserMissing as err:
        pytest.fail(str(err))


@pytest.fixture()
def offline_page(browser: Any, site_url: str) -> Iterator[tuple[Any, bb.PageLog]]:
    """A fresh page, at the desktop size in the light theme, whose requests to any host but the
    local server fail and are recorded. Yields ``(page, log)``; ``log`` is a
    :class:`bookdev.browser.PageLog`."""
    with bb.offline_page(browser, site_url) as page_and_log:
        yield page_and_log


@pytest.fixture(scope="module")
def module_page(browser: Any, site_url: str) -> Iterator[tuple[Any, bb.PageLog]]:
    """Such a page, shared by the tests of one module that read a chapter loaded once (each module's
    own fixture loads it); closed after the module's last test. Yields ``(page, log)``."""
    with bb.offline_page(browser, site_url) as page_and_log:
        yield page_and_log


@pytest.fixture()
def open_page(browser: Any, site_url: str) -> Iterator[Callable[[str], tuple[Any, bb.PageLog]]]:
    """``open_page(name)``: ``(page, log)`` with page ``name`` of the site loaded in a fresh page
    (see ``offline_page``) and ready to read (:func:`bookdev.site.load`). Closed when the test ends."""
    with ExitStack() as stack:

        def opened(name: str) -> tuple[Any, bb.PageLog]:
            page, log = stack.enter_context(bb.offline_page(browser, site_url))
            load(page, f"{site_url}/{name}")
            return page, log

        yield opened
