"""The site's own front-end assets (_ext/site_assets/): the files the pages load are copied from the
pinned npm packages, without source maps, and the config points at exactly those files."""

from __future__ import annotations

import importlib.metadata
import json
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
sys.path.insert(0, str(ROOT / "_ext"))  # as Jupyter Book puts it for the site's extensions

from site_assets import icons, images, source_maps, vendor  # noqa: E402


@pytest.fixture(scope="module")
def vendored(tmp_path_factory):  # noqa: ANN001, ANN201
    if not (NODE_MODULES / "mathjax" / "package.json").is_file():
        pytest.fail("node_modules is missing: run 'npm ci' (make test installs it)")
    out = tmp_path_factory.mktemp("html")
    copied = vendor.vendor_assets(out)
    source_maps.drop_source_maps(out)  # as the build does when it finishes
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
    # startup.js and the components mathjax3_config asks it to load, nothing bundled twice
    components = _config()["mathjax3_config"]["loader"]["load"]
    assert {"startup.js", "core.js", "output/chtml/fonts/tex.js"} <= mathjax
    assert {f"{c}.js" for c in components} <= mathjax, components
    assert "output/chtml/fonts/woff-v2/MathJax_Main-Regular.woff" in mathjax
    assert not {"tex-chtml.js", "tex-svg.js", "tex-mml-chtml.js", "tex-chtml-full.js", "node-main.js", "mml-chtml.js",
                "ui/menu.js"} & mathjax
    size = sum(p.stat().st_size for p in copied)
    assert size < 12_000_000, f"vendored assets are {size / 1e6:.1f} MB"


def test_vendored_versions_are_the_pinned_ones(vendored) -> None:  # noqa: ANN001
    out, _ = vendored
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]
    readme = (out / "_static" / "_vendor" / "README.txt").read_text(encoding="utf-8")
    for package in ("requirejs", "@jupyter-widgets/html-manager", "anywidget", "mathjax", "thebe"):
        installed = json.loads((NODE_MODULES / package / "package.json").read_text(encoding="utf-8"))["version"]
        assert installed == pinned[package] and f"{package} {installed}" in readme


def test_front_end_matches_the_python_widget_packages() -> None:
    """The vendored anywidget front end must be the release of the Python anywidget that writes the
    widget state; the html-manager 1.x renders ipywidgets 8 state."""
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert pinned["anywidget"] == importlib.metadata.version("anywidget")
    assert pinned["@jupyter-widgets/html-manager"].startswith("1.")
    assert importlib.metadata.version("ipywidgets").startswith("8.")


def test_widget_manager_is_built_without_the_controls(vendored) -> None:  # noqa: ANN001
    """The slider pages' manager is bundled from html-manager's own modules, defines what anywidget's
    front end and the page ask require.js for, and leaves out the controls and output widgets (the
    library's dist/embed-amd.js is 0.92 MB gzipped)."""
    import gzip

    out, copied = vendored
    manager = out / "_static" / "_vendor" / "html-manager" / "embed-amd.js"
    assert manager in copied
    code = manager.read_text(encoding="utf-8")
    for module in ("@jupyter-widgets/base", "@jupyter-widgets/html-manager", "@jupyter-widgets/html-manager/dist/libembed-amd"):
        assert f'("{module}",[],' in code, module  # define(name, [], ...), minified
    assert "IntSliderModel" not in code and "OutputArea" not in code  # controls, the output widget
    assert "is not in this site's widget manager" in code  # what a page asking for them logs
    gzipped = len(gzip.compress(manager.read_bytes(), compresslevel=6))
    assert gzipped < 450_000, f"widget manager is {gzipped / 1e3:.0f} kB gzipped"
    assert not list(manager.parent.glob("*.woff*")), "the manager's Font Awesome fonts are not served"


def test_missing_node_modules_is_a_clear_error(tmp_path: Path) -> None:
    from sphinx.errors import ExtensionError

    with pytest.raises(ExtensionError, match="run 'make book'"):
        vendor.vendor_assets(tmp_path / "html", node_modules=tmp_path / "nothing")


def test_fontawesome_keeps_only_the_icons_the_site_names(tmp_path: Path) -> None:
    scripts = tmp_path / "_static" / "scripts"
    scripts.mkdir(parents=True)
    (scripts / "fontawesome.js").write_text(
        'var p={rocket:[512,512,[],"f135","M1 1"],"cc-visa":[576,512,[],"f1f0","M2 2"],'
        '"magnifying-glass":[512,512,[128269,"search"],"f002","M3 3"],duo:[640,512,[],"f000",["M4","M5"]]};',
        encoding="utf-8")
    (tmp_path / "page.html").write_text('<i class="fas fa-rocket"></i><i class="fa fa-search"></i>', encoding="utf-8")
    (scripts / "theme.js").write_text('icon.className = "fa-solid fa-duo";', encoding="utf-8")
    assert icons.subset_fontawesome(tmp_path) == (3, 1)
    text = (scripts / "fontawesome.js").read_text(encoding="utf-8")
    assert text == 'var p={rocket:[512,512,[],"f135","M1 1"],"magnifying-glass":[512,512,[128269,"search"],"f002","M3 3"],duo:[640,512,[],"f000",["M4","M5"]]};'


def test_figures_are_reencoded_smaller_and_look_the_same(tmp_path: Path) -> None:
    import numpy as np
    from PIL import Image

    figures = tmp_path / "_images"
    figures.mkdir()
    rng = np.random.default_rng(0)
    plot = np.full((120, 160, 4), 255, dtype=np.uint8)  # an opaque figure with a few colours
    plot[20:100, 30:130, :3] = rng.choice([[68, 1, 84], [33, 145, 140], [253, 231, 37]], size=(80, 100))
    Image.fromarray(plot, "RGBA").save(figures / "plot.png")
    noise = rng.integers(0, 256, size=(64, 64, 3), dtype=np.uint8)  # a palette would change it: kept RGB
    Image.fromarray(noise, "RGB").save(figures / "noise.png")
    before, after = images.optimize_images(tmp_path)
    assert after < before
    with Image.open(figures / "plot.png") as im:
        assert im.mode == "P" and np.array_equal(np.asarray(im.convert("RGB")), plot[:, :, :3])
    with Image.open(figures / "noise.png") as im:
        assert np.array_equal(np.asarray(im.convert("RGB")), noise)
