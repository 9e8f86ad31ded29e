"""Browser-test fixtures: the built site served from a local HTTP server, and Debian's Chromium
driven by Playwright with every request to another host blocked and recorded.

The server, the browser and the blocking live in :mod:`bookdev.browser`, shared with
``benchmarks/bench_widgets.py``; these fixtures give them pytest's scopes and failures. One server
and one browser serve the whole session (each xdist worker has its own).

``page_visit(name)`` loads a page of the site once per session and gathers what every per-page
check needs (blocked requests, console and page errors, math typesetting, raw TeX, axe-core in
both themes); the tests then assert on that record, so a page is loaded once, not once per check.
Under xdist (``make test`` runs ``-n 2 --dist loadscope``) every test of one page goes to one
worker (:func:`pytest_xdist_make_scheduler`), the worker that holds its visit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

from bookdev import browser as bb
from bookdev.site import Visit, page_scope, visit


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


@pytest.fixture(scope="session")
def page_visit(browser: Any, site_url: str) -> Callable[[str], Visit]:
    """``page_visit(name)``: the :class:`Visit` of page ``name``, loaded on first use, then cached."""
    visits: dict[str, Visit] = {}

    def get(name: str) -> Visit:
        if name not in visits:
            visits[name] = visit(browser, site_url, name)
        return visits[name]

    return get
