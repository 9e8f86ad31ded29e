"""What the browser checks read off a loaded page: small JavaScript functions, each returning plain
data for a test to assert on. :func:`bookdev.site.visit` runs them during its one load of a page.
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
#: right edge of the screen: ``[[what, which], ...]``.
WIDE_CARDS = """() => [...document.querySelectorAll("section.attnex, .attnw")].filter(
    (c) => c.scrollWidth > c.clientWidth + 1 || c.getBoundingClientRect().right > window.innerWidth + 1
  ).map((c) => [c.matches("section.attnex") ? "exercise" : "widget",
                c.dataset.exercise || [...c.classList].join(".")])"""
