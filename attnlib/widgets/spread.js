// Dot-product spread: 1000 dot products of seeded random Gaussian pairs. Their variance grows like
// the dimension d; dividing by √d brings it back to about 1. Python reference: slider_math.spread_numbers.
// Shared helpers (from _dom.js and _common.js): h, PALETTE, normalPairAt, clamp, finiteIn, logValue, logPosition, fmt, s, card, rangeControl, checkboxControl, stat, redrawOn, save

// Dot products of pair i over its first d coordinates, P[(d - 1) * nPairs + i], for every d up to
// dMax. Pair i is vector a = normals [2·dMax·i, 2·dMax·i + dMax) of one seeded stream and vector
// b = the next dMax normals; each sum runs coordinate by coordinate (as slider_math._prefix_dots). Rows are
// filled on demand (`extendTo`) and in the background after the first draw, so a slider input only
// reads one row. Shared by every view with the same seed.
class PrefixDots {
  constructor(seed, nPairs, dMax) {
    Object.assign(this, { seed, nPairs, dMax, done: 0 });
    this.P = new Float64Array(nPairs * dMax);
    this.acc = new Float64Array(nPairs);
  }

  extendTo(d) {
    const { seed, nPairs, dMax, P, acc } = this;
    const a = new Float64Array(2), b = new Float64Array(2);
    for (; this.done < Math.min(d, dMax); this.done += 2) {
      const j = this.done; // even: coordinates j and j + 1 share one Box-Muller pair
      for (let i = 0; i < nPairs; i++) {
        normalPairAt(seed, 2 * dMax * i + j, a);
        normalPairAt(seed, 2 * dMax * i + dMax + j, b);
        acc[i] += a[0] * b[0];
        P[j * nPairs + i] = acc[i];
        if (j + 1 < dMax) {
          acc[i] += a[1] * b[1];
          P[(j + 1) * nPairs + i] = acc[i];
        }
      }
    }
  }

  row(d) {
    if (d > this.done) this.extendTo(d);
    return this.P.subarray((d - 1) * this.nPairs, d * this.nPairs);
  }

  fillInBackground() {
    if (this.filling || this.done >= this.dMax) return;
    this.filling = true;
    const step = () => {
      this.extendTo(this.done + 16); // ~5-10 ms of work per task, the page stays responsive
      if (this.done < this.dMax) setTimeout(step, 0);
    };
    setTimeout(step, 0);
  }
}

const PREFIX = new Map();
function prefixDots(seed, nPairs, dMax) {
  const key = `${seed}:${nPairs}:${dMax}`;
  if (!PREFIX.has(key)) PREFIX.set(key, new PrefixDots(seed, nPairs, dMax));
  return PREFIX.get(key);
}

// The plot's size in SVG units and its margins.
const W = 640, H = 200, PAD = { l: 44, r: 12, t: 10, b: 34 };
const PLOT_W = W - PAD.l - PAD.r, PLOT_H = H - PAD.t - PAD.b;

// The histogram's SVG: one bar per bin, five ticks on a fixed axis, the largest count on the y axis.
function buildHistogram(bins) {
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "attnw-chart attnw-wide", role: "img", "data-name": "histogram" });
  const desc = s("title", { text: "histogram of the dot products" });
  svg.append(desc, s("line", { x1: PAD.l, x2: W - PAD.r, y1: PAD.t + PLOT_H, y2: PAD.t + PLOT_H, stroke: PALETTE.ink }));
  const rects = [];
  for (let b = 0; b < bins; b++) {
    const r = s("rect", { x: PAD.l + (b * PLOT_W) / bins + 0.5, width: PLOT_W / bins - 1, y: PAD.t + PLOT_H, height: 0, fill: PALETTE.blue });
    svg.append(r);
    rects.push(r);
  }
  const ticks = [];
  for (let k = 0; k <= 4; k++) {
    const x = PAD.l + (k * PLOT_W) / 4;
    svg.append(s("line", { x1: x, x2: x, y1: PAD.t + PLOT_H, y2: PAD.t + PLOT_H + 4, stroke: PALETTE.ink }));
    const t = s("text", { x, y: H - PAD.b + 16, "text-anchor": "middle", class: "attnw-barlab" });
    svg.append(t);
    ticks.push(t);
  }
  svg.append(s("text", { x: PAD.l + PLOT_W / 2, y: H - 4, "text-anchor": "middle", class: "attnw-barlab", text: "q·k" }));
  svg.append(s("line", { x1: PAD.l, x2: PAD.l, y1: PAD.t, y2: PAD.t + PLOT_H, stroke: PALETTE.ink }));
  svg.append(s("line", { x1: PAD.l - 4, x2: PAD.l, y1: PAD.t, y2: PAD.t, stroke: PALETTE.ink }));
  const yMax = s("text", { x: PAD.l - 6, y: PAD.t + 4, "text-anchor": "end", class: "attnw-barlab" });
  const yLab = s("text", { class: "attnw-barlab", "text-anchor": "middle", transform: `translate(${PAD.l - 14} ${PAD.t + PLOT_H / 2}) rotate(-90)`, text: "count" });
  svg.append(yMax, yLab);
  return { svg, desc, rects, ticks, yMax };
}

// The controls (d on a log slider, the 1/√d toggle), the histogram and its statistics, in the card.
function buildView(v) {
  const { lo, hi, steps, model } = v;
  v.slider = rangeControl({
    label: "dimension d", name: "dim", min: 0, max: steps, value: logPosition(v.currentDim(), lo, hi, steps),
    format: (p) => `d = ${v.dimOf(p)}`,
  });
  v.toggle = checkboxControl({ label: "scale by 1/√d", name: "scaled", checked: model.get("scaled") });
  v.root.append(h("div", { class: "attnw-controls" }, [v.slider.row, v.toggle.row]));
  Object.assign(v, buildHistogram(v.bins));
  v.dShown = stat("d =", "dim-value");
  v.mean = stat("mean", "mean");
  v.variance = stat("variance", "variance");
  v.outside = stat("beyond the axis", "outside");
  v.root.append(h("figure", { class: "attnw-panel attnw-wide" }, [
    h("figcaption", { text: "histogram of the dot products (fixed axis: watch it widen)" }), v.svg,
    h("div", { class: "attnw-stats" }, [v.dShown.el, v.mean.el, v.variance.el, v.outside.el]),
  ]));
}

// The dot products in dimension d (divided by f), binned on [-half, half]: the counts, how many fall
// outside, their mean and their sum of squared deviations.
function binDots(row, f, half, bins) {
  const nPairs = row.length;
  const width = (2 * half) / bins;
  const counts = new Int32Array(bins);
  let sum = 0, out = 0;
  const x = new Float64Array(nPairs);
  for (let i = 0; i < nPairs; i++) {
    const v = row[i] / f;
    x[i] = v;
    sum += v;
    let b = Math.floor((v + half) / width);
    if (b < 0 || b >= bins) out += 1;
    b = clamp(b, 0, bins - 1);
    counts[b] += 1;
  }
  const m = sum / nPairs;
  let ss = 0;
  for (let i = 0; i < nPairs; i++) ss += (x[i] - m) * (x[i] - m);
  return { counts, out, m, ss };
}

// The bars' heights (the largest count fills the plot) and the axis labels.
function showHistogram(v, counts, half) {
  const cMax = Math.max(...counts, 1);
  for (let b = 0; b < v.bins; b++) {
    const hgt = (counts[b] / cMax) * PLOT_H;
    v.rects[b].setAttribute("y", String(PAD.t + PLOT_H - hgt));
    v.rects[b].setAttribute("height", String(hgt));
    v.rects[b].dataset.count = String(counts[b]);
  }
  for (let k = 0; k <= 4; k++) v.ticks[k].textContent = fmt(-half + (k * half) / 2, 0);
  v.yMax.textContent = String(cMax);
}

// Redraw for the synced dimension, scaling and seed.
function draw(v) {
  const { model, nPairs, lim, lo, hi, steps, slider } = v;
  const d = v.currentDim();
  const scaled = Boolean(model.get("scaled"));
  const row = prefixDots(model.get("seed"), nPairs, hi).row(d);
  const half = scaled ? lim.half_width_scaled : lim.half_width;
  const { counts, out, m, ss } = binDots(row, scaled ? Math.sqrt(d) : 1, half, v.bins);
  showHistogram(v, counts, half);
  v.dShown.set(d, 0);
  v.mean.set(m);
  v.variance.set(ss / (nPairs - 1));
  v.outside.set(out, 0);
  v.desc.textContent = `histogram of ${nPairs} dot products in dimension ${d}${scaled ? ", divided by √d" : ""}: variance ${fmt(ss / (nPairs - 1), 3)}`;
  v.toggle.input.checked = scaled;
  const p = logPosition(d, lo, hi, steps);
  if (v.dimOf(Number(slider.input.value)) !== d) slider.input.value = String(p);
  slider.show(Number(slider.input.value));
  v.root.dataset.dim = String(d);
}

function render({ model, el }) {
  const lim = model.get("_limits");
  const [lo, hi, steps] = lim.dim;
  const nPairs = lim.n_pairs;
  // the view: the synced limits, the card, then its parts as they are built
  const v = {
    model, lim, lo, hi, steps, nPairs, bins: lim.bins,
    dimOf: (p) => Math.round(logValue(p, lo, hi, steps)),
    currentDim: () => Math.round(finiteIn(model.get("dim"), lo, hi, 100)),
    root: card(
      "Spread of dot products",
      `Move d: ${nPairs} dot products q·k of random vectors with standard-normal entries. Their variance grows like d; dividing by √d brings it back to about 1.`,
    ),
  };
  buildView(v);
  el.append(v.root);

  v.slider.input.addEventListener("input", () => save(model, { dim: v.dimOf(Number(v.slider.input.value)) }));
  v.toggle.input.addEventListener("change", () => save(model, { scaled: v.toggle.input.checked }));
  draw(v);
  prefixDots(model.get("seed"), nPairs, hi).fillInBackground();
  return redrawOn(model, ["dim", "scaled", "seed"], () => draw(v));
}

export default { render };
