"""Browser-test fixtures: the built site served from a local HTTP server, and Debian's Chromium
driven by Playwright with every request to another host blocked and recorded.

Never downloads a browser: the executable is `chromium` from PATH (Debian package `chromium`,
installed by `make browser-deps` in CI), or $CHROMIUM.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "_build" / "html"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage",
]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """Serve _build/html on 127.0.0.1 (random port) for the whole session."""
    if not (SITE / "index.html").exists():
        pytest.fail(f"no built site at {SITE}: run 'make book' first (make test does)")
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    exe = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        pytest.fail("Debian's chromium is not installed: run 'make browser-deps' (apt-get install -y chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@dataclass
class PageLog:
    """What a page did: requests that left the site (blocked), console errors, page errors."""

    external: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)


@pytest.fixture()
def offline_page(browser, site_url):  # noqa: ANN001, ANN201
    """A fresh page whose requests to any host but the local server are aborted and recorded.

    Yields ``(page, log)``; ``log`` is a :class:`PageLog`.
    """
    site_host = urlparse(site_url).netloc
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    log = PageLog()

    def route(r) -> None:  # noqa: ANN001
        url = r.request.url
        parsed = urlparse(url)
        if parsed.scheme in ("data", "blob") or parsed.netloc == site_host:
            r.continue_()
        else:
            log.external.append(url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("console", lambda m: log.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: log.page_errors.append(str(e)))
    try:
        yield page, log
    finally:
        context.close()
