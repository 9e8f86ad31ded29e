// Geometric attention: drag the query in query-key space; the scores q·k, the weights
// softmax(q·k / √d_k) and the context vector (weights @ V, drawn in value space) follow.
// Python reference: slider_math.geometric_numbers.

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

function render({ model, el }) {
  const [qLo, qHi, qStep] = model.get("_limits").query;
  const keys = model.get("key_vectors");
  const values = model.get("value_vectors");
  const words = model.get("words");
  const n = keys.length;
  const perUnit = Math.round(1 / qStep); // 10 for a step of 0.1: x/10 is the double nearest to the decimal
  const snap = (x) => clamp(Math.round(x * perUnit) / perUnit, qLo, qHi);
  const currentQ = () => {
    const q = model.get("query") || [];
    return [finiteIn(q[0], qLo, qHi, 0), finiteIn(q[1], qLo, qHi, 0)];
  };

  const root = card(
    "Attention as geometry",
    "Drag the query q (or use the two sliders). Scores are dot products with the keys, the weights are softmax(q·k / √2), and the context vector is the weighted average of the values.",
  );
  const qx = rangeControl({ label: "query x", name: "query_x", min: qLo, max: qHi, step: qStep, value: currentQ()[0], format: (v) => fmt(Number(v), 1) });
  const qy = rangeControl({ label: "query y", name: "query_y", min: qLo, max: qHi, step: qStep, value: currentQ()[1], format: (v) => fmt(Number(v), 1) });
  root.append(h("div", { class: "attnw-controls" }, [qx.row, qy.row]));

  // Query-key space.
  const kq = plane(qLo - 0.5, qHi + 0.5, 300, "query and keys");
  kq.svg.dataset.name = "qk-plane";
  const keyArrows = [];
  const keyLabels = [];
  const sides = [];
  for (let j = 0; j < n; j++) {
    // Label beside the key's tip, on the side of its normal; a key nearly parallel to an earlier one
    // (like "because" and "animal") gets the other side, so the labels do not overlap.
    const [x, y] = keys[j];
    const len = Math.hypot(x, y) || 1;
    let side = 1;
    for (let i = 0; i < j; i++) {
      const [xi, yi] = keys[i];
      const parallel = Math.abs(xi * y - yi * x) / ((Math.hypot(xi, yi) || 1) * len) < 0.2;
      if (parallel && sides[i] === side) side = -side;
    }
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

  // Value space.
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

  root.append(h("div", { class: "attnw-panels" }, [
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "query–key space (drag q)" }), kq.svg]),
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "value space: context = Σ weight · v" }), vs.svg]),
  ]));

  // The numbers.
  const table = h("table", { class: "attnw-table" });
  table.append(h("caption", { text: "scores, scaled scores and weights for each key" }));
  const head = h("tr");
  for (const t of ["key", "q·k", "q·k / √2", "weight"]) head.append(h("th", { scope: "col", text: t }));
  table.append(h("thead", {}, [head]));
  const body = h("tbody");
  const cells = [];
  for (let j = 0; j < n; j++) {
    const c = [h("td", { "data-name": `score-${j}` }), h("td", { "data-name": `scaled-${j}` }), h("td", { "data-name": `weight-${j}` })];
    body.append(h("tr", {}, [h("th", { scope: "row", text: words[j] }), ...c]));
    cells.push(c);
  }
  table.append(body);
  const qShown = h("span", { class: "attnw-num", "data-name": "query" });
  const ctxShown = h("span", { class: "attnw-num", "data-name": "context" });
  root.append(h("div", { class: "attnw-scroll" }, [table]), h("div", { class: "attnw-stats" }, [
    h("span", { class: "attnw-stat" }, [h("span", { text: "q = " }), qShown]),
    h("span", { class: "attnw-stat" }, [h("span", { text: "context = " }), ctxShown]),
  ]));
  el.append(root);

  function draw() {
    const q = currentQ();
    const { raw, scaledScores, w, ctx } = attend(q, keys, values);
    qLine.setAttribute("x2", String(kq.X(q[0])));
    qLine.setAttribute("y2", String(kq.Y(q[1])));
    qDot.setAttribute("cx", String(kq.X(q[0])));
    qDot.setAttribute("cy", String(kq.Y(q[1])));
    qText.setAttribute("x", String(kq.X(q[0])));
    qText.setAttribute("y", String(kq.Y(q[1]) + 4));
    for (let j = 0; j < n; j++) {
      keyArrows[j].setAttribute("stroke-width", String(1.5 + 4 * w[j]));
      keyLabels[j].textContent = `${words[j]} (${fmt(w[j], 2)})`;
      spokes[j].setAttribute("x1", String(vs.X(ctx[0])));
      spokes[j].setAttribute("y1", String(vs.Y(ctx[1])));
      spokes[j].setAttribute("x2", String(vs.X(values[j][0])));
      spokes[j].setAttribute("y2", String(vs.Y(values[j][1])));
      spokes[j].setAttribute("stroke-width", String(0.5 + 8 * w[j]));
      cells[j][0].textContent = fmt(raw[j], 3);
      cells[j][1].textContent = fmt(scaledScores[j], 3);
      cells[j][2].textContent = fmt(w[j], 3);
    }
    ctxDot.setAttribute("cx", String(vs.X(ctx[0])));
    ctxDot.setAttribute("cy", String(vs.Y(ctx[1])));
    ctxText.setAttribute("x", String(vs.X(ctx[0]) + 10));
    ctxText.setAttribute("y", String(vs.Y(ctx[1]) + 16));
    ctxText.textContent = "context";
    qShown.textContent = `[${fmt(q[0], 1)}, ${fmt(q[1], 1)}]`;
    ctxShown.textContent = `[${fmt(ctx[0], 3)}, ${fmt(ctx[1], 3)}]`;
    kq.desc.textContent = `query [${fmt(q[0], 1)}, ${fmt(q[1], 1)}]; weights ${Array.from(w, (x, j) => `${words[j]} ${fmt(x, 3)}`).join(", ")}`;
    vs.desc.textContent = `values of ${words.join(", ")}; context vector [${fmt(ctx[0], 3)}, ${fmt(ctx[1], 3)}]`;
    for (const [ctl, v] of [[qx, q[0]], [qy, q[1]]]) {
      if (Math.abs(Number(ctl.input.value) - v) > 1e-9) ctl.input.value = String(v);
      ctl.show(v);
    }
  }

  const setQuery = (x, y) => save(model, { query: [snap(x), snap(y)] });
  qx.input.addEventListener("input", () => setQuery(Number(qx.input.value), currentQ()[1]));
  qy.input.addEventListener("input", () => setQuery(currentQ()[0], Number(qy.input.value)));

  // Dragging: pointer position in data coordinates of the query-key plane.
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

  draw();
  return redrawOn(model, ["query"], draw);
}

export default { render };
