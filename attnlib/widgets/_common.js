// Shared helpers of the attnlib sliders. attnlib/widgets/sliders.py puts this file in front of each
// widget's own module, so every widget ships as one self-contained ES module (no imports): it runs in
// JupyterLab, Notebook 7, VS Code, Colab and on the static site. The math mirrors
// attnlib/widgets/slider_math.py, the reference the browser tests compare the page with.

const SVG_NS = "http://www.w3.org/2000/svg";
// The charts' colours, as SVG attributes; widgets.css turns each into its theme's version (a lighter
// one on a dark card), so a colour added here needs its rule there.
const PALETTE = { blue: "#0072B2", red: "#D55E00", green: "#009E73", ink: "#222222", grid: "#d0d0d0" };

// --- seeded random numbers: mulberry32 + Box-Muller (same stream as slider_math.uniforms / normals) -------
// mulberry32's state after n + 1 draws is seed + (n + 1)·0x6D2B79F5 (mod 2^32), so draw n can be
// computed directly, without the n draws before it.
// A seed is a whole number in [0, 2^32), or an Error with the message of attnlib.companions.sampler.require_seed:
// `>>> 0` would silently wrap -5 to 4294967291 and 1.5 to 1, so two seeds a reader tells apart would
// draw the same numbers.
function requireSeed(seed) {
  if (typeof seed !== "number" || !Number.isInteger(seed) || seed < 0 || seed > 4294967295) {
    throw new Error(`the seed must be a whole number from 0 to 4294967295 (2**32 - 1), got ${pyRepr(seed)}`);
  }
  return seed;
}

// A number as Python's repr writes it in a message (nan, inf, -inf, 5, 1.5), so the page's messages are Python's.
function pyRepr(x) {
  if (typeof x !== "number") return JSON.stringify(x);
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  return String(x);
}

// A word as a message quotes it: a long one shortened to its first 20 characters and its length
// (attnlib.companions.checks.quoted_word), so that a pasted paragraph cannot stretch the page.
function quotedWord(w) {
  const chars = Array.from(w);
  return chars.length <= 24 ? `'${w}'` : `'${chars.slice(0, 20).join("")}…' (${chars.length} characters)`;
}

// Words as a message lists them: each once, at most `limit`, then how many more (attnlib.companions.checks.quoted_words).
function quotedWords(words, limit = 5) {
  const unique = [...new Set(words)];
  const shown = unique.slice(0, limit).map(quotedWord).join(", ");
  return unique.length <= limit ? shown : `${shown} and ${unique.length - limit} more`;
}

function uniformAt(seed, n) {
  requireSeed(seed);
  const a = (seed + Math.imul(n + 1, 0x6d2b79f5)) >>> 0;
  let t = Math.imul(a ^ (a >>> 15), a | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// Normals m and m + 1 of the stream (m even): Box-Muller on uniforms m and m + 1, r·cos θ then r·sin θ.
function normalPairAt(seed, m, out) {
  const r = Math.sqrt(-2 * Math.log(1 - uniformAt(seed, m)));
  const theta = 2 * Math.PI * uniformAt(seed, m + 1);
  out[0] = r * Math.cos(theta);
  out[1] = r * Math.sin(theta);
}

// The normals of the stream one after the other.
function normalStream(seed) {
  const pair = new Float64Array(2);
  let m = 0;
  return function normal() {
    if (m % 2 === 0) normalPairAt(seed, m, pair);
    return pair[m++ % 2];
  };
}

// --- numbers ------------------------------------------------------------------------------------
function clamp(x, lo, hi) {
  return Math.min(Math.max(x, lo), hi);
}

// A finite number from the model, clamped to [lo, hi]; `fallback` if it is missing, NaN or infinite.
function finiteIn(x, lo, hi, fallback) {
  return typeof x === "number" && Number.isFinite(x) ? clamp(x, lo, hi) : fallback;
}

// Value at integer slider position p (0..steps) of a log scale lo..hi (as slider_math.log_slider_value).
function logValue(p, lo, hi, steps) {
  const q = Number.isFinite(p) ? clamp(p, 0, steps) : 0;
  return lo * Math.pow(hi / lo, q / steps);
}

function logPosition(v, lo, hi, steps) {
  const w = clamp(v, lo, hi);
  return Math.floor((steps * Math.log(w / lo)) / Math.log(hi / lo) + 0.5);
}

// Stable softmax of scores / t (as attnlib.softmax): subtract the maximum before exp.
function softmax(scores, t) {
  const n = scores.length;
  const z = new Float64Array(n);
  let m = -Infinity;
  for (let i = 0; i < n; i++) {
    z[i] = scores[i] / t;
    if (z[i] > m) m = z[i];
  }
  let s = 0;
  for (let i = 0; i < n; i++) {
    z[i] = Math.exp(z[i] - m);
    s += z[i];
  }
  for (let i = 0; i < n; i++) z[i] /= s;
  return z;
}

// Entropy in nats, with 0 ln 0 = 0.
function entropy(p) {
  let h = 0;
  for (let i = 0; i < p.length; i++) if (p[i] > 0) h -= p[i] * Math.log(p[i]);
  return h;
}

function maxOf(p) {
  let m = -Infinity;
  for (let i = 0; i < p.length; i++) if (p[i] > m) m = p[i];
  return m;
}

// A number as text with `digits` decimals; never "NaN" or "Infinity" on the page.
function fmt(x, digits = 3) {
  if (!Number.isFinite(x)) return "–";
  const s = x.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s; // no "-0.000"
}

// --- DOM ------------------------------------------------------------------------------------------
function s(tag, attrs = {}) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, String(v));
  }
  return el;
}

let uid = 0;
function nextId(prefix) {
  uid += 1;
  return `attnw-${prefix}-${uid}-${Math.random().toString(36).slice(2, 8)}`;
}

// The widget card: an opaque white card with dark ink, readable in light and dark themes.
function card(title, description) {
  const titleId = nextId("title");
  const root = h("div", { class: "attnw", role: "group", "aria-labelledby": titleId });
  root.append(h("div", { class: "attnw-title", id: titleId, text: title }));
  if (description) root.append(h("p", { class: "attnw-desc", text: description }));
  return root;
}

// A labelled range input with a live readout. `format(position)` gives the readout, and
// `valuetext(position)` (default: the readout) what a screen reader says for the value.
function rangeControl({ label, name, min, max, step = 1, value, format, valuetext = format }) {
  const id = nextId(name);
  const input = h("input", { type: "range", id, name, min, max, step, "data-name": name });
  input.value = String(value);
  const out = h("output", { for: id, "data-name": `${name}-readout`, "aria-hidden": "true" });
  const lab = h("label", { for: id, class: "attnw-label" });
  lab.innerHTML = label; // trusted, from our own modules (e.g. "d<sub>k</sub>" with a spoken form)
  const row = h("div", { class: "attnw-control" }, [lab, input, out]);
  const show = (position) => {
    const text = format(position);
    out.textContent = text;
    input.setAttribute("aria-valuetext", valuetext(position));
  };
  show(value);
  return { row, input, show };
}

function checkboxControl({ label, name, checked }) {
  const id = nextId(name);
  const input = h("input", { type: "checkbox", id, name, "data-name": name });
  input.checked = Boolean(checked);
  const lab = h("label", { for: id, class: "attnw-check" }, [input]);
  lab.append(" " + label);
  return { row: lab, input };
}

// A labelled statistic: <span data-name=name>value</span>.
function stat(label, name) {
  const value = h("span", { class: "attnw-num", "data-name": name, text: "–" });
  const el = h("span", { class: "attnw-stat" }, [h("span", { text: `${label} ` }), value]);
  return { el, set: (x, digits = 3) => (value.textContent = fmt(x, digits)) };
}

// `count` rectangles, each with a text on it, appended to `svg`; attrs(i) gives the attributes of the
// i-th rectangle and of its text. Bar charts and attention maps update them in place.
function labelledRects(svg, count, attrs) {
  const rects = [], texts = [];
  for (let i = 0; i < count; i++) {
    const [rectAttrs, textAttrs] = attrs(i);
    const rect = s("rect", rectAttrs), text = s("text", textAttrs);
    svg.append(rect, text);
    rects.push(rect);
    texts.push(text);
  }
  return { rects, texts };
}

// Vertical bars for values in [0, 1] (weights), each with its value printed above it.
function barChart({ labels, title, color, width = 320, height = 170, name }) {
  const n = labels.length;
  const pad = { l: 8, r: 8, t: 18, b: 30 };
  const plotH = height - pad.t - pad.b;
  const slot = (width - pad.l - pad.r) / n;
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "attnw-chart", role: "img", "data-name": name,
  });
  const desc = s("title", { text: title });
  svg.append(desc);
  svg.append(s("line", { x1: pad.l, x2: width - pad.r, y1: pad.t + plotH, y2: pad.t + plotH, stroke: PALETTE.ink }));
  const { rects: bars, texts } = labelledRects(svg, n, (i) => {
    const x = pad.l + i * slot;
    return [{ x: x + slot * 0.15, width: slot * 0.7, y: pad.t + plotH, height: 0, fill: color },
      { x: x + slot / 2, y: pad.t + plotH - 3, "text-anchor": "middle", class: "attnw-barval", "data-name": `${name}-${i}` }];
  });
  labels.forEach((label, i) => svg.append(s("text", {
    x: pad.l + (i + 0.5) * slot, y: height - pad.b + 14, "text-anchor": "middle", class: "attnw-barlab", text: label,
  })));
  return {
    el: svg,
    update(values) {
      for (let i = 0; i < n; i++) {
        const v = Number.isFinite(values[i]) ? clamp(values[i], 0, 1) : 0;
        const hgt = v * plotH;
        bars[i].setAttribute("y", String(pad.t + plotH - hgt));
        bars[i].setAttribute("height", String(hgt));
        texts[i].setAttribute("y", String(pad.t + plotH - hgt - 3));
        texts[i].textContent = fmt(values[i], 3);
      }
      desc.textContent = `${title}: ${Array.from(values, (v, i) => `${labels[i]} ${fmt(v, 3)}`).join(", ")}`;
    },
  };
}

// Re-run `draw` whenever one of the model's `names` changes (from the kernel or another view);
// returns the cleanup function anywidget calls when the view is removed.
function redrawOn(model, names, draw) {
  const handler = () => draw();
  for (const n of names) model.on(`change:${n}`, handler);
  return () => {
    for (const n of names) model.off(`change:${n}`, handler);
  };
}

// Write `changes` to the model and send them to the kernel (a no-op on the static page).
function save(model, changes) {
  for (const [k, v] of Object.entries(changes)) model.set(k, v);
  model.save_changes();
}
