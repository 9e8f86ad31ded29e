"""The front-end assets the site serves itself (a local Sphinx extension named in _config.yml).

One module per job:

1. ``vendor``: the files the pages load (require.js, anywidget's front end, MathJax, thebe) are
   copied from the pinned npm packages when the build starts; sphinx-thebe is pointed at the site's
   copy of thebe.
2. ``widget_manager``: the slider pages' widget manager, bundled by esbuild.
3. ``source_maps``: when the build finishes, every ``*.map`` file and the comments pointing at them
   are removed (half the site's bytes, fetched only by a browser's developer tools).
4. ``icons`` and 5. ``icon_fonts``: the theme's icon script and icon fonts keep only the icons the
   site uses (they were 0.8 MB of every page's 1.4 MB, gzipped).
6. ``images``: the figures' PNG copies in ``_images/`` are re-encoded smaller.

This file only connects them to Sphinx's events. The fixes to the theme's pages are in
``theme_fixes.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.util import logging

from .icon_fonts import subset_fontawesome_fonts
from .icons import subset_fontawesome
from .images import optimize_images
from .source_maps import drop_source_maps
from .vendor import VENDOR_DIR, thebe_from_site, vendor_assets

logger = logging.getLogger(__name__)


def _vendor_on_init(app: Any) -> None:
    if app.builder is None or app.builder.format != "html":
        return
    copied = vendor_assets(Path(app.outdir))
    logger.info(f"[site_assets] copied {len(copied)} front-end files into {VENDOR_DIR}/")


def _build_finished(app: Any, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        out = Path(app.outdir)
        drop_source_maps(out)
        kept, dropped = subset_fontawesome(out)
        logger.info(f"[site_assets] fontawesome.js: kept {kept} icons the site uses, dropped {dropped}")
        logger.info(f"[site_assets] Font Awesome fonts cut to the icons used: {subset_fontawesome_fonts(out)}")
        before, after = optimize_images(out)
        logger.info(f"[site_assets] figures re-encoded: {before / 1e6:.2f} MB -> {after / 1e6:.2f} MB")


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _vendor_on_init)
    app.connect("build-finished", _build_finished)
    app.connect("html-page-context", thebe_from_site, priority=100)  # before a handler that returns a value
    return {"parallel_read_safe": True, "parallel_write_safe": True}
