"""The built site in a browser: a local HTTP server for ``_build/html`` and Debian's Chromium driven
by Playwright, with every request to another host blocked and recorded.

Never downloads a browser: the executable is ``$CHROMIUM``, else Debian's headless build of Chromium
(package ``chromium-headless-shell``, installed by ``make browser-deps``), else Debian's full
``chromium``. The headless build is the same Blink engine without the desktop browser around it;
the browser tests take about 0.7 times as long in it (docs/notes/TEST_TIME.md). Used by the browser-test fixtures
(``tests/browser/conftest.py``), ``benchmarks/bench_widgets.py`` and ``tools/page_weight.py``.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage",
]
VIEWPORT = {"width": 1280, "height": 900}


class BrowserMissing(RuntimeError):
    """Debian's chromium is not installed (and ``$CHROMIUM`` is not set)."""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@contextmanager
def serve(directory: Path = SITE) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1 (a free port) in a background thread; yield its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


#: Where Debian's ``chromium-headless-shell`` puts the browser itself (its PATH entry is a shell wrapper).
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")


def chromium_executable() -> str:
    """``$CHROMIUM``; else Debian's headless shell; else ``chromium`` / ``chromium-browser`` from PATH.
    Raises :class:`BrowserMissing` when there is none."""
    exe = (os.environ.get("CHROMIUM")
           or (str(HEADLESS_SHELL) if HEADLESS_SHELL.is_file() else shutil.which("chromium-headless-shell"))
           or shutil.which("chromium") or shutil.which("chromium-browser"))
    if not exe:
        raise BrowserMissing("Debian's Chromium is not installed: run 'make browser-deps' "
                             "(apt-get install -y chromium-headless-shell), or set CHROMIUM=/path")
    return exe


@contextmanager
def chromium() -> Iterator[Any]:
    """Launch headless Chromium through Playwright; yield the ``Browser``, closed on exit.

    Every request to another host fails in this browser: its proxy is a local port that refuses
    every connection (bound, never listening), and Chromium never sends the loopback address, where
    the site is served, through a proxy. Blocking here, rather than routing each request through
    Playwright to Python and back, spares every page load a round trip per file (about 0.93 of the
    browser's CPU per load, docs/notes/TEST_TIME.md); :func:`offline_page` records what was refused."""
    from playwright.sync_api import sync_playwright  # heavy; only browser runs need it

    exe = chromium_executable()
    with sync_playwright() as p, socket.socket() as refuses:
        refuses.bind(("127.0.0.1", 0))
        proxy = f"--proxy-server=http://127.0.0.1:{refuses.getsockname()[1]}"
        browser = p.chromium.launch(executable_path=exe, headless=True, args=[*CHROMIUM_ARGS, proxy])
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class PageLog:
    """What a page did: requests that left the site (blocked), the URLs it fetched from the site (in
    the order they finished), console errors, page errors, and how many requests are still under
    way (``pending``)."""

    external: list[str] = field(default_factory=list)
    fetched: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    pending: int = 0


@contextmanager
def offline_page(browser: Any, site_url: str, viewport: dict[str, int] | None = None) -> Iterator[tuple[Any, PageLog]]:
    """A fresh page (in its own context) of ``browser`` (from :func:`chromium`, in which requests to
    any other host fail), whose requests to any host but ``site_url``'s are recorded; yield
    ``(page, log)``. The context is closed on exit."""
    site_host = urlparse(site_url).netloc
    context = browser.new_context(viewport=viewport or VIEWPORT)
    log = PageLog()

    def requested(r: Any) -> None:
        parsed = urlparse(r.url)
        if parsed.scheme not in ("data", "blob") and parsed.netloc != site_host:
            log.external.append(r.url)

    context.on("request", requested)
    page = context.new_page()
    page.on("console", lambda m: log.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: log.page_errors.append(str(e)))
    page.on("request", lambda _: setattr(log, "pending", log.pending + 1))
    page.on("requestfailed", lambda _: setattr(log, "pending", log.pending - 1))

    def finished(r: Any) -> None:
        log.pending -= 1
        if urlparse(r.url).netloc == site_host:
            log.fetched.append(r.url)

    page.on("requestfinished", finished)
    try:
        yield page, log
    finally:
        context.close()
