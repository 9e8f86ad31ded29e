"""The theme's icon fonts (Font Awesome's web fonts), cut to the code points the site shows."""

from __future__ import annotations

import re
from pathlib import Path

from .icons import _ICON, FONTAWESOME_JS

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


