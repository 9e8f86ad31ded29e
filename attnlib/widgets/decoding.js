// Decoding with a KV cache: after `step` tokens the cache holds the keys and values of tokens
// 0..step-1, and the newest token's query attends over all of them (bottom-right causal rule).
// Python reference: attnlib.widgets.decoding.decoding_numbers.

function vec(x) {
  return `[${Array.from(x, (v) => fmt(v, 2)).join(", ")}]`;
}

function render({ model, el }) {
  const tokens = model.get("tokens");
  const n = tokens.length;
  const Q = model.get("query_vectors");
  const K = model.get("key_vectors");
  const V = model.get("value_vectors");
  const currentStep = () => Math.round(finiteIn(model.get("step"), 1, n, 1));

  const root = card(
    "Generating with a KV cache",
    "Each step adds one token: its key and value join the cache, and its query attends over every cached token. Step with the slider or the buttons.",
  );
  const slider = rangeControl({
    label: "tokens so far", name: "step", min: 1, max: n, value: currentStep(),
    format: (p) => `${p} of ${n}: "${tokens[p - 1]}"`,
  });
  const prev = h("button", { type: "button", "data-name": "prev", class: "attnw-button", text: "◀ previous token" });
  const next = h("button", { type: "button", "data-name": "next", class: "attnw-button", text: "next token ▶" });
  slider.row.style.flexWrap = "wrap"; // label, range and readout wrap on a phone screen
  slider.input.style.width = "min(220px, 100%)";
  root.append(h("div", { class: "attnw-controls" }, [slider.row, h("div", { class: "attnw-control" }, [prev, next])]));

  const length = stat("cache length", "cache-length");
  const numbers = stat("numbers cached (2 · length · d_k)", "cache-numbers");
  const output = h("span", { class: "attnw-num", "data-name": "output", text: "–" });
  root.append(h("div", { class: "attnw-stats" }, [
    length.el, numbers.el, h("span", { class: "attnw-stat" }, [h("span", { text: "output of the newest token " }), output]),
  ]));

  const table = h("table", { class: "attnw-table", "data-name": "cache" });
  table.append(h("caption", { text: "The cache, and the newest query's attention row over it" }));
  const head = h("tr");
  for (const t of ["token", "key k", "value v", "score q·k/√d_k", "weight"]) head.append(h("th", { scope: "col", text: t }));
  table.append(h("thead", {}, [head]));
  const body = h("tbody");
  const rows = [];
  for (let j = 0; j < n; j++) {
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
  const title = "attention weights of the newest token";
  const chart = barChart({ labels: tokens, title, color: PALETTE.blue, name: "weights-bars" });
  // One slot per token, drawn only once the token is generated (a token not in the cache has no
  // weight, not a weight of 0): its bar, its value and its label.
  const slots = tokens.map((_, j) => [
    chart.el.querySelectorAll("rect")[j], chart.el.querySelector(`[data-name="weights-bars-${j}"]`),
    chart.el.querySelectorAll(".attnw-barlab")[j],
  ]);
  const chartTitle = chart.el.querySelector("title");
  root.classList.add("attnw-decoding");
  root.append(h("div", { class: "attnw-panels" }, [
    // the whole card's width (decoding.css): the table fits without scrolling at 390 px; should a
    // long token still widen it, the region scrolls and is focusable so keyboard users can scroll it
    h("div", { class: "attnw-panel attnw-cache", tabindex: "0", role: "region", "aria-label": "KV cache table" }, [table]),
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: title }), chart.el]),
  ]));
  el.append(root);

  function draw() {
    const t = currentStep();
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
    const full = new Float64Array(n); // the chart's values; the slots of tokens not generated yet are hidden
    for (let j = 0; j < n; j++) {
      const inCache = j < t;
      rows[j].tr.hidden = !inCache;
      rows[j].tr.style.fontWeight = j === t - 1 ? "700" : "400";
      rows[j].score.textContent = inCache ? fmt(scores[j], 3) : "";
      rows[j].weight.textContent = inCache ? fmt(w[j], 3) : "";
      full[j] = inCache ? w[j] : 0;
    }
    chart.update(full);
    slots.forEach((parts, j) => parts.forEach((e) => (j < t ? e.removeAttribute("display") : e.setAttribute("display", "none"))));
    chartTitle.textContent = `${title}: ${tokens.slice(0, t).map((tok, j) => `${tok} ${fmt(w[j], 3)}`).join(", ")}`;
    length.set(t, 0);
    numbers.set(2 * t * K[0].length, 0);
    output.textContent = `[${Array.from(out, (x) => fmt(x, 3)).join(", ")}]`;
    if (Number(slider.input.value) !== t) slider.input.value = String(t);
    slider.show(t);
    prev.disabled = t <= 1;
    next.disabled = t >= n;
    root.dataset.step = String(t);
  }

  slider.input.addEventListener("input", () => save(model, { step: Number(slider.input.value) }));
  prev.addEventListener("click", () => save(model, { step: Math.max(1, currentStep() - 1) }));
  next.addEventListener("click", () => save(model, { step: Math.min(n, currentStep() + 1) }));
  draw();
  return redrawOn(model, ["step"], draw);
}

export default { render };
