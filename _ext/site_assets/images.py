"""PNG shrinking: the site's copies of the figures, re-encoded smaller."""

from __future__ import annotations

import io
from pathlib import Path


def optimize_images(outdir: Path, max_mean_error: float = 0.25) -> tuple[int, int]:
    """Re-encode the site's PNG figures smaller; returns (bytes before, bytes after).

    matplotlib writes 8-bit RGBA; the book's figures are opaque (a white card), so the alpha channel
    goes, and a figure is stored with a 256-colour palette when that changes its pixels by less than
    ``max_mean_error`` levels of 255 on average (heatmaps and line plots: about 0.03), otherwise as
    optimized RGB. A file is replaced only when the new one is smaller. The notebooks keep their
    own PNGs; only the site's copies in ``_images/`` change. The figure's ``attnlib:`` text chunks
    (its smallest text, ``attnlib.style.TEXT_KEY``, which the browser tests read) are kept.
    """
    import numpy as np
    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    before = after = 0
    for path in sorted((outdir / "_images").glob("*.png")):
        size = path.stat().st_size
        with Image.open(path) as im:
            im.load()
        info = PngInfo()
        for key, value in getattr(im, "text", {}).items():
            if key.startswith("attnlib:"):
                info.add_text(key, value)
        if im.mode == "RGBA" and im.getchannel("A").getextrema() == (255, 255):
            im = im.convert("RGB")
        candidate = im
        if im.mode == "RGB":
            pal = im.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            error = np.abs(np.asarray(im, dtype=np.int16) - np.asarray(pal.convert("RGB"), dtype=np.int16)).mean()
            if error < max_mean_error:  # a palette: smaller than the optimized RGB file on all 56 figures of the
                candidate = pal  # book (2026-11), so that one is not encoded too (half of this step's time)
        buffer = io.BytesIO()
        candidate.save(buffer, "PNG", optimize=True, pnginfo=info)
        if buffer.tell() < size:
            path.write_bytes(buffer.getvalue())
        before, after = before + size, after + min(size, buffer.tell())
    return before, after


