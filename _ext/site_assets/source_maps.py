"""Source maps: the one place they are stripped from the built site."""

from __future__ import annotations

import re
from pathlib import Path

# A line holding only a `//# sourceMappingURL=...` comment (JS; bundles such as embed-amd.js have one
# per module, some ending in ";") or a `/*# sourceMappingURL=... */` comment (CSS).
_SOURCE_MAP_COMMENT = re.compile(rb"\n?^[ \t]*(?://# sourceMappingURL=[^\n]*|/\*# sourceMappingURL=[^\n]*?\*/[ \t]*)$", re.M)


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


