"""Live Code with every other host blocked: thebe's front end comes from the site, the page says in
words that no kernel could be had and names Binder and Colab, the code cells are given back as they
were (no editors left whose run buttons do nothing), and the sliders keep working. The require.js
that thebe fetches once a kernel connects comes from the site as well."""

from __future__ import annotations

import json
from urllib.parse import urlparse

import pytest

from bookdev import widgets as wd
from bookdev.browser import ROOT, SITE
from bookdev.site import load

pytestmark = pytest.mark.browser

PAGE = "book/06_scaling.html"  # the sharpening slider and code cells on one page


def _sharpening_matches_python(widget: wd.Widget, position: int) -> None:
    widget.set_range("d_k", position)
    expected = wd.expected_sharpening(widget.state, position)
    shown = widget.texts()
    assert wd.number(shown["d_k-readout"]) == expected["d_k"]
    assert abs(wd.number(shown["unscaled-max"]) - expected["unscaled"]["max_weight"]) <= 0.5e-3 + 1e-9


# The page's code cells as they are (those thebe turns live: sphinx-thebe's selector), and what thebe
# leaves of its own: live cells, run buttons that are not disabled, editors. A code block's tabindex
# is left out: the theme sets it from the layout (0 where the block scrolls, else -1) 300 ms after
# any change to the page, so on a busy machine it can change between two readings of the same cells.
_CELLS = """() => ({
  cells: [...document.querySelectorAll(thebe_selector)].map((c) => {
    const copy = c.cloneNode(true);
    copy.querySelectorAll("pre[tabindex]").forEach((pre) => pre.removeAttribute("tabindex"));
    return copy.outerHTML;
  }),
  thebe: document.querySelectorAll(".thebe-cell, .CodeMirror").length,
  runnable: [...document.querySelectorAll(".thebe-button, .thebelab-button")].filter((b) => !b.disabled).length,
})"""


def test_live_code_offline_says_so_the_sliders_keep_working_and_require_js_is_the_sites(offline_page, site_url) -> None:  # noqa: ANN001
    """One load of the page: Live Code started offline says so, gives the cells back and leaves the sliders
    computing; then thebe's require.js comes from the site (:func:`_thebe_fetches_require_js_from_the_site`)."""
    page, log = offline_page
    load(page, f"{site_url}/{PAGE}")
    wd.wait_for_widgets(page)
    before = page.evaluate(_CELLS)
    assert len(before["cells"]) > 3 and before["thebe"] == 0, before
    page.evaluate("() => { window.ATTNBOOK_LIVE_CODE_TIMEOUT_MS = 20000; }")  # the page's limit is 90 s
    page.click(".dropdown-launch-buttons .dropdown-toggle")
    page.click(".btn-launch-thebe")
    assert "CDN" not in page.inner_text(".thebe-launch-button"), "the page says thebe comes from a CDN"
    message = page.wait_for_selector(".attnbook-live-code-message", timeout=40_000)
    text = message.inner_text()
    assert "Live Code could not start" in text
    assert "Binder" in text and "Colab" in text, text
    hrefs = message.eval_on_selector_all("a", "(links) => links.map((a) => a.href)")
    assert any("mybinder.org" in h for h in hrefs) and any("colab.research.google.com" in h for h in hrefs), hrefs
    assert message.get_attribute("role") == "alert"

    # the cells are back as they were: code and stored outputs, no editor whose run button does nothing
    page.wait_for_function("() => document.querySelectorAll('.thebe-cell').length === 0", timeout=5_000)
    after = page.evaluate(_CELLS)
    assert after["thebe"] == 0 and after["runnable"] == 0, f"thebe's editors are left on the page: {after['thebe']}"
    assert after["cells"] == before["cells"], "the code cells differ from the page's own after Live Code failed"

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
    _thebe_fetches_require_js_from_the_site(page, log, site_url)


# The URL from which thebe's widget manager fetches require.js once a kernel connects (thebe 0.9.3).
THEBE_REQUIREJS = "https://cdnjs.cloudflare.com/ajax/libs/require.js/"


def _thebe_fetches_require_js_from_the_site(page, log, site_url: str) -> None:  # noqa: ANN001
    """Once Live Code is on, thebe's request for require.js (made when a kernel's widget needs it)
    is answered by the site's copy, the version package-lock.json pins, and nothing else is asked
    of the CDN. Without a kernel to connect to, the test makes thebe's own request itself: the URL
    is read from the site's thebe bundle, so a thebe that fetched another URL would fail here."""
    bundle = (SITE / "_static" / "_vendor" / "thebe" / "index.js").read_text(encoding="utf-8")
    urls = sorted({bundle[i:bundle.index('"', i)] for i in _find_all(bundle, THEBE_REQUIREJS)})
    assert len(urls) == 1, f"thebe's bundle fetches require.js from {urls}"
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    pinned = lock["packages"]["node_modules/requirejs"]["version"]

    got = page.evaluate("""async (url) => {
      const r = await fetch(url);
      return { ok: r.ok, url: r.url, text: await r.text() };
    }""", urls[0])
    assert got["ok"] and urlparse(got["url"]).netloc == urlparse(site_url).netloc, got["url"]
    assert got["url"].endswith("/_static/_vendor/requirejs/require.js"), got["url"]
    assert f"RequireJS {pinned} " in got["text"][:400], got["text"][:200]
    assert not any("cdnjs" in u for u in log.external), log.external


def _find_all(text: str, needle: str) -> list[int]:
    out, i = [], text.find(needle)
    while i >= 0:
        out.append(i)
        i = text.find(needle, i + 1)
    return out
