// Softmax sharpening: as d_k grows, raw dot products spread out and softmax turns one-hot; dividing
// by √d_k keeps the weights soft. Python reference: slider_math.sharpening_numbers.

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

function render({ model, el }) {
  const [lo, hi, steps] = model.get("_limits").d_k;
  const dKOf = (p) => Math.round(logValue(p, lo, hi, steps));
  const currentDk = () => Math.round(finiteIn(model.get("d_k"), lo, hi, 64));
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

  const root = card(
    "Softmax sharpening",
    "Move dₖ: the raw scores q·k of random vectors spread out like √dₖ and softmax piles its weight on one key. Dividing by √dₖ keeps the weights soft. Each step adds or drops coordinates of the same vectors.",
  );
  const slider = rangeControl({
    // read aloud as "d sub k"; shown as d with a subscript k
    label: '<span aria-hidden="true">d<sub>k</sub></span><span class="attnw-sr">d sub k</span>',
    name: "d_k", min: 0, max: steps, value: logPosition(currentDk(), lo, hi, steps),
    format: (p) => `dₖ = ${dKOf(p)}`, valuetext: (p) => `d sub k = ${dKOf(p)}`,
  });
  const toggle = checkboxControl({ label: "divide by √dₖ (show the scaled weights)", name: "show_scaled", checked: model.get("show_scaled") });
  const range = stat("raw scores q·k from", "score-min");
  const rangeHi = stat("to", "score-max");
  root.append(h("div", { class: "attnw-controls" }, [slider.row, toggle.row]));
  root.append(h("div", { class: "attnw-stats attnw-tight" }, [range.el, rangeHi.el]));

  const panel = (key, title, color) => {
    const chart = barChart({ labels, title, color, name: `${key}-bars` });
    const mx = stat("max weight", `${key}-max`);
    const ent = stat("entropy (nats)", `${key}-entropy`);
    const box = h("figure", { class: "attnw-panel", "data-name": `${key}-panel` }, [
      h("figcaption", { text: title }), chart.el, h("div", { class: "attnw-stats" }, [mx.el, ent.el]),
    ]);
    return { box, chart, mx, ent };
  };
  const raw = panel("unscaled", "softmax(q·k)", PALETTE.red);
  const scaled = panel("scaled", "softmax(q·k / √dₖ)", PALETTE.blue);
  root.append(h("div", { class: "attnw-panels" }, [raw.box, scaled.box]));
  el.append(root);

  function draw() {
    const dK = currentDk();
    const scores = sharpeningScores(model, dK, vectors);
    const wRaw = softmax(scores, 1);
    const wScaled = softmax(scores, Math.sqrt(dK));
    range.set(Math.min(...scores), 2);
    rangeHi.set(Math.max(...scores), 2);
    raw.chart.update(wRaw);
    raw.mx.set(maxOf(wRaw));
    raw.ent.set(entropy(wRaw));
    scaled.chart.update(wScaled);
    scaled.mx.set(maxOf(wScaled));
    scaled.ent.set(entropy(wScaled));
    const show = Boolean(model.get("show_scaled"));
    scaled.box.hidden = !show;
    toggle.input.checked = show;
    const p = logPosition(dK, lo, hi, steps);
    if (Number(slider.input.value) !== p && dKOf(Number(slider.input.value)) !== dK) slider.input.value = String(p);
    slider.show(Number(slider.input.value));
    root.dataset.dK = String(dK);
  }

  slider.input.addEventListener("input", () => save(model, { d_k: dKOf(Number(slider.input.value)) }));
  toggle.input.addEventListener("change", () => save(model, { show_scaled: toggle.input.checked }));
  draw();
  return redrawOn(model, ["d_k", "show_scaled", "seed", "scores", "n_keys"], draw);
}

export default { render };
