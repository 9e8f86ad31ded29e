"""What the browser checks read off a loaded page: small JavaScript functions, each returning plain
data for a test to assert on. :func:`bookdev.site.read_page` runs them during its one load of a page.
"""

from __future__ import annotations

#: The page's title, then the texts of the left navigation, the previous/next links and the page's
#: own table of contents.
NAV_TEXT = """() => [document.title,
  ...[...document.querySelectorAll(".bd-sidebar-primary nav a, .prev-next-area a, .bd-toc-nav a")].map((a) => a.innerText)]"""

#: Each visible figure or widget-panel caption: its first 50 characters, font weight and size, and
#: its contrast ratio (WCAG) against the first opaque background behind it.
CAPTIONS = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let a = el; a; a = a.parentElement) {
      const c = rgb(getComputedStyle(a).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] === 1)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  return [...document.querySelectorAll("figcaption, .attnw-table caption")].filter((e) => e.offsetParent).map((e) => {
    const cs = getComputedStyle(e.querySelector("p") || e);
    const [l1, l2] = [lum(rgb(cs.color).slice(0, 3)), lum(background(e))].sort((a, b) => b - a);
    return { text: e.innerText.slice(0, 50), weight: Number(cs.fontWeight), size: parseFloat(cs.fontSize),
             contrast: (l1 + 0.05) / (l2 + 0.05) };
  });
}"""

#: How wide the document is against the screen, and up to 8 elements reaching past the right edge of
#: the screen outside any box that scrolls or clips sideways (what makes the page wider than the
#: screen). Text overflowing its own box (a long word) counts too.
OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const contained = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden" || o === "clip") return true;
    }
    return false;
  };
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    const spills = getComputedStyle(el).overflowX === "visible" && r.left + el.scrollWidth > width + 1 &&
      ![...el.children].some((k) => k.getBoundingClientRect().left + k.scrollWidth > width + 1);
    if (r.width === 0 || (r.right <= width + 1 && !spills) || contained(el)) continue;
    if (el.closest("[hidden], .bd-sidebar-primary, .bd-sidebar-secondary") && getComputedStyle(el).visibility !== "visible") continue;
    out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} right=${Math.round(r.right)} ` +
             `"${(el.textContent || "").trim().slice(0, 60)}"`);
    if (out.length >= 8) break;
  }
  return { width, scrollWidth: document.documentElement.scrollWidth, out };
}"""

#: Each slider readout (the <output> after a range input), label and input: its box must lie inside
#: the screen, inside its widget card, and inside every ancestor that clips its overflow.
#: ``checked`` names every element looked at.
CLIPPED_READOUTS = """() => {
  const width = document.documentElement.clientWidth;
  const problems = [];
  const checked = [];
  for (const el of document.querySelectorAll(".attnw-control output, .attnw-control label, .attnw-control input")) {
    const r = el.getBoundingClientRect();
    const name = el.dataset.name || el.getAttribute("for") || el.tagName;
    checked.push(name);
    if (el.tagName === "OUTPUT" && (!el.textContent.trim() || r.width < 1)) { problems.push(`${name}: empty or invisible`); continue; }
    if (r.left < -0.5 || r.right > width + 0.5) problems.push(`${name} "${el.textContent}" spans ${Math.round(r.left)}..${Math.round(r.right)}, the screen 0..${width}`);
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      const clips = a.classList.contains("attnw") || ["hidden", "clip", "auto", "scroll"].includes(cs.overflowX);
      if (!clips) continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5) {
        problems.push(`${name} "${el.textContent}" (${Math.round(r.left)}..${Math.round(r.right)}) is cut by ${a.tagName.toLowerCase()}.${[...a.classList].join(".")} (${Math.round(b.left)}..${Math.round(b.right)})`);
        break;
      }
    }
  }
  return { problems, checked };
}"""

#: Exercise cards and widget cards whose content is wider than the card, or that reach past the
#: left or right edge of the screen: ``[[what, which], ...]``.
WIDE_CARDS = """() => [...document.querySelectorAll("section.attnex, .attnw")].filter((c) => {
    const box = c.getBoundingClientRect();
    return c.scrollWidth > c.clientWidth + 1 || box.right > window.innerWidth + 1 || box.left < -1;
  }).map((c) => [c.matches("section.attnex") ? "exercise" : "widget",
                c.dataset.exercise || [...c.classList].join(".")])"""

#: Every PNG image of the article: its natural and displayed widths, and the text chunks of the PNG
#: the browser loaded (fetched again from the same address, once per page, and read here: tEXt and
#: uncompressed iTXt; a later reading of the page, at another width, reuses them).
FIGURES = r"""async () => {
  const known = (window.attnbookTestFigureText ||= new Map());  // address -> its text chunks
  const latin1 = (a) => String.fromCharCode(...a);
  const utf8 = (a) => new TextDecoder().decode(a);
  function chunks(buf) {
    const b = new Uint8Array(buf), v = new DataView(buf), out = {};
    for (let p = 8; p + 8 <= b.length;) {
      const len = v.getUint32(p), type = latin1(b.slice(p + 4, p + 8)), d = b.slice(p + 8, p + 8 + len);
      if (type === "tEXt") { const z = d.indexOf(0); out[latin1(d.slice(0, z))] = latin1(d.slice(z + 1)); }
      if (type === "iTXt" && d[d.indexOf(0) + 1] === 0) {
        const z = d.indexOf(0), l = d.indexOf(0, z + 3), t = d.indexOf(0, l + 1);
        out[latin1(d.slice(0, z))] = utf8(d.slice(t + 1));
      }
      if (type === "IEND") break;
      p += 12 + len;
    }
    return out;
  }
  const imgs = [...document.querySelectorAll(".bd-article img")].filter(
    (i) => /\.png$/.test(new URL(i.currentSrc || i.src, location.href).pathname) || /^data:image\/png/.test(i.src));
  const out = [];
  for (const [n, img] of imgs.entries()) {
    await img.decode().catch(() => null);
    const src = img.currentSrc || img.src;
    if (!known.has(src)) known.set(src, chunks(await (await fetch(src)).arrayBuffer()));
    const text = known.get(src);
    const button = img.nextElementSibling && img.nextElementSibling.matches("button.attnbook-zoom-open")
      ? img.nextElementSibling : null;
    if (button) button.dataset.testFigure = String(n);
    out.push({
      n, name: (img.closest("figure[id]") || {}).id || img.alt.slice(0, 60) || img.src.slice(-30),
      natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
      smallest: text["attnlib:smallest-text-px"] ?? null, what: text["attnlib:smallest-text"] ?? "",
      overlapping: text["attnlib:overlapping-text"] ?? null,
      zoom: !!button && !button.hidden,
    });
  }
  return out;
}"""

#: The figure dialog once open: the drawn width of its image, and whether its box pans.
FIGURE_DIALOG = r"""() => {
  const d = document.querySelector("dialog.attnbook-zoom");
  if (!d || !d.open) return null;
  const pan = d.querySelector(".attnbook-zoom-pan"), img = pan.querySelector("img");
  return { shown: img.getBoundingClientRect().width, natural: img.naturalWidth,
           focused: document.activeElement === pan, scroll: pan.scrollLeft,
           wide: pan.scrollWidth > pan.clientWidth + 1 };
}"""

#: Each typeset formula on the page: the nearest box around it that does not let it overflow (the
#: formula's own scroll box, or the theme's span.math that hides what does not fit); where the
#: formula's glyphs (mjx-math) lie against that box's visible area; whether the box scrolls and can
#: take the focus; and the formula's size against its text's. (Not the box's scrollWidth: MathJax's
#: hidden MathML for screen readers widens it.)
FORMULAS = r"""() => [...document.querySelectorAll("mjx-container")].map((c) => {
  let box = c;
  while (box && box !== document.body && getComputedStyle(box).overflowX === "visible") box = box.parentElement;
  const b = box.getBoundingClientRect();
  const left = b.left + box.clientLeft;
  const m = (c.querySelector("mjx-math") || c).getBoundingClientRect();
  const mml = c.querySelector("mjx-assistive-mml");
  return {
    display: c.getAttribute("display") === "true", tex: (mml ? mml.textContent : c.textContent).slice(0, 70),
    box: box.tagName.toLowerCase() + "." + [...box.classList].join("."), overflow: getComputedStyle(box).overflowX,
    width: box.clientWidth, content: Math.round(m.width * 10) / 10,
    cut: Math.round(Math.max(left - m.left, m.right - (left + box.clientWidth)) * 10) / 10,
    focusable: box.tabIndex >= 0, shown: m.width > 0, fades: getComputedStyle(box).webkitMaskImage !== "none",
    scale: parseFloat(getComputedStyle(c).fontSize) / parseFloat(getComputedStyle(c.parentElement).fontSize),
  };
})"""

#: Resolves once the text column has kept its width for 300 ms (the theme's sidebars slide in and
#: out over about half a second when the window's width crosses a breakpoint), then two frames later.
SETTLED = """async () => {
  const column = document.querySelector(".bd-article") || document.body;
  let width = -1, since = performance.now();
  while (performance.now() - since < 300) {
    await new Promise((r) => setTimeout(r, 50));
    if (column.clientWidth !== width) { width = column.clientWidth; since = performance.now(); }
  }
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""

#: Resolves once the text column's width has stayed the same over three animation frames in a row: with
#: the page's transitions off (:data:`bookdev.site.NO_TRANSITIONS`) a new viewport's layout, and the
#: formulas the site refits to it (a ResizeObserver, which runs before the frame is painted), are done
#: by then. :data:`SETTLED`'s 300 ms of quiet also waits out transitions that are on.
FRAMES_SETTLED = """async () => {
  const column = document.querySelector(".bd-article") || document.body;
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  let width = column.clientWidth, same = 0;
  while (same < 3) {
    await frame();
    same = column.clientWidth === width ? same + 1 : 0;
    width = column.clientWidth;
  }
}"""

#: Marks with ``data-axe-same`` every word of code whose colour contrast cannot differ from an earlier
#: one's, so that axe-core's contrast rule (its selector made ``:not([data-axe-same])`` by
#: :func:`bookdev.site.read_theme`) checks one word of each kind. A word of code is an element with
#: text and no child element inside a code block, inline code or an API signature (a chapter has
#: thousands, of a few dozen kinds). Two are of one kind when everything the rule reads of them is the
#: same: the text's colour, fill, stroke, shadow, size and weight; whether it is a single character
#: (axe does not fail one) or only symbols (axe does not check those); whether it is shown (not hidden,
#: not in a folded cell, not scrolled out of its box); the opacity of every ancestor; and the background, background image,
#: opacity, filter, blend mode and pseudo-elements of the element and of each ancestor up to the first
#: one with an opaque background. A kind's first word, which stays checked, is marked
#: ``data-axe-kind="<n>"`` and the others ``data-axe-same="<n>"``. Marks from an earlier theme are
#: cleared first; returns ``{words, kinds, marked}``. (tests/browser/test_accessibility.py holds the
#: marks to axe's own verdicts on every word.)
SAME_CONTRAST = r"""() => {
  for (const e of document.querySelectorAll("[data-axe-same], [data-axe-kind]")) {
    e.removeAttribute("data-axe-same");
    e.removeAttribute("data-axe-kind");
  }
  const { text } = axe.commons;
  const opaque = (cs) => /^rgb\(/.test(cs.backgroundColor) && cs.backgroundImage === "none";
  const pseudo = (e, which) => { const p = getComputedStyle(e, which);
    return p.content === "none" ? "" : [p.content, p.backgroundColor, p.backgroundImage, p.position].join(" "); };
  const behind = new Map(), fade = new Map();
  const background = (e) => {  // what lies behind the text, from e up to the first opaque background
    if (!e) { return ""; }
    if (!behind.has(e)) {
      const cs = getComputedStyle(e);
      behind.set(e, [cs.backgroundColor, cs.backgroundImage, cs.filter, cs.mixBlendMode, pseudo(e, "::before"),
                     pseudo(e, "::after")].join(";") + (opaque(cs) ? "" : "/" + background(e.parentElement)));
    }
    return behind.get(e);
  };
  const opacity = (e) => {  // the product of every ancestor's opacity
    if (!e) { return 1; }
    if (!fade.has(e)) { fade.set(e, parseFloat(getComputedStyle(e).opacity) * opacity(e.parentElement)); }
    return fade.get(e);
  };
  const clipper = (el) => {  // the nearest ancestor that scrolls or clips its content
    for (let e = el.parentElement; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.overflowX !== "visible" || cs.overflowY !== "visible") { return e; }
    }
    return document.documentElement;
  };
  const shown = (el) => {  // hidden, or inside, partly inside or outside the box that clips it
    if (el.closest("details:not([open])") || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
      return "hidden";
    }
    const r = el.getBoundingClientRect(), box = clipper(el).getBoundingClientRect();
    if (!r.width || !r.height) { return "hidden"; }
    if (r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom) { return "inside"; }
    const overlaps = r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top;
    return overlaps ? "partly" : "outside";
  };
  const kinds = new Map();
  let words = 0, marked = 0;
  for (const el of document.querySelectorAll("pre *, code *, dt.sig *")) {
    const t = el.childElementCount ? "" : text.sanitize(el.textContent);
    if (!t) { continue; }
    words += 1;
    const cs = getComputedStyle(el);
    const kind = [cs.color, cs.webkitTextFillColor, cs.webkitTextStroke, cs.textShadow, cs.fontSize, cs.fontWeight,
                  t.length === 1, text.removeUnicode(t, { emoji: true, nonBmp: false, punctuations: true }) === "",
                  text.hasUnicode(t, { nonBmp: true }) && text.sanitize(text.removeUnicode(t, { nonBmp: true })) === "",
                  shown(el), opacity(el), background(el)].join("|");
    if (kinds.has(kind)) {
      el.setAttribute("data-axe-same", kinds.get(kind));
      marked += 1;
    } else {
      kinds.set(kind, String(kinds.size));
      el.setAttribute("data-axe-kind", kinds.get(kind));
    }
  }
  return { words, kinds: kinds.size, marked };
}"""
