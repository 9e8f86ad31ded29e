// The training of "Watch an induction head form", line for line as attnlib/companions/induction.py computes
// it in float64: the Mulberry32 batches and initial weights, the attention-only model's forward pass, its
// hand-written backward pass, Adam, and the measures of every head. No DOM here: induction.js draws it.
// It runs after trainer_core.js (mulberry32, normalDraws, adamUpdate, DIVERGED, WEIGHT_STREAM), in the page
// and in the Web Worker. Flat Float64Arrays, allocated once per run: no allocation inside a step.
// Shared helpers (from _dom.js and _common.js): none
// (none, and none may be added: the page's Web Worker runs this file with trainer_core.js alone)

const WATCH_STREAM = 0x85ebca6b;

function inductionParamNames(layers) {
  const names = ["embed", "pos"];
  for (let l = 0; l < layers; l++) for (const m of ["w_q", "w_k", "w_v", "w_o"]) names.push(`${m}${l}`);
  names.push("unembed");
  return names;
}

// attnlib.companions.induction.draw_batch, into `tokens` (Int32Array size·n), `start` and `length`.
function drawBatchInto(draw, size, st, tokens, start, length) {
  const n = st.context;
  for (let b = 0; b < size; b++) {
    const m = st.repeat_min + Math.floor(draw() * (st.repeat_max - st.repeat_min + 1));
    const s0 = Math.floor(draw() * (n - 2 * m + 1));
    const o = b * n;
    for (let j = 0; j < n; j++) tokens[o + j] = Math.floor(draw() * st.vocab);
    for (let j = 0; j < m; j++) tokens[o + s0 + m + j] = tokens[o + s0 + j];
    start[b] = s0; length[b] = m;
  }
}

function inductionWatched(st) {
  const draw = mulberry32((st.seed + WATCH_STREAM) >>> 0);
  const tokens = new Int32Array(st.context), start = new Int32Array(1), length = new Int32Array(1);
  drawBatchInto(draw, 1, { ...st, repeat_min: st.repeat_max }, tokens, start, length);
  return { tokens, start: start[0], length: length[0] };
}

// attnlib.companions.induction.init_weights.
function inductionInit(st) {
  const normal = normalDraws(mulberry32((st.seed + WEIGHT_STREAM) >>> 0));
  const d = st.d_model, w = {};
  for (const name of inductionParamNames(st.layers)) {
    const size = name === "embed" ? st.vocab * d : name === "pos" ? st.context * d : name === "unembed" ? d * st.vocab : d * d;
    const x = new Float64Array(size);
    for (let i = 0; i < size; i++) x[i] = normal();
    if (name !== "embed" && name !== "pos") for (let i = 0; i < size; i++) x[i] = x[i] / Math.sqrt(d);
    w[name] = x;
  }
  return w;
}

// The scratch arrays of a forward and backward pass on `size` sequences.
function inductionBuffers(st, size) {
  const { layers: L, heads: H, d_model: d, vocab: V, context: n } = st, f = (k) => new Float64Array(k);
  const per = () => Array.from({ length: L }, () => f(size * n * d));
  return {
    size, tokens: new Int32Array(size * n), start: new Int32Array(size), length: new Int32Array(size),
    xs: Array.from({ length: L + 1 }, () => f(size * n * d)), q: per(), k: per(), v: per(), z: per(),
    a: Array.from({ length: L }, () => f(size * H * n * n)), probs: f(size * n * V), losses: f(size * (n - 1)),
    dx: f(size * n * d), dz: f(size * n * d), dq: f(size * n * d), dk: f(size * n * d), dv: f(size * n * d),
    da: f(n), ds: f(n), acc: f(d), keep: Float64Array.from({ length: L * H }, () => 1),
  };
}

// y[r, :] = x[r, :] @ W for the `rows` rows of x (rows × d) and W (d × e); or y += that with `add`. Two rows
// and four outputs at a time, each summed over m in order from 0 (the one-output loop's sums, bit for bit).
function matRows(x, W, y, rows, d, e, add) {
  const e4 = e - (e % 4), r2 = rows - (rows % 2);
  for (let r = 0; r < r2; r += 2) {
    const xo = r * d, xp = xo + d;
    for (let c = 0; c < e4; c += 4) {
      let t0 = 0, t1 = 0, t2 = 0, t3 = 0, u0 = 0, u1 = 0, u2 = 0, u3 = 0;
      for (let m = 0; m < d; m++) {
        const xm = x[xo + m], xn = x[xp + m], wo = m * e + c, w0 = W[wo], w1 = W[wo + 1], w2 = W[wo + 2], w3 = W[wo + 3];
        t0 += xm * w0; t1 += xm * w1; t2 += xm * w2; t3 += xm * w3;
        u0 += xn * w0; u1 += xn * w1; u2 += xn * w2; u3 += xn * w3;
      }
      putFour(y, r * e + c, t0, t1, t2, t3, add);
      putFour(y, (r + 1) * e + c, u0, u1, u2, u3, add);
    }
    for (let c = e4; c < e; c++) { matOne(x, W, y, r, c, d, e, add); matOne(x, W, y, r + 1, c, d, e, add); }
  }
  for (let r = r2; r < rows; r++) for (let c = 0; c < e; c++) matOne(x, W, y, r, c, d, e, add);
}

// y[r, c] (+)= Σ_m x[r, m] · W[m, c], summed in order.
function matOne(x, W, y, r, c, d, e, add) {
  let t = 0;
  for (let m = 0; m < d; m++) t += x[r * d + m] * W[m * e + c];
  y[r * e + c] = add ? y[r * e + c] + t : t;
}

// y[o .. o + 3] = (or +=) t0 .. t3.
function putFour(y, o, t0, t1, t2, t3, add) {
  if (add) { y[o] += t0; y[o + 1] += t1; y[o + 2] += t2; y[o + 3] += t3; }
  else { y[o] = t0; y[o + 1] = t1; y[o + 2] = t2; y[o + 3] = t3; }
}

// One layer's attention: scores, causal softmax, each head's output times its keep, into buf.z[l]. Four keys
// at a time (four dot products side by side, each summed over c in order from 0), the same sums bit for bit.
function attendLayer(st, buf, l, size) {
  const { heads: H, d_model: d, context: n } = st, dh = d / H, sq = Math.sqrt(dh);
  const q = buf.q[l], k = buf.k[l], v = buf.v[l], a = buf.a[l], z = buf.z[l];
  for (let b = 0; b < size; b++) for (let hd = 0; hd < H; hd++) {
    const ao = (b * H + hd) * n * n, keep = buf.keep[l * H + hd];
    for (let i = 0; i < n; i++) {
      const qo = (b * n + i) * d + hd * dh, row = ao + i * n;
      let j = 0;
      for (; j + 3 <= i; j += 4) {
        const k0 = (b * n + j) * d + hd * dh, k1 = k0 + d, k2 = k1 + d, k3 = k2 + d;
        let t0 = 0, t1 = 0, t2 = 0, t3 = 0;
        for (let c = 0; c < dh; c++) { const qc = q[qo + c]; t0 += qc * k[k0 + c]; t1 += qc * k[k1 + c]; t2 += qc * k[k2 + c]; t3 += qc * k[k3 + c]; }
        a[row + j] = t0 / sq; a[row + j + 1] = t1 / sq; a[row + j + 2] = t2 / sq; a[row + j + 3] = t3 / sq;
      }
      for (; j <= i; j++) {
        let t = 0;
        const ko = (b * n + j) * d + hd * dh;
        for (let c = 0; c < dh; c++) t += q[qo + c] * k[ko + c];
        a[row + j] = t / sq;
      }
      let top = -Infinity;
      for (j = 0; j <= i; j++) if (a[row + j] > top) top = a[row + j];
      let sum = 0;
      for (j = 0; j <= i; j++) { a[row + j] = Math.exp(a[row + j] - top); sum += a[row + j]; }
      for (j = 0; j <= i; j++) a[row + j] = a[row + j] / sum;
      for (j = i + 1; j < n; j++) a[row + j] = 0;
      const acc = buf.acc; // each z[i, c] summed over j in order from 0, as one sum per c would be
      acc.fill(0, 0, dh);
      for (j = 0; j + 3 <= i; j += 4) {
        const a0 = a[row + j], a1 = a[row + j + 1], a2 = a[row + j + 2], a3 = a[row + j + 3];
        const v0 = (b * n + j) * d + hd * dh, v1 = v0 + d, v2 = v1 + d, v3 = v2 + d;
        for (let c = 0; c < dh; c++) acc[c] = acc[c] + a0 * v[v0 + c] + a1 * v[v1 + c] + a2 * v[v2 + c] + a3 * v[v3 + c];
      }
      for (; j <= i; j++) { const aij = a[row + j], vo = (b * n + j) * d + hd * dh; for (let c = 0; c < dh; c++) acc[c] += aij * v[vo + c]; }
      for (let c = 0; c < dh; c++) z[qo + c] = acc[c] * keep;
    }
  }
}

// attnlib.companions.induction.forward on the `size` sequences in buf.tokens; returns the mean loss.
function inductionForward(w, st, buf, size) {
  const { layers: L, d_model: d, vocab: V, context: n } = st, rows = size * n, E = w.embed, P = w.pos, tok = buf.tokens;
  const x0 = buf.xs[0];
  for (let r = 0; r < rows; r++) { const e = tok[r] * d, p = (r % n) * d; for (let c = 0; c < d; c++) x0[r * d + c] = E[e + c] + P[p + c]; }
  for (let l = 0; l < L; l++) {
    const x = buf.xs[l], y = buf.xs[l + 1];
    matRows(x, w[`w_q${l}`], buf.q[l], rows, d, d, false);
    matRows(x, w[`w_k${l}`], buf.k[l], rows, d, d, false);
    matRows(x, w[`w_v${l}`], buf.v[l], rows, d, d, false);
    attendLayer(st, buf, l, size);
    y.set(x.subarray(0, rows * d));
    matRows(buf.z[l], w[`w_o${l}`], y, rows, d, d, true);
  }
  const probs = buf.probs, U = w.unembed, xL = buf.xs[L];
  matRows(xL, U, probs, rows, d, V, false);
  let total = 0;
  for (let b = 0; b < size; b++) for (let i = 0; i < n; i++) {
    const o = (b * n + i) * V;
    let top = -Infinity, sum = 0;
    for (let c = 0; c < V; c++) if (probs[o + c] > top) top = probs[o + c];
    const picked = i < n - 1 ? probs[o + tok[b * n + i + 1]] : 0;
    for (let c = 0; c < V; c++) { probs[o + c] = Math.exp(probs[o + c] - top); sum += probs[o + c]; }
    for (let c = 0; c < V; c++) probs[o + c] = probs[o + c] / sum;
    if (i < n - 1) { const loss = Math.log(sum) + top - picked; buf.losses[b * (n - 1) + i] = loss; total += loss; }
  }
  return total / (size * (n - 1));
}

// G[c, m] = Σ_r x[r, c] · y[r, m] (into G, overwritten), each summed over r in order from 0. Two columns c and
// four outputs m at a time, their eight sums in registers over a chunk of OUTER_ROWS rows and carried in G from
// one chunk to the next. The same sums bit for bit as adding row after row into G, skipping the rows where
// x[r, c] is zero (as this did before): such a row adds ±0, and a sum that starts at +0 is never -0, so adding
// ±0 changes nothing while y is finite (it is: the loss was finite).
const OUTER_ROWS = 32;
function outerSum(x, y, G, rows, d, e) {
  G.fill(0);
  const d2 = d - (d % 2), e4 = e - (e % 4);
  for (let r0 = 0; r0 < rows; r0 += OUTER_ROWS) {
    const r1 = Math.min(rows, r0 + OUTER_ROWS);
    for (let c = 0; c < d2; c += 2) {
      const g0 = c * e, g1 = g0 + e;
      for (let m = 0; m < e4; m += 4) {
        let t0 = G[g0 + m], t1 = G[g0 + m + 1], t2 = G[g0 + m + 2], t3 = G[g0 + m + 3];
        let u0 = G[g1 + m], u1 = G[g1 + m + 1], u2 = G[g1 + m + 2], u3 = G[g1 + m + 3];
        for (let r = r0; r < r1; r++) {
          const xo = r * d + c, x0 = x[xo], x1 = x[xo + 1], yo = r * e + m, y0 = y[yo], y1 = y[yo + 1], y2 = y[yo + 2], y3 = y[yo + 3];
          t0 += x0 * y0; t1 += x0 * y1; t2 += x0 * y2; t3 += x0 * y3;
          u0 += x1 * y0; u1 += x1 * y1; u2 += x1 * y2; u3 += x1 * y3;
        }
        G[g0 + m] = t0; G[g0 + m + 1] = t1; G[g0 + m + 2] = t2; G[g0 + m + 3] = t3;
        G[g1 + m] = u0; G[g1 + m + 1] = u1; G[g1 + m + 2] = u2; G[g1 + m + 3] = u3;
      }
      for (let m = e4; m < e; m++) { outerOne(x, y, G, r0, r1, c, m, d, e); outerOne(x, y, G, r0, r1, c + 1, m, d, e); }
    }
    for (let c = d2; c < d; c++) for (let m = 0; m < e; m++) outerOne(x, y, G, r0, r1, c, m, d, e);
  }
}

// G[c, m] += Σ_r x[r, c] · y[r, m] over the rows r0 .. r1 - 1, in order.
function outerOne(x, y, G, r0, r1, c, m, d, e) {
  let t = G[c * e + m];
  for (let r = r0; r < r1; r++) t += x[r * d + c] * y[r * e + m];
  G[c * e + m] = t;
}

// y[r, :] (+)= x[r, :] @ Wᵀ for W (d × e) and x (rows × e); two rows and four outputs at a time, each
// summed over m in order from 0 (the one-output loop's sums, bit for bit).
function matRowsT(x, W, y, rows, d, e, add) {
  const d4 = d - (d % 4), r2 = rows - (rows % 2);
  for (let r = 0; r < r2; r += 2) {
    const xo = r * e, xp = xo + e;
    for (let c = 0; c < d4; c += 4) {
      let t0 = 0, t1 = 0, t2 = 0, t3 = 0, u0 = 0, u1 = 0, u2 = 0, u3 = 0;
      const v0 = c * e, v1 = v0 + e, v2 = v1 + e, v3 = v2 + e;
      for (let m = 0; m < e; m++) {
        const xm = x[xo + m], xn = x[xp + m], w0 = W[v0 + m], w1 = W[v1 + m], w2 = W[v2 + m], w3 = W[v3 + m];
        t0 += xm * w0; t1 += xm * w1; t2 += xm * w2; t3 += xm * w3;
        u0 += xn * w0; u1 += xn * w1; u2 += xn * w2; u3 += xn * w3;
      }
      putFour(y, r * d + c, t0, t1, t2, t3, add);
      putFour(y, (r + 1) * d + c, u0, u1, u2, u3, add);
    }
    for (let c = d4; c < d; c++) { matOneT(x, W, y, r, c, d, e, add); matOneT(x, W, y, r + 1, c, d, e, add); }
  }
  for (let r = r2; r < rows; r++) for (let c = 0; c < d; c++) matOneT(x, W, y, r, c, d, e, add);
}

// y[r, c] (+)= Σ_m x[r, m] · W[c, m], summed in order.
function matOneT(x, W, y, r, c, d, e, add) {
  let t = 0;
  for (let m = 0; m < e; m++) t += x[r * e + m] * W[c * e + m];
  y[r * d + c] = add ? y[r * d + c] + t : t;
}

// The backward pass of one layer's attention: from buf.dz (times keep already) to buf.dq, dk, dv. Four keys at a
// time; every sum (each da[j] over c, ad over j, each dq, dk, dv entry over its terms) in the order of the
// one-key loop, so the same numbers bit for bit.
function attendBack(st, buf, l, size) {
  const { heads: H, d_model: d, context: n } = st, dh = d / H, sq = Math.sqrt(dh);
  const q = buf.q[l], k = buf.k[l], v = buf.v[l], a = buf.a[l], dz = buf.dz, dq = buf.dq, dk = buf.dk, dv = buf.dv, da = buf.da, ds = buf.ds;
  dq.fill(0); dk.fill(0); dv.fill(0);
  for (let b = 0; b < size; b++) for (let hd = 0; hd < H; hd++) {
    const ao = (b * H + hd) * n * n;
    for (let i = 0; i < n; i++) {
      const io = (b * n + i) * d + hd * dh, row = ao + i * n;
      let j = 0;
      for (; j + 3 <= i; j += 4) {
        const j0 = (b * n + j) * d + hd * dh, j1 = j0 + d, j2 = j1 + d, j3 = j2 + d;
        const a0 = a[row + j], a1 = a[row + j + 1], a2 = a[row + j + 2], a3 = a[row + j + 3];
        let t0 = 0, t1 = 0, t2 = 0, t3 = 0;
        for (let c = 0; c < dh; c++) {
          const g = dz[io + c];
          t0 += g * v[j0 + c]; t1 += g * v[j1 + c]; t2 += g * v[j2 + c]; t3 += g * v[j3 + c];
          dv[j0 + c] += a0 * g; dv[j1 + c] += a1 * g; dv[j2 + c] += a2 * g; dv[j3 + c] += a3 * g;
        }
        da[j] = t0; da[j + 1] = t1; da[j + 2] = t2; da[j + 3] = t3;
      }
      for (; j <= i; j++) {
        const jo = (b * n + j) * d + hd * dh, aij = a[row + j];
        let t = 0;
        for (let c = 0; c < dh; c++) { t += dz[io + c] * v[jo + c]; dv[jo + c] += aij * dz[io + c]; }
        da[j] = t;
      }
      let ad = 0;
      for (j = 0; j <= i; j++) ad += a[row + j] * da[j];
      for (j = 0; j <= i; j++) ds[j] = (a[row + j] * (da[j] - ad)) / sq;
      for (j = 0; j + 3 <= i; j += 4) {
        const j0 = (b * n + j) * d + hd * dh, j1 = j0 + d, j2 = j1 + d, j3 = j2 + d, s0 = ds[j], s1 = ds[j + 1], s2 = ds[j + 2], s3 = ds[j + 3];
        for (let c = 0; c < dh; c++) {
          const qc = q[io + c];
          dq[io + c] = dq[io + c] + s0 * k[j0 + c] + s1 * k[j1 + c] + s2 * k[j2 + c] + s3 * k[j3 + c];
          dk[j0 + c] += s0 * qc; dk[j1 + c] += s1 * qc; dk[j2 + c] += s2 * qc; dk[j3 + c] += s3 * qc;
        }
      }
      for (; j <= i; j++) {
        const jo = (b * n + j) * d + hd * dh, sj = ds[j];
        for (let c = 0; c < dh; c++) { dq[io + c] += sj * k[jo + c]; dk[jo + c] += sj * q[io + c]; }
      }
    }
  }
}

// attnlib.companions.induction.backward, after inductionForward on the same buffers: the gradients into g.
function inductionBackward(w, st, buf, size, g) {
  const { layers: L, heads: H, d_model: d, vocab: V, context: n } = st, rows = size * n, dh = d / H, tok = buf.tokens;
  const dl = buf.probs, scale = size * (n - 1);
  for (let b = 0; b < size; b++) for (let i = 0; i < n; i++) {
    const o = (b * n + i) * V;
    if (i === n - 1) { for (let c = 0; c < V; c++) dl[o + c] = 0; continue; }
    dl[o + tok[b * n + i + 1]] -= 1;
    for (let c = 0; c < V; c++) dl[o + c] = dl[o + c] / scale;
  }
  outerSum(buf.xs[L], dl, g.unembed, rows, d, V);
  const dx = buf.dx;
  matRowsT(dl, w.unembed, dx, rows, d, V, false);
  for (let l = L - 1; l >= 0; l--) {
    outerSum(buf.z[l], dx, g[`w_o${l}`], rows, d, d);
    matRowsT(dx, w[`w_o${l}`], buf.dz, rows, d, d, false);
    for (let r = 0; r < rows; r++) for (let c = 0; c < d; c++) buf.dz[r * d + c] *= buf.keep[l * H + Math.floor(c / dh)];
    attendBack(st, buf, l, size);
    const x = buf.xs[l];
    outerSum(x, buf.dq, g[`w_q${l}`], rows, d, d);
    outerSum(x, buf.dk, g[`w_k${l}`], rows, d, d);
    outerSum(x, buf.dv, g[`w_v${l}`], rows, d, d);
    matRowsT(buf.dq, w[`w_q${l}`], dx, rows, d, d, true);
    matRowsT(buf.dk, w[`w_k${l}`], dx, rows, d, d, true);
    matRowsT(buf.dv, w[`w_v${l}`], dx, rows, d, d, true);
  }
  g.embed.fill(0); g.pos.fill(0);
  for (let r = 0; r < rows; r++) {
    const e = tok[r] * d, p = (r % n) * d;
    for (let c = 0; c < d; c++) { g.embed[e + c] += dx[r * d + c]; g.pos[p + c] += dx[r * d + c]; }
  }
}

// attnlib.companions.induction.measure (with attnlib.companions.head_scores): the loss on the second copy
// and on the first, each head's previous-token and prefix-matching scores, on the batch in buf.
function inductionMeasure(st, buf, size) {
  const { layers: L, heads: H, context: n } = st, tok = buf.tokens;
  let second = 0, ns = 0, first = 0, nf = 0;
  for (let b = 0; b < size; b++) {
    const s0 = buf.start[b], m = buf.length[b];
    for (let i = 0; i < n - 1; i++) {
      const loss = buf.losses[b * (n - 1) + i];
      if (i >= s0 + m && i <= s0 + 2 * m - 2) { second += loss; ns += 1; }
      if (i >= s0 && i <= s0 + m - 2) { first += loss; nf += 1; }
    }
  }
  const previous = [], duplicate = [], prefix = [];
  for (let l = 0; l < L; l++) for (let hd = 0; hd < H; hd++) {
    const a = buf.a[l];
    let pt = 0, pm = 0, dt = 0, counted = 0, dcounted = 0;
    for (let b = 0; b < size; b++) {
      const ao = (b * H + hd) * n * n, s0 = buf.start[b], m = buf.length[b];
      for (let i = 1; i < n; i++) pt += a[ao + i * n + i - 1];
      for (let i = s0 + m; i < s0 + 2 * m; i++) {
        let mass = 0, any = false;
        for (let j = 1; j < i; j++) if (tok[b * n + j - 1] === tok[b * n + i]) { mass += a[ao + i * n + j]; any = true; }
        if (any) { pm += mass; counted += 1; }
        let same = 0, seen = false;
        for (let j = 0; j < i; j++) if (tok[b * n + j] === tok[b * n + i]) { same += a[ao + i * n + j]; seen = true; }
        if (seen) { dt += same; dcounted += 1; }
      }
    }
    previous.push(pt / (size * (n - 1)));
    duplicate.push(dt / dcounted);
    prefix.push(pm / counted);
  }
  return { second: second / ns, first: first / nf, previous, duplicate, prefix };
}

// A training run that can stop and continue (attnlib.companions.induction.Trainer). `st` are checked settings.
function createInduction(st) {
  const weights = inductionInit(st), names = inductionParamNames(st.layers);
  const zeros = () => Object.fromEntries(names.map((k) => [k, new Float64Array(weights[k].length)]));
  return { settings: st, names, weights, m: zeros(), v: zeros(), grads: zeros(), kept: zeros(), b1t: 1, b2t: 1, draw: mulberry32(st.seed),
    buf: inductionBuffers(st, st.batch), losses: [], second: [], first: [], previous: [], duplicate: [], prefix: [], stopped: null };
}

function inductionStepsDone(t) { return Math.max(t.losses.length - 1, 0); }

// The next batch: its loss, measures and gradients at the current weights; false if diverged.
function inductionMeasureStep(t) {
  const st = t.settings, buf = t.buf;
  drawBatchInto(t.draw, st.batch, st, buf.tokens, buf.start, buf.length);
  const loss = inductionForward(t.weights, st, buf, st.batch);
  if (!Number.isFinite(loss) || (t.losses.length && loss > DIVERGED * t.losses[0])) {
    t.stopped = t.losses.length ? `the loss diverged at step ${t.losses.length} (${loss.toPrecision(3)}, from ${t.losses[0].toPrecision(3)} at step 0): the learning rate ${st.lr} is too large. The weights of step ${t.losses.length - 1} are kept` : "the loss is not finite at step 0";
    return false;
  }
  const got = inductionMeasure(st, buf, st.batch);
  t.losses.push(loss); t.second.push(got.second); t.first.push(got.first); t.previous.push(got.previous); t.duplicate.push(got.duplicate); t.prefix.push(got.prefix);
  inductionBackward(t.weights, st, buf, st.batch, t.grads);
  return true;
}

// One more update (or the first measurement); false when the run is over (done, or diverged).
function inductionOneStep(t) {
  if (t.stopped !== null) return false;
  if (t.losses.length === 0) return inductionMeasureStep(t) && inductionStepsDone(t) < t.settings.steps;
  if (inductionStepsDone(t) >= t.settings.steps) return false;
  for (const k of t.names) t.kept[k].set(t.weights[k]);
  adamUpdate(t, t.names);
  if (!inductionMeasureStep(t)) { for (const k of t.names) t.weights[k].set(t.kept[k]); return false; }
  return inductionStepsDone(t) < t.settings.steps;
}

// The trained model on one sequence of tokens, with the heads switched off where keep is 0: every head's
// attention pattern (layer by layer), the loss at each position, and its mean over the repeat's second copy.
function inductionLook(weights, st, tokens, keep, repeat = null) {
  const one = { ...st, context: tokens.length };
  const buf = inductionBuffers(one, 1);
  buf.tokens.set(tokens);
  buf.keep.set(keep);
  const w = { ...weights, pos: weights.pos.subarray(0, tokens.length * st.d_model) };
  const loss = inductionForward(w, one, buf, 1);
  const n = tokens.length, patterns = [];
  for (let l = 0; l < st.layers; l++) for (let hd = 0; hd < st.heads; hd++) patterns.push(Array.from(buf.a[l].subarray(hd * n * n, (hd + 1) * n * n)));
  let second = null;
  if (repeat) { buf.start[0] = repeat.start; buf.length[0] = repeat.length; second = inductionMeasure(one, buf, 1).second; }
  return { patterns, loss, losses: Array.from(buf.losses), second };
}
