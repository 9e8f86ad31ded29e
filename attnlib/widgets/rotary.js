// Rotary positions, one pair at a time: pair i of a vector at position m is turned by m·θ_i with
// θ_i = 10000^(−2i/d); the score is the dot product of the whole turned query and key. With the
// "added sinusoids" box, the sinusoidal position vectors are added instead (sin and cos of m·θ_i).
// Python reference: attnlib.widgets.rotary.rotary_numbers.

function thetaOf(i, d) {
  return Math.pow(10000, -(2 * i) / d);
}

// The query or key at `pos`: turned (rotary) or with the position vector added (sinusoidal).
function placed(x, pos, sinusoidal) {
  const d = x.length;
  const out = new Float64Array(d);
  for (let i = 0; i < d / 2; i++) {
    const angle = pos * thetaOf(i, d);
    const c = Math.cos(angle), sn = Math.sin(angle);
    const a = x[2 * i], b = x[2 * i + 1];
    if (sinusoidal) {
      out[2 * i] = a + sn;
      out[2 * i + 1] = b + c;
    } else {
      out[2 * i] = a * c - b * sn;
      out[2 * i + 1] = a * sn + b * c;
    }
  }
  return out;
}

function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function render({ model, el }) {
  const [pLo, pHi] = model.get("_limits").position;
  const [iLo, iHi] = model.get("_limits").pair;
  const Q = model.get("query_vector");
  const K = model.get("key_vector");
  const d = Q.length;
  const pos = (name) => Math.round(finiteIn(model.get(name), pLo, pHi, pLo));
  const pairNow = () => Math.round(finiteIn(model.get("pair"), iLo, iHi, iLo));

  const root = card(
    "Turn a query and a key",
    "The arrows are one pair of features of the query (blue) and the key (orange), turned by position × the pair's speed. The score is the dot product of the whole vectors. Move both positions together: the score stays; switch to added sinusoids: it changes.",
  );
  root.classList.add("attnw-rotary");
  const qPos = rangeControl({ label: "query position m", name: "query_position", min: pLo, max: pHi, value: pos("query_position"), format: (p) => String(p) });
  const kPos = rangeControl({ label: "key position n", name: "key_position", min: pLo, max: pHi, value: pos("key_position"), format: (p) => String(p) });
  const pairCtl = rangeControl({
    label: "pair i", name: "pair", min: iLo, max: iHi, value: pairNow(),
    format: (p) => `${p}: ${fmt((180 / Math.PI) * thetaOf(p, d), 2)}° per position`,
  });
  const down = h("button", { type: "button", "data-name": "both-down", class: "attnw-button", text: "both −1" });
  const up = h("button", { type: "button", "data-name": "both-up", class: "attnw-button", text: "both +1" });
  const added = checkboxControl({ label: "added sinusoids instead of turning", name: "sinusoidal", checked: model.get("sinusoidal") });
  root.append(h("div", { class: "attnw-controls" }, [
    qPos.row, kPos.row, h("div", { class: "attnw-control" }, [down, up]), pairCtl.row, added.row,
  ]));

  const score = stat("score q·k", "score");
  const offset = stat("offset m − n", "offset");
  const turn = stat("this pair turns (degrees per position)", "turn");
  root.append(h("div", { class: "attnw-stats" }, [score.el, offset.el, turn.el]));
  const qText = h("span", { class: "attnw-num", "data-name": "query-pair", text: "–" });
  const kText = h("span", { class: "attnw-num", "data-name": "key-pair", text: "–" });
  const note = h("p", { class: "attnw-desc", "data-name": "note" });
  root.append(h("div", { class: "attnw-stats" }, [
    h("span", { class: "attnw-stat" }, [h("span", { text: "query pair " }), qText]),
    h("span", { class: "attnw-stat" }, [h("span", { text: "key pair " }), kText]),
  ]));

  // The plane: a fixed range that holds every pair of both vectors, turned or with a position added.
  let r = 1;
  for (let i = 0; i < d / 2; i++) r = Math.max(r, Math.hypot(Q[2 * i], Q[2 * i + 1]), Math.hypot(K[2 * i], K[2 * i + 1]));
  const R = Math.ceil(r + 1);
  const size = 260, pad = 16, span = size - 2 * pad;
  const X = (x) => pad + ((x + R) / (2 * R)) * span;
  const Y = (y) => size - pad - ((y + R) / (2 * R)) * span;
  const svg = s("svg", { viewBox: `0 0 ${size} ${size}`, class: "attnw-chart attnw-plane", role: "img", "data-name": "pair-plane" });
  const desc = s("title", { text: "one pair of the query and the key" });
  svg.append(desc);
  svg.append(s("line", { x1: X(-R), x2: X(R), y1: Y(0), y2: Y(0), stroke: PALETTE.grid }));
  svg.append(s("line", { x1: X(0), x2: X(0), y1: Y(-R), y2: Y(R), stroke: PALETTE.grid }));
  svg.append(s("circle", { cx: X(0), cy: Y(0), r: (span / (2 * R)) * R, fill: "none", stroke: PALETTE.grid }));
  const qLine = s("line", { x1: X(0), y1: Y(0), stroke: PALETTE.blue, "stroke-width": 3, "stroke-linecap": "round" });
  const kLine = s("line", { x1: X(0), y1: Y(0), stroke: PALETTE.red, "stroke-width": 3, "stroke-linecap": "round" });
  const qLab = s("text", { class: "attnw-barlab", fill: PALETTE.blue, text: "q" });
  const kLab = s("text", { class: "attnw-barlab", fill: PALETTE.red, text: "k" });
  svg.append(qLine, kLine, qLab, kLab);
  root.append(h("div", { class: "attnw-panels" }, [
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "pair i of the query and of the key" }), svg]),
  ]));
  root.append(note);
  el.append(root);

  function draw() {
    const m = pos("query_position"), n = pos("key_position"), i = pairNow();
    const sinusoidal = Boolean(model.get("sinusoidal"));
    const q = placed(Q, m, sinusoidal), k = placed(K, n, sinusoidal);
    const sc = dot(q, k);
    const qp = [q[2 * i], q[2 * i + 1]], kp = [k[2 * i], k[2 * i + 1]];
    for (const [line, lab, p] of [[qLine, qLab, qp], [kLine, kLab, kp]]) {
      line.setAttribute("x2", String(X(p[0])));
      line.setAttribute("y2", String(Y(p[1])));
      lab.setAttribute("x", String(X(p[0]) + 5));
      lab.setAttribute("y", String(Y(p[1]) - 5));
    }
    score.set(sc, 3);
    offset.set(m - n, 0);
    turn.set((180 / Math.PI) * thetaOf(i, d), 2);
    qText.textContent = `[${fmt(qp[0], 3)}, ${fmt(qp[1], 3)}]`;
    kText.textContent = `[${fmt(kp[0], 3)}, ${fmt(kp[1], 3)}]`;
    desc.textContent = `pair ${i}: query [${fmt(qp[0], 2)}, ${fmt(qp[1], 2)}] at position ${m}, key [${fmt(kp[0], 2)}, ${fmt(kp[1], 2)}] at position ${n}; score ${fmt(sc, 3)}`;
    note.textContent = sinusoidal
      ? "Added sinusoids: the score depends on where the two positions are, not only on m − n."
      : "Turned: the score depends on m − n only; moving both positions together leaves it unchanged.";
    for (const [ctl, name] of [[qPos, "query_position"], [kPos, "key_position"]]) {
      const v = pos(name);
      if (Number(ctl.input.value) !== v) ctl.input.value = String(v);
      ctl.show(v);
    }
    if (Number(pairCtl.input.value) !== i) pairCtl.input.value = String(i);
    pairCtl.show(i);
    added.input.checked = sinusoidal;
    down.disabled = Math.min(m, n) <= pLo;
    up.disabled = Math.max(m, n) >= pHi;
  }

  qPos.input.addEventListener("input", () => save(model, { query_position: Number(qPos.input.value) }));
  kPos.input.addEventListener("input", () => save(model, { key_position: Number(kPos.input.value) }));
  pairCtl.input.addEventListener("input", () => save(model, { pair: Number(pairCtl.input.value) }));
  added.input.addEventListener("change", () => save(model, { sinusoidal: added.input.checked }));
  const both = (step) => () => {
    const m = pos("query_position") + step, n = pos("key_position") + step;
    if (Math.min(m, n) >= pLo && Math.max(m, n) <= pHi) save(model, { query_position: m, key_position: n });
  };
  down.addEventListener("click", both(-1));
  up.addEventListener("click", both(1));
  draw();
  return redrawOn(model, ["query_position", "key_position", "pair", "sinusoidal"], draw);
}

export default { render };
