"""Vendoring: the front-end files the pages load (require.js, anywidget's front end, MathJax, thebe)
are copied from ``node_modules`` (pinned in ``package-lock.json``, installed by ``npm ci``; ``make book``
does it) into ``_build/html/_static/_vendor/`` at the start of the build, so that widget pages, math and
Live Code work with no other host reachable. They are copied by this extension, not kept in a source
``_static`` folder: Jupyter Book 1 links every .js/.css it finds in the source static folders into
every page, and these files must load only where they are used (``nb_ipywidgets_js`` and
``mathjax_path`` in ``_config.yml`` name them, relative to ``_static``). :func:`thebe_from_site`
points sphinx-thebe at the site's copy of thebe.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from sphinx.errors import ExtensionError

from .widget_manager import WIDGET_MANAGER_OUT, build_widget_manager

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
VENDOR_DIR = "_static/_vendor"  # in the output; Sphinx resolves script paths relative to _static
# Our own loader script (not from npm): points require.js at the vendored anywidget front end.
LOADER = ROOT / "_ext" / "vendor" / "widgets-loader.js"

# npm package -> (folder under _vendor/, [(glob inside the package, destination sub-folder)]).
# Only what the pages load: no MathJax combined builds (tex-chtml, svg/mml output, node, "full").
VENDOR: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "requirejs": ("requirejs", [("require.js", "")]),
    # The widget manager is not copied: build_widget_manager bundles the package's own embed entry
    # without the controls and output widgets (see WIDGET_MANAGER). Listed for its licence and version.
    "@jupyter-widgets/html-manager": ("html-manager", []),
    # anywidget's AMD front end (AnyModel/AnyView); its ES modules come inline with each widget.
    "anywidget": ("anywidget", [("dist/index.js", "")]),
    # Live Code's front end: thebe's bundle and the chunks it loads next to itself, and its styles.
    # Loaded only when a reader clicks "Live Code" (sphinx-thebe's THEBE_JS_URL, see _thebe_from_site).
    "thebe": ("thebe", [("lib/*.js", ""), ("lib/thebe.css", ""), ("lib/*.LICENSE.txt", "")]),
    "mathjax": (
        "mathjax",
        [
            # startup.js loads the components _config.yml's mathjax3_config lists: TeX in, CommonHTML
            # out, assistive MathML; not the context menu of tex-chtml.js (108 kB of its 264 kB gzipped)
            ("es5/startup.js", ""),
            ("es5/core.js", ""),
            ("es5/input/tex.js", "input"),
            ("es5/output/chtml.js", "output"),
            ("es5/output/chtml/fonts/tex.js", "output/chtml/fonts"),
            ("es5/a11y/assistive-mml.js", "a11y"),
            ("es5/output/chtml/fonts/woff-v2/*.woff", "output/chtml/fonts/woff-v2"),
            ("es5/input/tex/extensions/*.js", "input/tex/extensions"),  # \require / autoload
        ],
    ),
}

def vendor_assets(outdir: Path, node_modules: Path = NODE_MODULES) -> list[Path]:
    """Copy the ``VENDOR`` files from ``node_modules`` into ``outdir/_static/_vendor``; return the copies.

    Raises ``ExtensionError`` naming the command to run if a package or a file is missing.
    """
    dest_root = outdir / VENDOR_DIR
    copied: list[Path] = []
    licenses = []
    for package, (folder, patterns) in VENDOR.items():
        pkg_dir = node_modules / package
        manifest = pkg_dir / "package.json"
        if not manifest.is_file():
            raise ExtensionError(
                f"front-end package {package!r} not found in {node_modules}: the site serves its own "
                "widget and MathJax assets; run 'make book' (or 'npm ci') first"
            )
        meta = json.loads(manifest.read_text(encoding="utf-8"))
        licenses.append(f"{package} {meta.get('version')} ({meta.get('license', 'see package')}): "
                        f"{meta.get('homepage') or meta.get('repository') or 'npm'}")
        for pattern, sub in patterns:
            matches = sorted(pkg_dir.glob(pattern))
            if not matches:
                raise ExtensionError(f"{package}: no file matches {pattern!r} in {pkg_dir}")
            target_dir = dest_root / folder / sub
            target_dir.mkdir(parents=True, exist_ok=True)
            for src in matches:
                dest = target_dir / src.name
                shutil.copyfile(src, dest)  # map comments go in drop_source_maps, with the theme's
                copied.append(dest)
        (dest_root / folder).mkdir(parents=True, exist_ok=True)
        for name in ("LICENSE", "LICENSE.txt", "LICENSE.md"):
            if (pkg_dir / name).is_file():
                shutil.copyfile(pkg_dir / name, dest_root / folder / "LICENSE")
                break
    shutil.copyfile(LOADER, dest_root / LOADER.name)
    copied.append(dest_root / LOADER.name)
    copied += build_widget_manager(dest_root / WIDGET_MANAGER_OUT, node_modules)
    (dest_root / "README.txt").write_text(
        "Front-end assets served by this site (copied from npm packages pinned in package-lock.json):\n"
        + "\n".join(licenses) + "\n",
        encoding="utf-8",
    )
    return copied


# sphinx-thebe's inline config: the bundle's URL (a CDN) and the cells thebe turns live.
_THEBE_URL = re.compile(r'const THEBE_JS_URL = "[^"]*"')
_THEBE_SELECTOR = re.compile(r'const thebe_selector = "[^"]*"')
# The site's copy, relative to the page (Sphinx writes the path to the site's root on <html>).
THEBE_FROM_SITE = ('const THEBE_JS_URL = new URL("_static/_vendor/thebe/index.js", new URL('
                   'document.documentElement.dataset.content_root || "./", document.baseURI)).href')
# Code cells, except those showing a slider: thebe would re-render their output and the slider, which
# works without a kernel, would stop working. (The view's MIME type is not written out in full: the
# tests and tools/page_weight.py find the slider pages by it.)
THEBE_CELLS = 'const thebe_selector = ".cell:not(:has(script[type$=\'widget-view+json\']))"'


def thebe_from_site(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    """Point sphinx-thebe at the site's copy of thebe (it names a CDN, fetched when a reader clicks
    "Live Code"), and keep slider cells out of thebe's reach. Only the kernel then needs the network."""
    scripts = context.get("script_files")
    if not scripts:
        return
    for i, js in enumerate(scripts):
        body = str(js.attributes.get("body") or "")
        if "THEBE_JS_URL" in body:
            new_body = _THEBE_SELECTOR.sub(THEBE_CELLS, _THEBE_URL.sub(THEBE_FROM_SITE, body))
            scripts[i] = type(js)(None, priority=js.priority, **{**js.attributes, "body": new_body})


