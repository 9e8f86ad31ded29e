"""Widget and exercise cards that follow the theme (issue 51 §2), read on a loaded page: every chart of every
widget card is a panel of its card's theme (its texts at 4.5:1 against what lies under them, a heat map's
cell at any weight included; its lines, curves, dots and bars at 3:1 against the panel), its buttons are
of the card's theme too, and no card sits in a pale frame in the dark theme (a card is as wide in dark as
in light). test_widgets.py reads them on its load of each widget page; test_any_input.py uses the colour
arithmetic for the writer's strip and the trainer's charts."""

from __future__ import annotations

from typing import Any

from bookdev.site import THEMES, set_theme

RGBA = "const rgba = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return m.length === 3 ? [...m, 1] : m; };"

def lum(rgb: list[float]) -> float:
    """The relative luminance of an sRGB colour (0-255 channels), as WCAG defines it."""
    lin = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: list[float], b: list[float]) -> float:
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def over(top: list[float], under: list[float]) -> list[float]:
    """``top`` (r, g, b, alpha) painted over the opaque ``under``."""
    a = top[3] if len(top) > 3 else 1.0
    return [a * t + (1 - a) * u for t, u in zip(top[:3], under[:3], strict=True)]


# --- cards that follow the theme (issue 51 §2) -----------------------------------------------------------
# Every widget card and exercise card, and what lies between it and its cell's output box: the boxes
# that are painted (a background that is not transparent) or padded, and the card's width.
FRAMES = """() => [...document.querySelectorAll('.attnw, .attnex')].map((card) => {
  const frames = [];
  for (let p = card.parentElement; p && !p.classList.contains('cell_output'); p = p.parentElement) {
    const cs = getComputedStyle(p);
    const painted = !/^(transparent|rgba\\(0, 0, 0, 0\\))$/.test(cs.backgroundColor);
    if (painted || parseFloat(cs.paddingLeft) > 0) frames.push(`${p.tagName.toLowerCase()}.${[...p.classList].join('.')} ${cs.backgroundColor} padding ${cs.paddingLeft}`);
  }
  return { card: card.classList.contains('attnw') ? 'widget' : 'exercise', width: card.getBoundingClientRect().width, frames };
})"""


# Every chart of every widget card on a page, as drawn: its panel over its card; each text's ink and
# the colour under it (the panel, or the painted rectangle or dot its centre lies on, at its opacity); each
# line, curve, dot and bar's paint; a heat map's first cell at the weights 0, 0.25, ..., 1 (its shade
# and opacity as the page computes them); and every enabled button's ground and ink over its card.
CARD_PAINT = f"""() => {{ {RGBA}
  const paint = (c) => (c && c !== 'none' && !c.startsWith('url') ? rgba(c) : null);
  const inside = (b, r) => b.left + b.width / 2 >= r.left && b.left + b.width / 2 <= r.right && b.top + b.height / 2 >= r.top && b.top + b.height / 2 <= r.bottom;
  return [...document.querySelectorAll('.attnw')].map((card) => {{
    const cardBg = rgba(getComputedStyle(card).backgroundColor);
    const charts = [...card.querySelectorAll('.attnw-chart')].map((svg) => {{
      const cells = [...svg.querySelectorAll('rect, circle')].map((r) => {{ const cs = getComputedStyle(r);
        return {{ box: r.getBoundingClientRect(), fill: paint(cs.fill), opacity: Number(cs.fillOpacity), heat: r.classList.contains('attnw-heat') }}; }})
        .filter((c) => c.fill && c.box.width > 0);
      const texts = [...svg.querySelectorAll('text')].filter((e) => e.textContent.trim() && e.getBoundingClientRect().width > 0).map((e) => {{
        const b = e.getBoundingClientRect(), under = cells.filter((c) => inside(b, c.box)).pop();
        return {{ text: e.textContent.slice(0, 12), ink: paint(getComputedStyle(e).fill), under: under ? [...under.fill.slice(0, 3), under.fill[3] * under.opacity] : null }}; }});
      const marks = [];
      for (const e of svg.querySelectorAll('line, polyline, circle, rect, path')) {{
        const cs = getComputedStyle(e), tag = e.tagName.toLowerCase();
        if (paint(cs.stroke) && parseFloat(cs.strokeWidth) > 0) marks.push({{ what: `${{tag}} stroke`, paint: paint(cs.stroke) }});
        if (paint(cs.fill) && !['line', 'polyline'].includes(tag) && !e.classList.contains('attnw-heat')) marks.push({{ what: `${{tag}} fill`, paint: paint(cs.fill) }});
      }}
      const heat = svg.querySelector('rect.attnw-heat'), probes = [];
      if (heat) {{
        const before = heat.style.getPropertyValue('--w');
        for (const w of [0, 0.25, 0.5, 0.75, 1]) {{ heat.style.setProperty('--w', String(w)); const cs = getComputedStyle(heat);
          probes.push({{ weight: w, cell: [...rgba(cs.fill).slice(0, 3), Number(cs.fillOpacity)] }}); }}
        heat.style.setProperty('--w', before);
      }}
      const ink = heat ? rgba(getComputedStyle(svg.querySelector('text.attnw-barval')).fill) : null;
      return {{ name: svg.dataset.name || svg.querySelector('title')?.textContent.slice(0, 30), bg: rgba(getComputedStyle(svg).backgroundColor), texts, marks, probes, ink }}; }});
    const buttons = [...card.querySelectorAll('button')].filter((b) => !b.disabled && b.getBoundingClientRect().width > 0).map((b) => ({{
      name: b.dataset.name || b.textContent.slice(0, 12), bg: rgba(getComputedStyle(b).backgroundColor), ink: rgba(getComputedStyle(b).color) }}));
    return {{ kind: [...card.classList].join('.'), card: cardBg, strip: !!card.querySelector('.attnw-strip'), charts, buttons }};
  }}); }}"""

def paint_problems(theme: str, cards: list) -> list[str]:
    """What in `cards` (from CARD_PAINT) does not follow `theme`: a chart's panel or a button of the other
    theme's lightness; a text under 4.5:1 against what lies under it; a line, curve, dot or bar under 3:1
    against its panel; a heat map's ink under 4.5:1 on a cell of any weight."""
    dark, bad = theme == "dark", []
    for card in cards:
        for ch in card["charts"]:
            where = f"{card['kind']} chart {ch['name']!r}"
            panel = over(ch["bg"], card["card"])
            if (lum(panel) < 0.2) != dark:
                bad.append(f"{where} is drawn on {[round(c) for c in panel]}")
            for tx in ch["texts"]:
                ground = over(tx["under"], panel) if tx["under"] else panel
                if contrast(tx["ink"], ground) < 4.5:
                    bad.append(f"{where}: text {tx['text']!r} {tx['ink']} on {ground}: {contrast(tx['ink'], ground):.2f}:1")
            for mk in ch["marks"]:
                if contrast(mk["paint"], panel) < 3 and [round(c) for c in mk["paint"][:3]] != [round(c) for c in panel]:
                    bad.append(f"{where}: {mk['what']} {mk['paint']} on {panel}: {contrast(mk['paint'], panel):.2f}:1")
            for pr in ch["probes"]:
                cell = over(pr["cell"], panel)
                if contrast(ch["ink"], cell) < 4.5:
                    bad.append(f"{where}: its ink on a cell of weight {pr['weight']}: {contrast(ch['ink'], cell):.2f}:1")
        for b in card["buttons"]:
            ground = over(b["bg"], card["card"])
            if (lum(ground) < 0.2) != dark or contrast(b["ink"], ground) < 4.5:
                bad.append(f"{card['kind']} button {b['name']!r}: {b['ink']} on {[round(c) for c in ground]}")
    return bad


def theme_problems(page: Any, widths: tuple[int, ...]) -> list[str]:
    """What on the loaded widget ``page`` does not follow the theme, at each of ``widths`` in each theme:
    a widget card without a chart or strip, :func:`paint_problems`, a card framed by a painted or padded
    box, a card of another width in dark than in light. Leaves the page in the first theme."""
    problems = []
    for width in widths:
        page.set_viewport_size({"width": width, "height": 900})
        seen = {}
        for theme in THEMES:
            set_theme(page, theme)
            where = f"at {width} px, {theme}"
            cards = page.evaluate(CARD_PAINT)
            if not cards or not all(c["charts"] or c["strip"] for c in cards):
                problems.append(f"{where}: a widget card without a chart: {[(c['kind'], len(c['charts'])) for c in cards]}")
            problems += [f"{where}: {p}" for p in paint_problems(theme, cards)]
            framed = page.evaluate(FRAMES)
            problems += [f"{where}: a {c['card']} card framed by {c['frames']}" for c in framed if c["frames"]]
            seen[theme] = [round(c["width"]) for c in framed]
        if seen["dark"] != seen["light"]:
            problems.append(f"at {width} px: card widths {seen}")
    set_theme(page, THEMES[0])
    return problems


# The writer's attention strip: its ground, its card's, and each word's shade and ink, as the page computes them.
STRIP = f"""() => {{ {RGBA}
  const strip = document.querySelector('.attnw-writer .attnw-strip');
  return {{ bg: rgba(getComputedStyle(strip).backgroundColor), card: rgba(getComputedStyle(strip.closest('.attnw')).backgroundColor),
    cells: [...strip.querySelectorAll('.attnw-cell')].map((c) => ({{ weight: Number(c.dataset.weight),
      bg: rgba(getComputedStyle(c).backgroundColor), ink: rgba(getComputedStyle(c).color) }})),
    probes: [0, 0.25, 0.5, 0.75, 1].map((w) => {{ const c = strip.querySelector('.attnw-cell').cloneNode(true);
      c.style.setProperty('--w', String(w)); strip.append(c);
      const out = {{ weight: w, bg: rgba(getComputedStyle(c).backgroundColor), ink: rgba(getComputedStyle(c).color) }};
      c.remove(); return out; }}) }}; }}"""
# The trainer's charts: each one's panel, axis, label and curve (or first bar), and their card's ground.
CHARTS = f"""() => {{ {RGBA}
  const card = document.querySelector('.attnw-trainer');
  return {{ card: rgba(getComputedStyle(card).backgroundColor), charts: [...card.querySelectorAll('.attnw-chart')].map((svg) => {{
    const curve = svg.querySelector('polyline.attnw-series'), bar = svg.querySelector('rect');
    return {{ name: svg.dataset.name, bg: rgba(getComputedStyle(svg).backgroundColor),
      axis: rgba(getComputedStyle(svg.querySelector('line')).stroke), label: rgba(getComputedStyle(svg.querySelector('.attnw-barlab')).fill),
      mark: rgba(curve ? getComputedStyle(curve).stroke : getComputedStyle(bar).fill) }}; }}) }}; }}"""


def strip_problems(page: Any) -> list[str]:
    """The writer's attention strip (``page`` holding chapter 19 with words written) in each theme: dark like
    its card in the dark theme (it was a white panel), light in the light one; a word of any weight keeps
    4.5:1 against its shade. Leaves the page in the first theme."""
    problems = []
    for theme in THEMES:
        set_theme(page, theme)
        r = page.evaluate(STRIP)
        ground = over(r["bg"], r["card"])
        if (lum(ground) < 0.2) != (theme == "dark"):
            problems.append(f"{theme}: the attention strip's ground is {ground}")
        if len(r["cells"]) < 4 or r["probes"][-1]["bg"][3] <= 0.4:  # a word of weight 1 is shaded
            problems.append(f"{theme}: {len(r['cells'])} words written, a word of weight 1 shaded {r['probes'][-1]['bg']}")
        for c in r["cells"] + r["probes"]:  # the words written, and a word of each weight 0, 0.25, ..., 1
            ratio = contrast(c["ink"], over(c["bg"], ground))
            if ratio < 4.5:
                problems.append(f"{theme}: a word of weight {c['weight']} has {ratio:.2f}:1")
    set_theme(page, THEMES[0])
    return problems


def chart_problems(page: Any) -> list[str]:
    """The trainer's four charts (``page`` holding chapter 17 after a run) in each theme: each a panel of the
    theme (they were white panels on the dark page), its axis, label and curve or bar 3:1 against it.
    Leaves the page in the first theme."""
    problems = []
    for theme in THEMES:
        set_theme(page, theme)
        r = page.evaluate(CHARTS)
        names = [ch["name"] for ch in r["charts"]]
        if names != ["loss-curve", "accuracy-curve", "row", "ask-row"]:
            problems.append(f"{theme}: the trainer's charts are {names}")
        for ch in r["charts"]:
            panel = over(ch["bg"], r["card"])
            if (lum(panel) < 0.2) != (theme == "dark"):
                problems.append(f"{theme}: chart {ch['name']} is drawn on {panel}")
            problems += [f"{theme}: chart {ch['name']}'s {part} {ch[part]} on {panel}"
                         for part in ("axis", "label", "mark") if contrast(ch[part], panel) < 3]
    set_theme(page, THEMES[0])
    return problems
