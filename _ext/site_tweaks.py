"""Site tweaks for the book's Sphinx build (registered in _config.yml as a local extension).

1. ``_dedupe_scripts``: drop doubled inline scripts (sphinx-thebe); ``_default_mode``: a valid theme
   mode on a first visit.
2. ``_vendor_assets``: the site serves its own front-end assets, so widget pages and math work with
   no other host reachable. The files listed in ``VENDOR`` are copied from ``node_modules`` (pinned in
   ``package-lock.json``, installed by ``npm ci``; ``make book`` does it) into
   ``_build/html/_static/_vendor/`` at the start of the build. They are copied by this extension, not
   kept in a source ``_static`` folder: Jupyter Book 1 links every .js/.css it finds in the source
   static folders into every page, and these files must load only where they are used
   (``nb_ipywidgets_js`` and ``mathjax_path`` in ``_config.yml`` name them, relative to ``_static``).
3. ``drop_source_maps``: when the build finishes, the themes' ``*.map`` files (half the site's bytes,
   fetched only by a browser's developer tools) and the comments pointing at them are removed.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]
NODE_MODULES = ROOT / "node_modules"
VENDOR_DIR = "_static/_vendor"  # in the output; Sphinx resolves script paths relative to _static
# Our own loader script (not from npm): points require.js at the vendored anywidget front end.
LOADER = Path(__file__).resolve().parent / "vendor" / "widgets-loader.js"

# npm package -> (folder under _vendor/, [(glob inside the package, destination sub-folder)]).
# Only what the pages load: no source maps, no other MathJax builds (svg/mml output, node, "full").
VENDOR: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "requirejs": ("requirejs", [("require.js", "")]),
    "@jupyter-widgets/html-manager": (
        "html-manager",
        # embed-amd.js bundles require-able @jupyter-widgets/base, controls and the manager; the
        # Font Awesome fonts are fetched only if a widget shows an icon (modern formats only).
        [("dist/embed-amd.js", ""), ("dist/*.woff2", ""), ("dist/*.woff", "")],
    ),
    # anywidget's AMD front end (AnyModel/AnyView); its ES modules come inline with each widget.
    "anywidget": ("anywidget", [("dist/index.js", "")]),
    "mathjax": (
        "mathjax",
        [
            ("es5/tex-chtml.js", ""),  # TeX in, CommonHTML out, menu and assistive MathML included
            ("es5/output/chtml/fonts/woff-v2/*.woff", "output/chtml/fonts/woff-v2"),
            ("es5/input/tex/extensions/*.js", "input/tex/extensions"),  # \require / autoload
            ("es5/ui/*.js", "ui"),
            ("es5/a11y/*.js", "a11y"),  # the menu's explorer and speech (opt-in by the reader)
            ("es5/sre/mathmaps/base.json", "sre/mathmaps"),
            ("es5/sre/mathmaps/en.json", "sre/mathmaps"),
            ("es5/sre/mathmaps/nemeth.json", "sre/mathmaps"),
        ],
    ),
}

# `//# sourceMappingURL=x.map` (JS) and `/*# sourceMappingURL=x.map */` (CSS), on a line of its own.
_SOURCE_MAP_COMMENT = re.compile(rb"\n?(?://|/\*)# sourceMappingURL=[^\n]*?\.map(?: ?\*/)?[ \t]*(?=\n|$)")


def _dedupe_scripts(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    """sphinx-thebe registers its inline config script on every `env-before-read-docs` event, which
    fires more than once per Jupyter Book build; the second copy re-declares a `const` and throws a
    page error. Keep the first copy of each script."""
    scripts = context.get("script_files")
    if not scripts:
        return
    seen: set[tuple[str, str]] = set()
    unique = []
    for js in scripts:
        key = (str(js.filename or ""), str(js.attributes.get("body", "")))  # None and "" both mean inline
        if key in seen:
            continue
        seen.add(key)
        unique.append(js)
    scripts[:] = unique


def _copy_script(src: Path, dest: Path) -> None:
    """Copy a JS file without its ``sourceMappingURL`` comments (the maps are not shipped)."""
    text = src.read_text(encoding="utf-8")
    lines = [line for line in text.split("\n") if not line.lstrip().startswith("//# sourceMappingURL=")]
    dest.write_text("\n".join(lines), encoding="utf-8")


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
                if src.suffix == ".js":
                    _copy_script(src, dest)
                else:
                    shutil.copyfile(src, dest)
                copied.append(dest)
        for name in ("LICENSE", "LICENSE.txt", "LICENSE.md"):
            if (pkg_dir / name).is_file():
                shutil.copyfile(pkg_dir / name, dest_root / folder / "LICENSE")
                break
    shutil.copyfile(LOADER, dest_root / LOADER.name)
    copied.append(dest_root / LOADER.name)
    (dest_root / "README.txt").write_text(
        "Front-end assets served by this site (copied from npm packages pinned in package-lock.json):\n"
        + "\n".join(licenses) + "\n",
        encoding="utf-8",
    )
    return copied


def _default_mode(app: Any, config: Any) -> None:
    """pydata-sphinx-theme writes ``localStorage.mode || default_mode`` into the page and logs a console
    error ("Got invalid theme mode") when both are empty, i.e. on a reader's first visit. Default to
    "auto" (follow the system's light/dark setting), unless the config chose a mode."""
    config.html_context.setdefault("default_mode", "auto")


def _vendor_on_init(app: Any) -> None:
    if app.builder is None or app.builder.format != "html":
        return
    copied = vendor_assets(Path(app.outdir))
    logger.info(f"[attnbook] copied {len(copied)} front-end files into {VENDOR_DIR}/")


def drop_source_maps(outdir: Path) -> list[Path]:
    """Delete the ``*.map`` files of the built site and the comments that point at them.

    The themes ship source maps (about half of the site's bytes) that only a browser's developer
    tools ever fetch. Returns the deleted files. Called when the HTML build finishes.
    """
    removed = []
    for path in sorted(outdir.rglob("*.map")):
        path.unlink()
        removed.append(path)
    for path in [*outdir.rglob("*.js"), *outdir.rglob("*.css")]:
        data = path.read_bytes()
        if b"sourceMappingURL=" in data:
            path.write_bytes(_SOURCE_MAP_COMMENT.sub(b"", data))
    return removed


def _build_finished(app: Any, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        drop_source_maps(Path(app.outdir))


def setup(app: Any) -> dict[str, Any]:
    app.connect("config-inited", _default_mode)
    app.connect("builder-inited", _vendor_on_init)
    app.connect("build-finished", _build_finished)
    app.connect("html-page-context", _dedupe_scripts, priority=100)  # html-page-context stops at the first handler that returns a value: run early
    return {"parallel_read_safe": True, "parallel_write_safe": True}
