"""Browser-test fixtures: the built site served from a local HTTP server, and Debian's Chromium
driven by Playwright with every request to another host blocked and recorded.

The server, the browser and the blocking live in :mod:`bookdev.browser`, shared with
``benchmarks/bench_widgets.py``; these fixtures give them pytest's scopes and failures. One server
and one browser serve the whole session (each xdist worker has its own).

``page_visit(name)`` loads a page of the site once per session and gathers what every per-page
check needs (:class:`bookdev.site.Visit`: requests, errors, math, axe-core and captions in both
themes, the phone's size...); the tests then assert on that record, so a page is loaded once, not
once per check. ``live_page(name)`` hands the tests that interact with a page (exercises, sliders)
that same loaded page. Under xdist (``make test`` runs ``-n 2 --dist loadscope``) every test of one
page goes to one worker (:func:`pytest_xdist_make_scheduler`), the worker that holds its visit, and
runs there right after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

from bookdev import browser as bb
from bookdev.site import Visit, load, page_scope, set_theme, visit


class PageScheduling(LoadScopeScheduling):
    """xdist's loadscope, with :func:`page_scope` as the scope."""

    def _split_scope(self, nodeid: str) -> str:
        return page_scope(nodeid)


@pytest.hookimpl(optionalhook=True)  # the hook exists only when xdist is loaded
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``-n 2 --dist loadscope``, send every test of one page to one worker, which loads that
    page once. (xdist's own ``loadgroup`` cannot be used: with pytest 9 its ``xdist_group`` marks are
    silently ignored.)"""
    return PageScheduling(config, log) if config.getvalue("dist") == "loadscope" else None


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
    """A fresh page whose requests to any host but the local server are aborted and recorded.

    Yields ``(page, log)``; ``log`` is a :class:`bookdev.browser.PageLog`.
    """
    with bb.offline_page(browser, site_url) as page_and_log:
        yield page_and_log


class _OpenPage:
    """The one page a worker keeps open: the latest visited (or loaded) page of the site."""

    def __init__(self, browser: Any, site_url: str) -> None:
        self.browser, self.site_url = browser, site_url
        self.name: str | None = None
        self._stack: ExitStack | None = None

    def open(self, name: str) -> tuple[Any, bb.PageLog]:
        """A fresh page in a fresh context for ``name`` (closing the one open before)."""
        self.close()
        self._stack = ExitStack()
        self.page, self.log = self._stack.enter_context(bb.offline_page(self.browser, self.site_url))
        self.name = name
        return self.page, self.log

    def close(self) -> None:
        if self._stack is not None:
            self._stack.close()
        self._stack, self.name = None, None


@pytest.fixture(scope="session")
def _open_page(browser: Any, site_url: str) -> Iterator[_OpenPage]:
    holder = _OpenPage(browser, site_url)
    yield holder
    holder.close()


@pytest.fixture(scope="session")
def page_visit(_open_page: _OpenPage, site_url: str) -> Callable[[str], Visit]:
    """``page_visit(name)``: the :class:`Visit` of page ``name``, loaded on first use, then cached."""
    visits: dict[str, Visit] = {}

    def get(name: str) -> Visit:
        if name not in visits:
            page, log = _open_page.open(name)
            visits[name] = visit(page, log, site_url, name)
        return visits[name]

    return get


@pytest.fixture(scope="session")
def live_page(_open_page: _OpenPage, site_url: str) -> Callable[[str], tuple[Any, bb.PageLog]]:
    """``live_page(name)``: ``(page, log)`` with page ``name`` loaded, at the desktop size in the light
    theme, and every other host blocked and recorded in ``log``. It is the page its visit loaded
    when that page is still open (the tests of one page run right after its visit) and still shows
    it (a test may have followed a link away), else a fresh load. Tests of one page share it, in
    the order they run: a test that needs a control in a given position puts it there first, and a
    test that changes the page itself undoes its change."""

    def get(name: str) -> tuple[Any, bb.PageLog]:
        url = f"{site_url}/{name}"
        if _open_page.name != name or _open_page.page.url.split("#", 1)[0] != url:
            page, log = _open_page.open(name)
            load(page, url)
            return page, log
        page = _open_page.page
        page.set_viewport_size(bb.VIEWPORT)
        set_theme(page, "light")
        page.evaluate("() => window.scrollTo(0, 0)")
        return page, _open_page.log

    return get
