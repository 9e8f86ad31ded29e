// Geometric attention: drag the query in query-key space; the scores q·k, the weights
// softmax(q·k / √d_k) and the context vector (weights @ V, drawn in value space) follow.
// Python reference: slider_math.geometric_numbers.
// Shared helpers (from _dom.js and _common.js): h, PALETTE, clamp, finiteIn, softmax, fmt, s, card, rangeControl, redrawOn, save

function attend(q, keys, values) {
  const n = keys.length;
  const raw = new Float64Array(n);
  for (let j = 0; j < n; j++) raw[j] = keys[j][0] * q[0] + keys[j][1] * q[1];
  const scaledScores = Float64Array.from(raw, (x) => x / Math.SQRT2);
  const w = softmax(scaledScores, 1);
  const ctx = [0, 0];
  for (let j = 0; j < n; j++) {
    ctx[0] += w[j] * values[j][0];
    ctx[1] += w[j] * values[j][1];
  }
  return { raw, scaledScores, w, ctx };
}

// A square plot mapping data [lo, hi]^2 to an SVG of `size` pixels.
function plane(lo, hi, size, title) {
  const pad = 26;
  const span = size - 2 * pad;
  const X = (x) => pad + ((x - lo) / (hi - lo)) * span;
  const Y = (y) => size - pad - ((y - lo) / (hi - lo)) * span;
  const svg = s("svg", { viewBox: `0 0 ${size} ${size}`, class: "attnw-chart attnw-plane", role: "img" });
  const desc = s("title", { text: title });
  svg.append(desc);
  svg.append(s("rect", { x: pad, y: pad, width: span, height: span, fill: "none", stroke: PALETTE.grid }));
  svg.append(s("line", { x1: X(lo), x2: X(hi), y1: Y(0), y2: Y(0), stroke: PALETTE.grid }));
  svg.append(s("line", { x1: X(0), x2: X(0), y1: Y(lo), y2: Y(hi), stroke: PALETTE.grid }));
  for (const v of [lo, 0, hi]) {
    svg.append(s("text", { x: X(v), y: size - 8, "text-anchor": "middle", class: "attnw-barlab", text: fmt(v, 1) }));
    svg.append(s("text", { x: pad - 4, y: Y(v) + 4, "text-anchor": "end", class: "attnw-barlab", text: fmt(v, 1) }));
  }
  return { svg, desc, X, Y, lo, hi };
}

function arrow(p, x, y, color, width = 2) {
  return s("line", { x1: p.X(0), y1: p.Y(0), x2: p.X(x), y2: p.Y(y), stroke: color, "stroke-width": width });
}

// The side of key j's normal its label goes on: a key nearly parallel to an earlier one (like "because"
// and "animal") gets the other side from it, so the labels do not overlap.
function labelSide(keys, j, sides) {
  const [x, y] = keys[j];
  const len = Math.hypot(x, y) || 1;
  let side = 1;
  for (let i = 0; i < j; i++) {
    const [xi, yi] = keys[i];
    const parallel = Math.abs(xi * y - yi * x) / ((Math.hypot(xi, yi) || 1) * len) < 0.2;
    if (parallel && sides[i] === side) side = -side;
  }
  return side;
}

// Query-key space: the keys as arrows with their labels, and the query's dashed arrow and handle.
function buildQueryKeyPlane(v) {
  const { qLo, qHi, keys } = v;
  const kq = plane(qLo - 0.5, qHi + 0.5, 300, "query and keys");
  kq.svg.dataset.name = "qk-plane";
  const keyArrows = [], keyLabels = [], sides = [];
  for (let j = 0; j < v.n; j++) {
    // Label beside the key's tip, on the side of its normal.
    const [x, y] = keys[j];
    const len = Math.hypot(x, y) || 1;
    const side = labelSide(keys, j, sides);
    sides.push(side);
    const nx = (-y / len) * side, ny = (x / len) * side; // unit normal in data coordinates
    const a = arrow(kq, x, y, PALETTE.ink, 2);
    const t = s("text", {
      x: kq.X(x) + 10 * nx, y: kq.Y(y) - 10 * ny + 4, class: "attnw-barlab", "text-anchor": nx < 0 ? "end" : "start",
    });
    kq.svg.append(a, t);
    keyArrows.push(a);
    keyLabels.push(t);
  }
  const qLine = arrow(kq, 0, 0, PALETTE.blue, 2.5);
  qLine.setAttribute("stroke-dasharray", "6 4");
  const qDot = s("circle", { r: 9, fill: PALETTE.blue, stroke: "#ffffff", "stroke-width": 2, class: "attnw-handle", "data-name": "query-handle" });
  const qText = s("text", { class: "attnw-handle-label", "text-anchor": "middle", text: "q" });
  kq.svg.append(qLine, qDot, qText);
  return { kq, keyArrows, keyLabels, qLine, qDot, qText };
}

// Value space: the values as labelled points, a spoke from the context vector to each, and the context point.
function buildValuePlane(v) {
  const { values, words, n } = v;
  const pts = values.flat().concat([0]);
  const vLo = Math.floor(Math.min(...pts) - 0.5), vHi = Math.ceil(Math.max(...pts) + 0.5);
  const vs = plane(vLo, vHi, 300, "values and the context vector");
  vs.svg.dataset.name = "v-plane";
  const spokes = [];
  for (let j = 0; j < n; j++) {
    const l = s("line", { stroke: PALETTE.green, "stroke-linecap": "round" });
    vs.svg.append(l);
    spokes.push(l);
  }
  for (let j = 0; j < n; j++) {
    vs.svg.append(s("circle", { cx: vs.X(values[j][0]), cy: vs.Y(values[j][1]), r: 5, fill: PALETTE.ink }));
    vs.svg.append(s("text", { x: vs.X(values[j][0]) + 7, y: vs.Y(values[j][1]) - 6, class: "attnw-barlab", text: `v ${words[j]}` }));
  }
  const ctxDot = s("circle", { r: 7, fill: PALETTE.red, stroke: "#ffffff", "stroke-width": 2, "data-name": "context-point" });
  const ctxText = s("text", { class: "attnw-barlab", fill: PALETTE.red });
  vs.svg.append(ctxDot, ctxText);
  return { vs, spokes, ctxDot, ctxText };
}

// The numbers: a table of scores, scaled scores and weights per key, then q and the context vector.
function buildNumbers(v) {
  const table = h("table", { class: "attnw-table" });
  table.append(h("caption", { text: "scores, scaled scores and weights for each key" }));
  const head = h("tr");
  for (const t of ["key", "q·k", "q·k / √2", "weight"]) head.append(h("th", { scope: "col", text: t }));
  table.append(h("thead", {}, [head]));
  const body = h("tbody");
  const cells = [];
  for (let j = 0; j < v.n; j++) {
    const c = [h("td", { "data-name": `score-${j}` }), h("td", { "data-name": `scaled-${j}` }), h("td", { "data-name": `weight-${j}` })];
    body.append(h("tr", {}, [h("th", { scope: "row", text: v.words[j] }), ...c]));
    cells.push(c);
  }
  table.append(body);
  const qShown = h("span", { class: "attnw-num", "data-name": "query" });
  const ctxShown = h("span", { class: "attnw-num", "data-name": "context" });
  v.root.append(h("div", { class: "attnw-scroll" }, [table]), h("div", { class: "attnw-stats" }, [
    h("span", { class: "attnw-stat" }, [h("span", { text: "q = " }), qShown]),
    h("span", { class: "attnw-stat" }, [h("span", { text: "context = " }), ctxShown]),
  ]));
  return { cells, qShown, ctxShown };
}

// The card's parts in order: the sliders, the two planes side by side, the numbers.
function buildView(v) {
  const { qLo, qHi, qStep } = v;
  const format = (x) => fmt(Number(x), 1);
  v.qx = rangeControl({ label: "query x", name: "query_x", min: qLo, max: qHi, step: qStep, value: v.currentQ()[0], format });
  v.qy = rangeControl({ label: "query y", name: "query_y", min: qLo, max: qHi, step: qStep, value: v.currentQ()[1], format });
  v.root.append(h("div", { class: "attnw-controls" }, [v.qx.row, v.qy.row]));
  Object.assign(v, buildQueryKeyPlane(v), buildValuePlane(v));
  v.root.append(h("div", { class: "attnw-panels" }, [
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "query–key space (drag q)" }), v.kq.svg]),
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "value space: context = Σ weight · v" }), v.vs.svg]),
  ]));
  Object.assign(v, buildNumbers(v));
}

// The query's arrow, handle and label at q.
function showQuery(v, q) {
  const { kq } = v;
  v.qLine.setAttribute("x2", String(kq.X(q[0])));
  v.qLine.setAttribute("y2", String(kq.Y(q[1])));
  v.qDot.setAttribute("cx", String(kq.X(q[0])));
  v.qDot.setAttribute("cy", String(kq.Y(q[1])));
  v.qText.setAttribute("x", String(kq.X(q[0])));
  v.qText.setAttribute("y", String(kq.Y(q[1]) + 4));
}

// Per key: its arrow's width and label, its spoke to the context vector, and its row of the table.
function showKeys(v, { raw, scaledScores, w, ctx }) {
  const { vs, values, spokes, cells } = v;
  for (let j = 0; j < v.n; j++) {
    v.keyArrows[j].setAttribute("stroke-width", String(1.5 + 4 * w[j]));
    v.keyLabels[j].textContent = `${v.words[j]} (${fmt(w[j], 2)})`;
    spokes[j].setAttribute("x1", String(vs.X(ctx[0])));
    spokes[j].setAttribute("y1", String(vs.Y(ctx[1])));
    spokes[j].setAttribute("x2", String(vs.X(values[j][0])));
    spokes[j].setAttribute("y2", String(vs.Y(values[j][1])));
    spokes[j].setAttribute("stroke-width", String(0.5 + 8 * w[j]));
    cells[j][0].textContent = fmt(raw[j], 3);
    cells[j][1].textContent = fmt(scaledScores[j], 3);
    cells[j][2].textContent = fmt(w[j], 3);
  }
}

// The context point, the numbers q and context, and the planes' descriptions.
function showContext(v, q, w, ctx) {
  const { vs, words } = v;
  v.ctxDot.setAttribute("cx", String(vs.X(ctx[0])));
  v.ctxDot.setAttribute("cy", String(vs.Y(ctx[1])));
  v.ctxText.setAttribute("x", String(vs.X(ctx[0]) + 10));
  v.ctxText.setAttribute("y", String(vs.Y(ctx[1]) + 16));
  v.ctxText.textContent = "context";
  v.qShown.textContent = `[${fmt(q[0], 1)}, ${fmt(q[1], 1)}]`;
  v.ctxShown.textContent = `[${fmt(ctx[0], 3)}, ${fmt(ctx[1], 3)}]`;
  v.kq.desc.textContent = `query [${fmt(q[0], 1)}, ${fmt(q[1], 1)}]; weights ${Array.from(w, (x, j) => `${words[j]} ${fmt(x, 3)}`).join(", ")}`;
  vs.desc.textContent = `values of ${words.join(", ")}; context vector [${fmt(ctx[0], 3)}, ${fmt(ctx[1], 3)}]`;
}

// Redraw for the synced query.
function draw(v) {
  const q = v.currentQ();
  const att = attend(q, v.keys, v.values);
  showQuery(v, q);
  showKeys(v, att);
  showContext(v, q, att.w, att.ctx);
  for (const [ctl, x] of [[v.qx, q[0]], [v.qy, q[1]]]) {
    if (Math.abs(Number(ctl.input.value) - x) > 1e-9) ctl.input.value = String(x);
    ctl.show(x);
  }
}

// Dragging the query: the pointer's position in data coordinates of the query-key plane sets it.
function wireDrag(v, setQuery) {
  const { kq } = v;
  let dragging = false;
  const toData = (ev) => {
    const pt = kq.svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const p = pt.matrixTransform(kq.svg.getScreenCTM().inverse());
    const span = kq.X(kq.hi) - kq.X(kq.lo);
    return [kq.lo + ((p.x - kq.X(kq.lo)) / span) * (kq.hi - kq.lo), kq.lo + ((kq.Y(kq.lo) - p.y) / span) * (kq.hi - kq.lo)];
  };
  kq.svg.addEventListener("pointerdown", (ev) => {
    dragging = true;
    kq.svg.setPointerCapture(ev.pointerId);
    setQuery(...toData(ev));
    ev.preventDefault();
  });
  kq.svg.addEventListener("pointermove", (ev) => {
    if (dragging) setQuery(...toData(ev));
  });
  const stop = () => (dragging = false);
  kq.svg.addEventListener("pointerup", stop);
  kq.svg.addEventListener("pointercancel", stop);
}

function render({ model, el }) {
  const [qLo, qHi, qStep] = model.get("_limits").query;
  const keys = model.get("key_vectors");
  const perUnit = Math.round(1 / qStep); // 10 for a step of 0.1: x/10 is the double nearest to the decimal
  const snap = (x) => clamp(Math.round(x * perUnit) / perUnit, qLo, qHi);
  // the view: the synced vectors and limits, the card, then its parts as they are built
  const v = {
    qLo, qHi, qStep, keys, values: model.get("value_vectors"), words: model.get("words"), n: keys.length,
    currentQ: () => {
      const q = model.get("query") || [];
      return [finiteIn(q[0], qLo, qHi, 0), finiteIn(q[1], qLo, qHi, 0)];
    },
    root: card(
      "Attention as geometry",
      "Drag the query q (or use the two sliders). Scores are dot products with the keys, the weights are softmax(q·k / √2), and the context vector is the weighted average of the values.",
    ),
  };
  buildView(v);
  el.append(v.root);

  const setQuery = (x, y) => save(model, { query: [snap(x), snap(y)] });
  v.qx.input.addEventListener("input", () => setQuery(Number(v.qx.input.value), v.currentQ()[1]));
  v.qy.input.addEventListener("input", () => setQuery(v.currentQ()[0], Number(v.qy.input.value)));
  wireDrag(v, setQuery);
  draw(v);
  return redrawOn(model, ["query"], () => draw(v));
}

export default { render };
