// Dot-product spread: 1000 dot products of seeded random Gaussian pairs. Their variance grows like
// the dimension d; dividing by √d brings it back to about 1. Python reference: slider_math.spread_numbers.

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

function render({ model, el }) {
  const lim = model.get("_limits");
  const [lo, hi, steps] = lim.dim;
  const nPairs = lim.n_pairs;
  const bins = lim.bins;
  const dimOf = (p) => Math.round(logValue(p, lo, hi, steps));
  const currentDim = () => Math.round(finiteIn(model.get("dim"), lo, hi, 100));

  const root = card(
    "Spread of dot products",
    `Move d: ${nPairs} dot products q·k of random vectors with standard-normal entries. Their variance grows like d; dividing by √d brings it back to about 1.`,
  );
  const slider = rangeControl({
    label: "dimension d", name: "dim", min: 0, max: steps, value: logPosition(currentDim(), lo, hi, steps),
    format: (p) => `d = ${dimOf(p)}`,
  });
  const toggle = checkboxControl({ label: "scale by 1/√d", name: "scaled", checked: model.get("scaled") });
  root.append(h("div", { class: "attnw-controls" }, [slider.row, toggle.row]));

  const W = 640, H = 200, pad = { l: 44, r: 12, t: 10, b: 34 };
  const plotW = W - pad.l - pad.r, plotH = H - pad.t - pad.b;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "attnw-chart attnw-wide", role: "img", "data-name": "histogram" });
  const desc = s("title", { text: "histogram of the dot products" });
  svg.append(desc, s("line", { x1: pad.l, x2: W - pad.r, y1: pad.t + plotH, y2: pad.t + plotH, stroke: PALETTE.ink }));
  const rects = [];
  for (let b = 0; b < bins; b++) {
    const r = s("rect", { x: pad.l + (b * plotW) / bins + 0.5, width: plotW / bins - 1, y: pad.t + plotH, height: 0, fill: PALETTE.blue });
    svg.append(r);
    rects.push(r);
  }
  const ticks = [];
  for (let k = 0; k <= 4; k++) {
    const x = pad.l + (k * plotW) / 4;
    svg.append(s("line", { x1: x, x2: x, y1: pad.t + plotH, y2: pad.t + plotH + 4, stroke: PALETTE.ink }));
    const t = s("text", { x, y: H - pad.b + 16, "text-anchor": "middle", class: "attnw-barlab" });
    svg.append(t);
    ticks.push(t);
  }
  svg.append(s("text", { x: pad.l + plotW / 2, y: H - 4, "text-anchor": "middle", class: "attnw-barlab", text: "q·k" }));
  svg.append(s("line", { x1: pad.l, x2: pad.l, y1: pad.t, y2: pad.t + plotH, stroke: PALETTE.ink }));
  svg.append(s("line", { x1: pad.l - 4, x2: pad.l, y1: pad.t, y2: pad.t, stroke: PALETTE.ink }));
  const yMax = s("text", { x: pad.l - 6, y: pad.t + 4, "text-anchor": "end", class: "attnw-barlab" });
  const yLab = s("text", { class: "attnw-barlab", "text-anchor": "middle", transform: `translate(${pad.l - 14} ${pad.t + plotH / 2}) rotate(-90)`, text: "count" });
  svg.append(yMax, yLab);

  const dShown = stat("d =", "dim-value");
  const mean = stat("mean", "mean");
  const variance = stat("variance", "variance");
  const outside = stat("beyond the axis", "outside");
  root.append(h("figure", { class: "attnw-panel attnw-wide" }, [
    h("figcaption", { text: "histogram of the dot products (fixed axis: watch it widen)" }), svg,
    h("div", { class: "attnw-stats" }, [dShown.el, mean.el, variance.el, outside.el]),
  ]));
  el.append(root);

  function draw() {
    const d = currentDim();
    const scaled = Boolean(model.get("scaled"));
    const prefix = prefixDots(model.get("seed"), nPairs, hi);
    const row = prefix.row(d);
    const half = scaled ? lim.half_width_scaled : lim.half_width;
    const width = (2 * half) / bins;
    const f = scaled ? Math.sqrt(d) : 1;
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
    const cMax = Math.max(...counts, 1);
    for (let b = 0; b < bins; b++) {
      const hgt = (counts[b] / cMax) * plotH;
      rects[b].setAttribute("y", String(pad.t + plotH - hgt));
      rects[b].setAttribute("height", String(hgt));
      rects[b].dataset.count = String(counts[b]);
    }
    for (let k = 0; k <= 4; k++) ticks[k].textContent = fmt(-half + (k * half) / 2, 0);
    yMax.textContent = String(cMax);
    dShown.set(d, 0);
    mean.set(m);
    variance.set(ss / (nPairs - 1));
    outside.set(out, 0);
    desc.textContent = `histogram of ${nPairs} dot products in dimension ${d}${scaled ? ", divided by √d" : ""}: variance ${fmt(ss / (nPairs - 1), 3)}`;
    toggle.input.checked = scaled;
    const p = logPosition(d, lo, hi, steps);
    if (dimOf(Number(slider.input.value)) !== d) slider.input.value = String(p);
    slider.show(Number(slider.input.value));
    root.dataset.dim = String(d);
  }

  slider.input.addEventListener("input", () => save(model, { dim: dimOf(Number(slider.input.value)) }));
  toggle.input.addEventListener("change", () => save(model, { scaled: toggle.input.checked }));
  draw();
  prefixDots(model.get("seed"), nPairs, hi).fillInBackground();
  return redrawOn(model, ["dim", "scaled", "seed"], draw);
}

export default { render };
