// Rotary positions, one pair at a time: pair i of a vector at position m is turned by m·θ_i with
// θ_i = 10000^(−2i/d); the score is the dot product of the whole turned query and key. With the
// "added sinusoids" box, the sinusoidal position vectors are added instead (sin and cos of m·θ_i).
// Python reference: attnlib.widgets.rotary.rotary_numbers.
// Shared helpers (from _dom.js and _common.js): h, PALETTE, finiteIn, fmt, s, card, rangeControl, checkboxControl, stat, redrawOn, save

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
  let total = 0;
  for (let i = 0; i < a.length; i++) total += a[i] * b[i];
  return total;
}

// The controls: the two positions, the buttons that move both, the pair, and the "added sinusoids" box.
function buildControls(v) {
  const { pLo, pHi, iLo, iHi, d, pos } = v;
  v.qPos = rangeControl({ label: "query position m", name: "query_position", min: pLo, max: pHi, value: pos("query_position"), format: (p) => String(p) });
  v.kPos = rangeControl({ label: "key position n", name: "key_position", min: pLo, max: pHi, value: pos("key_position"), format: (p) => String(p) });
  v.pairCtl = rangeControl({
    label: "pair i", name: "pair", min: iLo, max: iHi, value: v.pairNow(),
    format: (p) => `${p}: ${fmt((180 / Math.PI) * thetaOf(p, d), 2)}° per position`,
  });
  v.down = h("button", { type: "button", "data-name": "both-down", class: "attnw-button", text: "both −1" });
  v.up = h("button", { type: "button", "data-name": "both-up", class: "attnw-button", text: "both +1" });
  v.added = checkboxControl({ label: "added sinusoids instead of turning", name: "sinusoidal", checked: v.model.get("sinusoidal") });
  v.root.append(h("div", { class: "attnw-controls" }, [
    v.qPos.row, v.kPos.row, h("div", { class: "attnw-control" }, [v.down, v.up]), v.pairCtl.row, v.added.row,
  ]));
}

// The numbers: the score, the offset and the pair's turn, then the query's and the key's pair.
function buildNumbers(v) {
  v.score = stat("score q·k", "score");
  v.offset = stat("offset m − n", "offset");
  v.turn = stat("this pair turns (degrees per position)", "turn");
  v.root.append(h("div", { class: "attnw-stats" }, [v.score.el, v.offset.el, v.turn.el]));
  v.qText = h("span", { class: "attnw-num", "data-name": "query-pair", text: "–" });
  v.kText = h("span", { class: "attnw-num", "data-name": "key-pair", text: "–" });
  v.note = h("p", { class: "attnw-desc", "data-name": "note" });
  v.root.append(h("div", { class: "attnw-stats" }, [
    h("span", { class: "attnw-stat" }, [h("span", { text: "query pair " }), v.qText]),
    h("span", { class: "attnw-stat" }, [h("span", { text: "key pair " }), v.kText]),
  ]));
}

// The plane: a fixed range that holds every pair of both vectors, turned or with a position added; the
// axes, the circle, and the query's and the key's arrow with their labels. Then the note under it.
function buildPlane(v) {
  const { Q, K, d } = v;
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
  v.root.append(h("div", { class: "attnw-panels" }, [
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "pair i of the query and of the key" }), svg]),
  ]));
  v.root.append(v.note);
  Object.assign(v, { X, Y, desc, qLine, kLine, qLab, kLab });
}

// Pair i of the placed query (at m) and key (at n) on the plane, and the numbers and the note.
function showPair(v, { m, n, i, sinusoidal }) {
  const { X, Y } = v;
  const q = placed(v.Q, m, sinusoidal), k = placed(v.K, n, sinusoidal);
  const sc = dot(q, k);
  const qp = [q[2 * i], q[2 * i + 1]], kp = [k[2 * i], k[2 * i + 1]];
  for (const [line, lab, p] of [[v.qLine, v.qLab, qp], [v.kLine, v.kLab, kp]]) {
    line.setAttribute("x2", String(X(p[0])));
    line.setAttribute("y2", String(Y(p[1])));
    lab.setAttribute("x", String(X(p[0]) + 5));
    lab.setAttribute("y", String(Y(p[1]) - 5));
  }
  v.score.set(sc, 3);
  v.offset.set(m - n, 0);
  v.turn.set((180 / Math.PI) * thetaOf(i, v.d), 2);
  v.qText.textContent = `[${fmt(qp[0], 3)}, ${fmt(qp[1], 3)}]`;
  v.kText.textContent = `[${fmt(kp[0], 3)}, ${fmt(kp[1], 3)}]`;
  v.desc.textContent = `pair ${i}: query [${fmt(qp[0], 2)}, ${fmt(qp[1], 2)}] at position ${m}, key [${fmt(kp[0], 2)}, ${fmt(kp[1], 2)}] at position ${n}; score ${fmt(sc, 3)}`;
  v.note.textContent = sinusoidal
    ? "Added sinusoids: the score depends on where the two positions are, not only on m − n."
    : "Turned: the score depends on m − n only; moving both positions together leaves it unchanged.";
}

// The controls show the synced state; a button that would move a position out of range is off.
function showControls(v, { m, n, i, sinusoidal }) {
  for (const [ctl, name] of [[v.qPos, "query_position"], [v.kPos, "key_position"]]) {
    const x = v.pos(name);
    if (Number(ctl.input.value) !== x) ctl.input.value = String(x);
    ctl.show(x);
  }
  if (Number(v.pairCtl.input.value) !== i) v.pairCtl.input.value = String(i);
  v.pairCtl.show(i);
  v.added.input.checked = sinusoidal;
  v.down.disabled = Math.min(m, n) <= v.pLo;
  v.up.disabled = Math.max(m, n) >= v.pHi;
}

// Redraw for the synced positions, pair and box.
function draw(v) {
  const state = { m: v.pos("query_position"), n: v.pos("key_position"), i: v.pairNow(), sinusoidal: Boolean(v.model.get("sinusoidal")) };
  showPair(v, state);
  showControls(v, state);
}

// The sliders and the box write the synced state; the buttons move both positions by one, if both stay in range.
function wire(v) {
  const { model, qPos, kPos, pairCtl, added, pos } = v;
  qPos.input.addEventListener("input", () => save(model, { query_position: Number(qPos.input.value) }));
  kPos.input.addEventListener("input", () => save(model, { key_position: Number(kPos.input.value) }));
  pairCtl.input.addEventListener("input", () => save(model, { pair: Number(pairCtl.input.value) }));
  added.input.addEventListener("change", () => save(model, { sinusoidal: added.input.checked }));
  const both = (step) => () => {
    const m = pos("query_position") + step, n = pos("key_position") + step;
    if (Math.min(m, n) >= v.pLo && Math.max(m, n) <= v.pHi) save(model, { query_position: m, key_position: n });
  };
  v.down.addEventListener("click", both(-1));
  v.up.addEventListener("click", both(1));
}

function render({ model, el }) {
  const [pLo, pHi] = model.get("_limits").position;
  const [iLo, iHi] = model.get("_limits").pair;
  const Q = model.get("query_vector");
  // the view: the synced vectors and limits, the card, then its parts as they are built
  const v = {
    model, pLo, pHi, iLo, iHi, Q, K: model.get("key_vector"), d: Q.length,
    pos: (name) => Math.round(finiteIn(model.get(name), pLo, pHi, pLo)),
    pairNow: () => Math.round(finiteIn(model.get("pair"), iLo, iHi, iLo)),
    root: card(
      "Turn a query and a key",
      "The arrows are one pair of features of the query (blue) and the key (orange), turned by position × the pair's speed. The score is the dot product of the whole vectors. Move both positions together: the score stays; switch to added sinusoids: it changes.",
    ),
  };
  v.root.classList.add("attnw-rotary");
  buildControls(v);
  buildNumbers(v);
  buildPlane(v);
  el.append(v.root);
  wire(v);
  draw(v);
  return redrawOn(model, ["query_position", "key_position", "pair", "sinusoidal"], () => draw(v));
}

export default { render };
