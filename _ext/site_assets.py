"""The front-end assets the site serves itself (a local Sphinx extension named in _config.yml).

1. ``vendor_assets``: widget pages, math and Live Code's front end (thebe) work with no other host
   reachable; ``_thebe_from_site`` points sphinx-thebe at the site's copy of thebe. The files listed in
   ``VENDOR`` are copied from ``node_modules`` (pinned in ``package-lock.json``, installed by
   ``npm ci``; ``make book`` does it) into ``_build/html/_static/_vendor/`` at the start of the build;
   the slider pages' widget manager is bundled there from the same packages (``build_widget_manager``).
   They are copied by this extension, not kept in a source ``_static`` folder: Jupyter Book 1 links
   every .js/.css it finds in the source static folders into every page, and these files must load
   only where they are used (``nb_ipywidgets_js`` and ``mathjax_path`` in ``_config.yml`` name them,
   relative to ``_static``).
2. ``drop_source_maps``: when the build finishes, every ``*.map`` file of the site (the themes' and the
   vendored packages', half the site's bytes, fetched only by a browser's developer tools) and the
   comments pointing at them are removed. This is the one place source maps are stripped.

3. ``subset_fontawesome`` and ``subset_fontawesome_fonts``: the theme's icon script and icon fonts
   keep only the icons the site uses (they were 0.8 MB of every page's 1.4 MB, gzipped).

4. ``optimize_images``: the figures' PNG copies in ``_images/`` lose their (opaque) alpha channel and,
   where that is visually lossless, take a 256-colour palette (about a third of the bytes).

The fixes to the theme's pages are in ``theme_fixes.py``.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
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

# The widget manager the slider pages load (nb_ipywidgets_js in _config.yml names its output): built by
# esbuild (a pinned devDependency) from @jupyter-widgets/html-manager's own AMD embed entry, without the
# ipywidgets controls, ipywidgets 7 and output widgets that its dist/embed-amd.js bundles (0.92 MB of
# its gzipped size; the book's widget state holds only anywidget models and base layouts).
WIDGET_MANAGER = Path(__file__).resolve().parent / "vendor" / "widget-manager" / "build.mjs"
WIDGET_MANAGER_OUT = "html-manager/embed-amd.js"  # under _vendor/

# A line holding only a `//# sourceMappingURL=...` comment (JS; bundles such as embed-amd.js have one
# per module, some ending in ";") or a `/*# sourceMappingURL=... */` comment (CSS).
_SOURCE_MAP_COMMENT = re.compile(rb"\n?^[ \t]*(?://# sourceMappingURL=[^\n]*|/\*# sourceMappingURL=[^\n]*?\*/[ \t]*)$", re.M)


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


def build_widget_manager(outfile: Path, node_modules: Path = NODE_MODULES) -> list[Path]:
    """Bundle the slider pages' widget manager into ``outfile`` (``WIDGET_MANAGER``, run with node);
    return the files written (the bundle and the licences of the code it holds).

    Raises ``ExtensionError`` naming the command to run if node or esbuild is missing or the build fails.
    """
    if not (node_modules / "esbuild" / "package.json").is_file():
        raise ExtensionError(f"esbuild not found in {node_modules}: the site builds its own widget manager; "
                             "run 'make book' (or 'npm ci') first")
    node = shutil.which("node")
    if node is None:
        raise ExtensionError("node not found on PATH: the site builds its own widget manager with it (see README)")
    outfile.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([node, str(WIDGET_MANAGER), str(outfile)], capture_output=True, text=True, check=False)
    if done.returncode != 0 or not outfile.is_file():
        raise ExtensionError(f"building the widget manager failed ({WIDGET_MANAGER}):\n{done.stderr}{done.stdout}")
    return [outfile, *sorted(outfile.parent.glob(outfile.name + ".LEGAL.txt"))]


def _vendor_on_init(app: Any) -> None:
    if app.builder is None or app.builder.format != "html":
        return
    copied = vendor_assets(Path(app.outdir))
    logger.info(f"[site_assets] copied {len(copied)} front-end files into {VENDOR_DIR}/")


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


def _thebe_from_site(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
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


def drop_source_maps(outdir: Path) -> list[Path]:
    """Delete the ``*.map`` files of the built site and the comments that point at them.

    The themes and the vendored packages ship source maps (about half of the site's bytes) that only
    a browser's developer tools ever fetch. Returns the deleted files. Called when the HTML build
    finishes; the only place maps are stripped.
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


# One icon of Font Awesome's packs in the theme's fontawesome.js: `name:[width,height,[aliases],
# "unicode","svg path" or ["path", ...]]`, the name quoted or not.
_ICON = re.compile(
    r'(?<=[{,])("[a-z0-9-]+"|[a-zA-Z_$][\w$]*):\[\d+,\d+,\[([^\]]*)\],"[0-9a-f]+",'
    r'(?:"(?:[^"\\]|\\.)*"|\[(?:"(?:[^"\\]|\\.)*",?)*\])\],?'
)
_ICON_CLASS = re.compile(r"fa-([a-z0-9]+(?:-[a-z0-9]+)*)")
FONTAWESOME_JS = "_static/scripts/fontawesome.js"


def icons_used(outdir: Path) -> set[str]:
    """Font Awesome icon names (``fa-rocket`` -> ``rocket``) named by the site's pages and the theme's
    scripts (which add some icons at run time). The vendored bundles are not the theme's: skipped."""
    fontawesome = outdir / FONTAWESOME_JS
    used: set[str] = set()
    for path in [*outdir.rglob("*.html"), *outdir.rglob("*.js")]:
        if path == fontawesome or "_vendor" in path.relative_to(outdir).parts:
            continue
        used |= set(_ICON_CLASS.findall(path.read_text(encoding="utf-8", errors="ignore")))
    return used


def subset_fontawesome(outdir: Path) -> tuple[int, int]:
    """Keep in the theme's ``fontawesome.js`` only the icons the site uses (by name or alias).

    The theme ships every free icon (1.5 MB, 0.54 MB gzipped) and loads it on every page; the book
    shows about twenty. An icon the pages name but the file lost would log "Icon with name ... is
    missing." to the console, which the browser tests fail on. Returns (icons kept, icons dropped).
    """
    path = outdir / FONTAWESOME_JS
    if not path.is_file():
        return (0, 0)
    used = icons_used(outdir)
    counts = [0, 0]

    def keep(m: re.Match) -> str:
        aliases = set(re.findall(r'"([^"]+)"', m.group(2)))
        if m.group(1).strip('"') in used or aliases & used:
            counts[0] += 1
            return m.group(0)
        counts[1] += 1
        return ""

    path.write_text(_ICON.sub(keep, path.read_text(encoding="utf-8")), encoding="utf-8")
    return counts[0], counts[1]


FONTAWESOME_CSS = "_static/styles/pydata-sphinx-theme.css"
WEBFONTS = "_static/vendor/fontawesome/webfonts"
_FONT_URL = re.compile(r'url\((?P<dir>[^)]*/webfonts/)(?P<name>fa-[a-z]+-\d+)\.woff2\) format\("woff2"\),url\([^)]*\.ttf\) format\("truetype"\)')


def _codepoints_used(outdir: Path) -> set[int]:
    """Font Awesome code points the site can show: the icons kept in fontawesome.js (their code point
    and aliases) and the theme's CSS icons (``--pst-icon-*`` variables, ``content: "\\f..."``)."""
    points: set[int] = set()
    js = (outdir / FONTAWESOME_JS).read_text(encoding="utf-8")
    for m in _ICON.finditer(js):
        points.add(int(re.search(r'\],"([0-9a-f]+)"', m.group(0)).group(1), 16))
        points |= {int(x) for x in re.findall(r"\d+", m.group(2))}
    for css in (outdir / "_static").rglob("*.css"):
        if "_vendor" in css.parts:
            continue
        text = css.read_text(encoding="utf-8", errors="ignore")
        points |= {ord(c) for v in re.findall(r'--pst-icon-[a-z-]+:\s*"([^"]*)"', text) for c in v}
        for selector, code in re.findall(r'([^{}]*)\{[^{}]*?content:\s*"\\(f[0-9a-f]{3})"', text):
            if ".fa-" not in selector and ".fa:" not in selector:  # not Font Awesome's own list of every icon
                points.add(int(code, 16))
    return {p for p in points if 0xE000 <= p <= 0xF8FF or p >= 0xF0000}  # private-use: the icon glyphs


def subset_fontawesome_fonts(outdir: Path) -> dict[str, int]:
    """The theme's Font Awesome web fonts (solid 156 kB, brands 118 kB, regular), which every page
    loads for the icons drawn by CSS, cut to the code points the site uses (``_codepoints_used``)
    and written as WOFF (zlib; WOFF2 would need brotli) from the shipped TTF files; the theme's
    ``@font-face`` rules point at them. Returns the bytes of each new font."""
    from fontTools import subset

    css_path, fonts = outdir / FONTAWESOME_CSS, outdir / WEBFONTS
    if not css_path.is_file() or not fonts.is_dir():
        return {}
    points = _codepoints_used(outdir)
    written = {}
    for ttf in sorted(fonts.glob("fa-*.ttf")):
        options = subset.Options()
        options.flavor = "woff"
        options.layout_features = ["*"]
        font = subset.load_font(str(ttf), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=points)
        subsetter.subset(font)
        out = ttf.with_suffix(".woff")
        subset.save_font(font, str(out), options)
        written[out.name] = out.stat().st_size
    css = css_path.read_text(encoding="utf-8")
    css_path.write_text(_FONT_URL.sub(r'url(\g<dir>\g<name>.woff) format("woff")', css), encoding="utf-8")
    return written


def optimize_images(outdir: Path, max_mean_error: float = 0.25) -> tuple[int, int]:
    """Re-encode the site's PNG figures smaller; returns (bytes before, bytes after).

    matplotlib writes 8-bit RGBA; the book's figures are opaque (a white card), so the alpha channel
    goes, and a figure is stored with a 256-colour palette when that changes its pixels by less than
    ``max_mean_error`` levels of 255 on average (heatmaps and line plots: about 0.03), otherwise as
    optimized RGB. A file is replaced only when the new one is smaller. The notebooks keep their
    own PNGs; only the site's copies in ``_images/`` change.
    """
    import numpy as np
    from PIL import Image

    before = after = 0
    for path in sorted((outdir / "_images").glob("*.png")):
        size = path.stat().st_size
        with Image.open(path) as im:
            im.load()
        if im.mode == "RGBA" and im.getchannel("A").getextrema() == (255, 255):
            im = im.convert("RGB")
        candidates = []
        if im.mode == "RGB":
            pal = im.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            error = np.abs(np.asarray(im, dtype=np.int16) - np.asarray(pal.convert("RGB"), dtype=np.int16)).mean()
            if error < max_mean_error:
                candidates.append(pal)
        candidates.append(im)
        best, best_size = None, size
        for candidate in candidates:
            buffer = io.BytesIO()
            candidate.save(buffer, "PNG", optimize=True)
            if buffer.tell() < best_size:
                best, best_size = buffer.getvalue(), buffer.tell()
        if best is not None:
            path.write_bytes(best)
        before, after = before + size, after + best_size
    return before, after


def _build_finished(app: Any, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        drop_source_maps(Path(app.outdir))
        kept, dropped = subset_fontawesome(Path(app.outdir))
        logger.info(f"[site_assets] fontawesome.js: kept {kept} icons the site uses, dropped {dropped}")
        fonts = subset_fontawesome_fonts(Path(app.outdir))
        logger.info(f"[site_assets] Font Awesome fonts cut to the icons used: {fonts}")
        before, after = optimize_images(Path(app.outdir))
        logger.info(f"[site_assets] figures re-encoded: {before / 1e6:.2f} MB -> {after / 1e6:.2f} MB")


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _vendor_on_init)
    app.connect("build-finished", _build_finished)
    app.connect("html-page-context", _thebe_from_site, priority=100)  # before a handler that returns a value
    return {"parallel_read_safe": True, "parallel_write_safe": True}
