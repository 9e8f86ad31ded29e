// Decoding with a KV cache: after `step` tokens the cache holds the keys and values of tokens
// 0..step-1, and the newest token's query attends over all of them (bottom-right causal rule).
// Python reference: attnlib.widgets.decoding.decoding_numbers.
// Shared helpers (from _dom.js and _common.js): h, PALETTE, finiteIn, softmax, fmt, card, rangeControl, stat, barChart, redrawOn, save

function vec(x) {
  return `[${Array.from(x, (v) => fmt(v, 2)).join(", ")}]`;
}

// The step slider and the previous / next buttons.
function buildControls(v) {
  const { tokens, n } = v;
  const slider = rangeControl({
    label: "tokens so far", name: "step", min: 1, max: n, value: v.currentStep(),
    format: (p) => `${p} of ${n}: "${tokens[p - 1]}"`,
  });
  const prev = h("button", { type: "button", "data-name": "prev", class: "attnw-button", text: "◀ previous token" });
  const next = h("button", { type: "button", "data-name": "next", class: "attnw-button", text: "next token ▶" });
  slider.row.style.flexWrap = "wrap"; // label, range and readout wrap on a phone screen
  slider.input.style.width = "min(220px, 100%)";
  v.root.append(h("div", { class: "attnw-controls" }, [slider.row, h("div", { class: "attnw-control" }, [prev, next])]));
  return { slider, prev, next };
}

// The statistics: the cache's length, the numbers it holds, the newest token's output.
function buildStats(v) {
  const cacheLength = stat("cache length", "cache-length");
  const cacheNumbers = stat("numbers cached (2 · length · d_k)", "cache-numbers");
  const output = h("span", { class: "attnw-num", "data-name": "output", text: "–" });
  v.root.append(h("div", { class: "attnw-stats" }, [
    cacheLength.el, cacheNumbers.el, h("span", { class: "attnw-stat" }, [h("span", { text: "output of the newest token " }), output]),
  ]));
  return { cacheLength, cacheNumbers, output };
}

// The cache table: one row per token (its key and value, then its score and weight once drawn).
function buildTable(v) {
  const { tokens, K, V } = v;
  const table = h("table", { class: "attnw-table", "data-name": "cache" });
  table.append(h("caption", { text: "The cache, and the newest query's attention row over it" }));
  const head = h("tr");
  for (const t of ["token", "key k", "value v", "score q·k/√d_k", "weight"]) head.append(h("th", { scope: "col", text: t }));
  table.append(h("thead", {}, [head]));
  const body = h("tbody");
  const rows = [];
  for (let j = 0; j < v.n; j++) {
    const cells = {
      key: h("td", { "data-name": `key-${j}`, text: vec(K[j]) }),
      value: h("td", { "data-name": `value-${j}`, text: vec(V[j]) }),
      score: h("td", { "data-name": `score-${j}` }),
      weight: h("td", { "data-name": `weight-${j}` }),
    };
    const tr = h("tr", { "data-name": `row-${j}` }, [
      h("th", { scope: "row", text: `${j}: ${tokens[j]}` }), cells.key, cells.value, cells.score, cells.weight,
    ]);
    body.append(tr);
    rows.push({ tr, ...cells });
  }
  table.append(body);
  return { table, rows };
}

// The panels: the cache table beside the bar chart of the newest token's weights.
function buildPanels(v, table) {
  const title = "attention weights of the newest token";
  const chart = barChart({ labels: v.tokens, title, color: PALETTE.blue, name: "weights-bars" });
  // One slot per token, drawn only once the token is generated (a token not in the cache has no
  // weight, not a weight of 0): its bar, its value and its label.
  const slots = v.tokens.map((_, j) => [
    chart.el.querySelectorAll("rect")[j], chart.el.querySelector(`[data-name="weights-bars-${j}"]`),
    chart.el.querySelectorAll(".attnw-barlab")[j],
  ]);
  const chartTitle = chart.el.querySelector("title");
  v.root.classList.add("attnw-decoding");
  v.root.append(h("div", { class: "attnw-panels" }, [
    // the whole card's width (decoding.css): the table fits without scrolling at 390 px; should a
    // long token still widen it, the region scrolls and is focusable so keyboard users can scroll it
    h("div", { class: "attnw-panel attnw-cache", tabindex: "0", role: "region", "aria-label": "KV cache table" }, [table]),
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: title }), chart.el]),
  ]));
  return { title, chart, slots, chartTitle };
}

// The newest (t-th) query's scaled scores over the t cached keys, its weights and its output.
function attendNewest(v, t) {
  const { Q, K, V } = v;
  const q = Q[t - 1];
  const scores = new Float64Array(t);
  for (let j = 0; j < t; j++) {
    let dot = 0;
    for (let i = 0; i < q.length; i++) dot += q[i] * K[j][i];
    scores[j] = dot / Math.sqrt(q.length);
  }
  const w = softmax(scores, 1);
  const out = new Float64Array(V[0].length);
  for (let j = 0; j < t; j++) for (let i = 0; i < out.length; i++) out[i] += w[j] * V[j][i];
  return { scores, w, out };
}

// The table's rows and the chart's slots: the cached tokens shown, the newest in bold.
function showCache(v, t, scores, w) {
  const { rows, n } = v;
  const full = new Float64Array(n); // the chart's values; the slots of tokens not generated yet are hidden
  for (let j = 0; j < n; j++) {
    const inCache = j < t;
    rows[j].tr.hidden = !inCache;
    rows[j].tr.style.fontWeight = j === t - 1 ? "700" : "400";
    rows[j].score.textContent = inCache ? fmt(scores[j], 3) : "";
    rows[j].weight.textContent = inCache ? fmt(w[j], 3) : "";
    full[j] = inCache ? w[j] : 0;
  }
  v.chart.update(full);
  v.slots.forEach((parts, j) => parts.forEach((e) => (j < t ? e.removeAttribute("display") : e.setAttribute("display", "none"))));
  v.chartTitle.textContent = `${v.title}: ${v.tokens.slice(0, t).map((tok, j) => `${tok} ${fmt(w[j], 3)}`).join(", ")}`;
}

// Redraw for the synced step: the cache, the statistics and the controls.
function draw(v) {
  const t = v.currentStep();
  const { scores, w, out } = attendNewest(v, t);
  showCache(v, t, scores, w);
  v.cacheLength.set(t, 0);
  v.cacheNumbers.set(2 * t * v.K[0].length, 0);
  v.output.textContent = `[${Array.from(out, (x) => fmt(x, 3)).join(", ")}]`;
  if (Number(v.slider.input.value) !== t) v.slider.input.value = String(t);
  v.slider.show(t);
  v.prev.disabled = t <= 1;
  v.next.disabled = t >= v.n;
  v.root.dataset.step = String(t);
}

function render({ model, el }) {
  const tokens = model.get("tokens");
  const n = tokens.length;
  // the view: the synced vectors, the card, then its parts as they are built
  const v = {
    tokens, n, Q: model.get("query_vectors"), K: model.get("key_vectors"), V: model.get("value_vectors"),
    currentStep: () => Math.round(finiteIn(model.get("step"), 1, n, 1)),
    root: card(
      "Generating with a KV cache",
      "Each step adds one token: its key and value join the cache, and its query attends over every cached token. Step with the slider or the buttons.",
    ),
  };
  Object.assign(v, buildControls(v), buildStats(v));
  const { table, rows } = buildTable(v);
  Object.assign(v, { rows }, buildPanels(v, table));
  el.append(v.root);

  v.slider.input.addEventListener("input", () => save(model, { step: Number(v.slider.input.value) }));
  v.prev.addEventListener("click", () => save(model, { step: Math.max(1, v.currentStep() - 1) }));
  v.next.addEventListener("click", () => save(model, { step: Math.min(n, v.currentStep() + 1) }));
  draw(v);
  return redrawOn(model, ["step"], () => draw(v));
}

export default { render };
