"""The site's own front-end assets (_ext/site_tweaks.py): the files the pages load are copied from the
pinned npm packages, without source maps, and the config points at exactly those files."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NODE_MODULES = ROOT / "node_modules"


def _attnbook():
    spec = importlib.util.spec_from_file_location("site_tweaks", ROOT / "_ext" / "site_tweaks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def vendored(tmp_path_factory):  # noqa: ANN001, ANN201
    if not (NODE_MODULES / "mathjax" / "package.json").is_file():
        pytest.fail("node_modules is missing: run 'npm ci' (make test installs it)")
    out = tmp_path_factory.mktemp("html")
    copied = _attnbook().vendor_assets(out)
    return out, copied


def _config() -> dict:
    return yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["sphinx"]["config"]


def test_config_points_at_vendored_files(vendored) -> None:  # noqa: ANN001
    out, _ = vendored
    config = _config()
    loaded = [config["mathjax_path"], *config["nb_ipywidgets_js"]]
    assert len(loaded) == 4
    for path in loaded:
        assert "://" not in path, f"{path} would be loaded from another host"
        assert (out / "_static" / path).is_file(), f"{path} is not produced by vendor_assets"
    # order matters: require.js, then the loader that configures it, then the manager
    assert [Path(p).name for p in config["nb_ipywidgets_js"]] == ["require.js", "widgets-loader.js", "embed-amd.js"]


def test_no_source_maps_and_no_unused_mathjax_builds(vendored) -> None:  # noqa: ANN001
    out, copied = vendored
    assert copied and all(p.is_file() for p in copied)
    names = {p.name for p in copied}
    assert not any(n.endswith(".map") for n in names)
    for p in copied:
        if p.suffix == ".js":  # a map comment would send devtools looking for a file we do not ship
            lines = p.read_text(encoding="utf-8").split("\n")
            assert not [x for x in lines if x.lstrip().startswith("//# sourceMappingURL=")], p
    mathjax = {p.relative_to(out / "_static" / "_vendor" / "mathjax").as_posix() for p in copied if "mathjax" in p.parts}
    assert "tex-chtml.js" in mathjax and "output/chtml/fonts/woff-v2/MathJax_Main-Regular.woff" in mathjax
    assert not {"tex-svg.js", "tex-mml-chtml.js", "tex-chtml-full.js", "node-main.js", "mml-chtml.js"} & mathjax
    size = sum(p.stat().st_size for p in copied)
    assert size < 12_000_000, f"vendored assets are {size / 1e6:.1f} MB"


def test_vendored_versions_are_the_pinned_ones(vendored) -> None:  # noqa: ANN001
    out, _ = vendored
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]
    readme = (out / "_static" / "_vendor" / "README.txt").read_text(encoding="utf-8")
    for package in ("requirejs", "@jupyter-widgets/html-manager", "anywidget", "mathjax"):
        installed = json.loads((NODE_MODULES / package / "package.json").read_text(encoding="utf-8"))["version"]
        assert installed == pinned[package] and f"{package} {installed}" in readme


def test_front_end_matches_the_python_widget_packages() -> None:
    """The vendored anywidget front end must be the release of the Python anywidget that writes the
    widget state; the html-manager 1.x renders ipywidgets 8 state."""
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert pinned["anywidget"] == importlib.metadata.version("anywidget")
    assert pinned["@jupyter-widgets/html-manager"].startswith("1.")
    assert importlib.metadata.version("ipywidgets").startswith("8.")


def test_missing_node_modules_is_a_clear_error(tmp_path: Path) -> None:
    from sphinx.errors import ExtensionError

    with pytest.raises(ExtensionError, match="run 'make book'"):
        _attnbook().vendor_assets(tmp_path / "html", node_modules=tmp_path / "nothing")
