"""Browser-test fixtures: the built site served from a local HTTP server, and Debian's Chromium
driven by Playwright with every request to another host blocked and recorded.

The server, the browser and the blocking live in :mod:`bookdev.browser`, shared with
``benchmarks/bench_widgets.py``; these fixtures give them pytest's scopes and failures. One server
and one browser serve the whole session (each pytest-xdist worker has its own). A test gets its own
page in a fresh browser context (``offline_page``, ``open_page``), where no other test sees what it
does; or, where a module's tests each set everything they read themselves, they share one load of
their chapter (``module_page``, loaded once by the module's own fixture).

A widget chapter's module names its loader, ``open_chapter(page, site_url)``, which loads the
chapter into ``page`` and returns its widgets; ``fresh_chapter`` gives a test the chapter in a page
of its own, ``chapter`` one load of it shared by the module's tests.
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


@pytest.fixture()
def fresh_chapter(offline_page: tuple[Any, bb.PageLog], site_url: str, request: pytest.FixtureRequest) -> tuple[Any, bb.PageLog, Any]:
    """``(page, log, widgets)``: the test module's chapter, loaded by its ``open_chapter``, in a page
    of the test's own: for a test that starts from the page's first render or changes its size."""
    page, log = offline_page
    return page, log, request.module.open_chapter(page, site_url)


@pytest.fixture(scope="module")
def chapter(module_page: tuple[Any, bb.PageLog], site_url: str, request: pytest.FixtureRequest) -> tuple[Any, bb.PageLog, Any]:
    """``(page, log, widgets)``: the module's chapter loaded once (its ``open_chapter``), shared by
    the module's tests that each set everything they read."""
    page, log = module_page
    return page, log, request.module.open_chapter(page, site_url)
