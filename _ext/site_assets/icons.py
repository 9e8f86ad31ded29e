"""The theme's icon script (Font Awesome's ``fontawesome.js``), cut to the icons the site uses."""

from __future__ import annotations

import re
from pathlib import Path

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


