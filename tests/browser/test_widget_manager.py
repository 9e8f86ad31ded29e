"""The site's widget manager (_ext/vendor/widget-manager, built by _ext/site_assets/widget_manager.py) is
@jupyter-widgets/html-manager without the ipywidgets controls and output widgets, which the book's
widget state does not use. A page whose state names one of them must say so in the console (which the
browser tests fail on), naming the class, rather than leave a silently empty space."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from bookdev import browser as bb
from bookdev.site import STATE_MIME, VIEW_MIME

pytestmark = pytest.mark.browser

MISSING = "is not in this site's widget manager"


def _page(models: dict[str, tuple[str, str, str]]) -> str:
    """A page as the book's are built: the site's scripts of nb_ipywidgets_js, a widget state holding
    ``models`` (id -> (module, version, model class)) and one view of each."""
    state = {"version_major": 2, "version_minor": 0, "state": {
        mid: {"model_module": module, "model_module_version": version, "model_name": name, "state": {}}
        for mid, (module, version, name) in models.items()}}
    views = "".join(f'<div><script type="{VIEW_MIME}">{json.dumps({"version_major": 2, "version_minor": 0, "model_id": mid})}'
                    "</script></div>" for mid in models)
    scripts = "".join(f'<script src="_static/_vendor/{src}"></script>'
                      for src in ("requirejs/require.js", "widgets-loader.js", "html-manager/embed-amd.js"))
    return (f"<!DOCTYPE html><html><head><title>t</title>{scripts}</head><body>"
            f'<script type="{STATE_MIME}">{json.dumps(state)}</script>{views}</body></html>')


@pytest.fixture(scope="module")
def fixture_site(site_url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:  # site_url: the site is built
    root = tmp_path_factory.mktemp("widget-pages")
    shutil.copytree(bb.SITE / "_static" / "_vendor", root / "_static" / "_vendor")
    (root / "controls.html").write_text(_page({"s1": ("@jupyter-widgets/controls", "2.0.0", "IntSliderModel")}))
    (root / "output.html").write_text(_page({"o1": ("@jupyter-widgets/output", "1.0.0", "OutputModel")}))
    (root / "ipywidgets7.html").write_text(_page({"b1": ("@jupyter-widgets/controls", "1.5.0", "FloatSliderModel")}))
    return root


def _errors_after_load(browser: Any, root: Path, name: str) -> tuple[list[str], list[str]]:
    with bb.serve(root) as url, bb.offline_page(browser, url) as (page, log):
        page.goto(f"{url}/{name}")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(MISSING in e for e in log.console_errors):
            page.wait_for_timeout(100)
        return list(log.console_errors), list(log.external)


@pytest.mark.parametrize(("name", "module", "model"), [
    ("controls.html", "@jupyter-widgets/controls", "IntSliderModel"),
    ("output.html", "@jupyter-widgets/output", "OutputModel"),
    ("ipywidgets7.html", "@jupyter-widgets/controls7", "FloatSliderModel"),  # state of ipywidgets 7
])
def test_a_widget_the_manager_leaves_out_is_a_named_console_error(browser, fixture_site, name, module, model) -> None:  # noqa: ANN001
    errors, external = _errors_after_load(browser, fixture_site, name)
    assert external == []
    assert [e for e in errors if MISSING in e and f"{module}: {model} " in e], errors
