// Softmax sharpening: as d_k grows, raw dot products spread out and softmax turns one-hot; dividing
// by √d_k keeps the weights soft. Python reference: slider_math.sharpening_numbers.
// Shared helpers (from _dom.js and _common.js): h, PALETTE, normalStream, finiteIn, logValue, logPosition, softmax, entropy, maxOf, card, rangeControl, checkboxControl, stat, barChart, redrawOn, save

// One seeded draw in the largest dimension D (the slider's upper end): the query, then the keys row
// by row, as slider_math.sharpening_scores. Dimension d_k uses the first d_k coordinates of each, so one
// step of the slider changes the picture a little. Drawn once per (seed, n_keys, D).
function sharpeningDraw(seed, nKeys, dMax) {
  const normal = normalStream(seed);
  const q = new Float64Array(dMax);
  for (let i = 0; i < dMax; i++) q[i] = normal();
  const keys = [];
  for (let j = 0; j < nKeys; j++) {
    const k = new Float64Array(dMax);
    for (let i = 0; i < dMax; i++) k[i] = normal();
    keys.push(k);
  }
  return { q, keys };
}

function sharpeningScores(model, dK, vectors) {
  const given = model.get("scores") || [];
  if (given.length >= 2) return Float64Array.from(given, (x) => (Number.isFinite(x) ? x : 0));
  const { q, keys } = vectors();
  const scores = new Float64Array(keys.length);
  for (let j = 0; j < keys.length; j++) {
    let acc = 0;
    for (let i = 0; i < dK; i++) acc += keys[j][i] * q[i]; // key j, coordinate i
    scores[j] = acc;
  }
  return scores;
}

// One panel of weights: the bar chart, its largest weight and its entropy.
function weightsPanel(labels, key, title, color) {
  const chart = barChart({ labels, title, color, name: `${key}-bars` });
  const mx = stat("max weight", `${key}-max`);
  const ent = stat("entropy (nats)", `${key}-entropy`);
  const box = h("figure", { class: "attnw-panel", "data-name": `${key}-panel` }, [
    h("figcaption", { text: title }), chart.el, h("div", { class: "attnw-stats" }, [mx.el, ent.el]),
  ]);
  return { box, chart, mx, ent };
}

// The d_k slider, the scaling toggle, the range of the raw scores, and the two panels.
function buildView(v, labels) {
  const { lo, hi, steps, model } = v;
  v.slider = rangeControl({
    // read aloud as "d sub k"; shown as d with a subscript k
    label: '<span aria-hidden="true">d<sub>k</sub></span><span class="attnw-sr">d sub k</span>',
    name: "d_k", min: 0, max: steps, value: logPosition(v.currentDk(), lo, hi, steps),
    format: (p) => `dₖ = ${v.dKOf(p)}`, valuetext: (p) => `d sub k = ${v.dKOf(p)}`,
  });
  v.toggle = checkboxControl({ label: "divide by √dₖ (show the scaled weights)", name: "show_scaled", checked: model.get("show_scaled") });
  v.range = stat("raw scores q·k from", "score-min");
  v.rangeHi = stat("to", "score-max");
  v.root.append(h("div", { class: "attnw-controls" }, [v.slider.row, v.toggle.row]));
  v.root.append(h("div", { class: "attnw-stats attnw-tight" }, [v.range.el, v.rangeHi.el]));
  v.raw = weightsPanel(labels, "unscaled", "softmax(q·k)", PALETTE.red);
  v.scaled = weightsPanel(labels, "scaled", "softmax(q·k / √dₖ)", PALETTE.blue);
  v.root.append(h("div", { class: "attnw-panels" }, [v.raw.box, v.scaled.box]));
}

// A panel's weights, largest weight and entropy.
function showWeights(panel, w) {
  panel.chart.update(w);
  panel.mx.set(maxOf(w));
  panel.ent.set(entropy(w));
}

// Redraw for the synced d_k, toggle, seed, scores and number of keys.
function draw(v) {
  const { model, slider } = v;
  const dK = v.currentDk();
  const scores = sharpeningScores(model, dK, v.vectors);
  v.range.set(Math.min(...scores), 2);
  v.rangeHi.set(Math.max(...scores), 2);
  showWeights(v.raw, softmax(scores, 1));
  showWeights(v.scaled, softmax(scores, Math.sqrt(dK)));
  const show = Boolean(model.get("show_scaled"));
  v.scaled.box.hidden = !show;
  v.toggle.input.checked = show;
  const p = logPosition(dK, v.lo, v.hi, v.steps);
  if (Number(slider.input.value) !== p && v.dKOf(Number(slider.input.value)) !== dK) slider.input.value = String(p);
  slider.show(Number(slider.input.value));
  v.root.dataset.dK = String(dK);
}

function render({ model, el }) {
  const [lo, hi, steps] = model.get("_limits").d_k;
  let cached = null; // the draw, and the (seed, n_keys) it was made for
  const vectors = () => {
    const seed = model.get("seed");
    const nKeys = model.get("n_keys");
    if (!cached || cached.seed !== seed || cached.nKeys !== nKeys) cached = { seed, nKeys, ...sharpeningDraw(seed, nKeys, hi) };
    return cached;
  };
  const given = model.get("scores") || [];
  const n = given.length >= 2 ? given.length : model.get("n_keys");
  const labels = model.get("labels").length === n ? model.get("labels") : Array.from({ length: n }, (_, i) => `k${i + 1}`);
  // the view: the synced limits, the draw, the card, then its parts as they are built
  const v = {
    model, lo, hi, steps, vectors,
    dKOf: (p) => Math.round(logValue(p, lo, hi, steps)),
    currentDk: () => Math.round(finiteIn(model.get("d_k"), lo, hi, 64)),
    root: card(
      "Softmax sharpening",
      "Move dₖ: the raw scores q·k of random vectors spread out like √dₖ and softmax piles its weight on one key. Dividing by √dₖ keeps the weights soft. Each step adds or drops coordinates of the same vectors.",
    ),
  };
  buildView(v, labels);
  el.append(v.root);

  v.slider.input.addEventListener("input", () => save(model, { d_k: v.dKOf(Number(v.slider.input.value)) }));
  v.toggle.input.addEventListener("change", () => save(model, { show_scaled: v.toggle.input.checked }));
  draw(v);
  return redrawOn(model, ["d_k", "show_scaled", "seed", "scores", "n_keys"], () => draw(v));
}

export default { render };
