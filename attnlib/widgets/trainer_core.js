// The training of "Train it yourself", line for line as attnlib/companions/trainer.py computes it in float64:
// the Mulberry32 corpus and initial weights, the forward pass read at the ambiguous word, the chapter's
// hand-derived gradients, and Adam with decoupled weight decay. No DOM here: trainer.js draws it.
// Shared helpers (from _dom.js and _common.js): quotedWord, quotedWords
// (only these two, which trainer.js puts in front of this file in the page's Web Worker: WORKER_HELPERS)

const TRAIN_MAX_LEN = 8, TRAIN_MIN_LEN = 4, HELD_OUT = 0.25, DIVERGED = 10, WEIGHT_STREAM = 0x9e3779b9;
const ADAM_B1 = 0.9, ADAM_B2 = 0.999, ADAM_EPS = 1e-8;
const TRAIN_PARAMS = ["embed", "pos", "w_q", "w_k", "w_v", "w_c", "b_c"];

// attnlib.companions.sampler.Mulberry32: the same 32-bit integer steps, so the same numbers.
function mulberry32(seed) {
  let state = seed >>> 0;
  return function draw() {
    state = (state + 0x6d2b79f5) >>> 0;
    const a = state;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// attnlib.companions.trainer.short_number: x as Python's f"{x:.{digits}g}" writes it, its exponent
// written short (1e308, 1e-5, not 1e+308 or 1e-05), as a reader types it.
function shortNumber(x, digits) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  const [mantissa, exp] = x.toExponential(digits - 1).split("e");
  const e = Number(exp), bare = (t) => (t.includes(".") ? t.replace(/\.?0+$/, "") : t);
  return e < -4 || e >= digits ? `${bare(mantissa)}e${e}` : bare(x.toFixed(digits - 1 - e));
}

function trainWords(text) {
  return text.toLowerCase().replace(/[.,!?;:]/g, " ").split(/\s+/).filter((w) => w.length > 0);
}

// attnlib.companions.trainer._encode: word ids and the ambiguous word's position, or an error naming the sentence.
function encodeSentence(text, index, ambiguous, what) {
  const words = trainWords(text);
  if (words.length === 0 || words.length > TRAIN_MAX_LEN) throw new Error(`${what} ${quotedWord(text)} has ${words.length} words: give 1 to ${TRAIN_MAX_LEN}`);
  const unknown = words.filter((w) => !index.has(w));
  if (unknown.length) throw new Error(`${what} ${quotedWord(text)} has the unknown word(s) [${quotedWords(unknown)}]: use cue words, ambiguous words or the filler words`);
  const amb = [];
  words.forEach((w, i) => { if (ambiguous.includes(w)) amb.push(i); });
  if (amb.length !== 1) throw new Error(`${what} ${quotedWord(text)} needs exactly one ambiguous word (${quotedWords(ambiguous).replaceAll(", ", " or ")}), got ${amb.length}`);
  return { ids: words.map((w) => index.get(w)), q: amb[0] };
}

// Fisher–Yates over the ordered position pairs, then the held-out / training split.
function positionPairs(draw) {
  const pairs = [];
  for (let q = 0; q < TRAIN_MAX_LEN; q++) for (let c = 0; c < TRAIN_MAX_LEN; c++) if (q !== c) pairs.push([q, c]);
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = Math.floor(draw() * (i + 1));
    const t = pairs[i]; pairs[i] = pairs[j]; pairs[j] = t;
  }
  const cut = Math.round(HELD_OUT * pairs.length);
  const byPos = (x, y) => x[0] - y[0] || x[1] - y[1];
  return [pairs.slice(0, cut).sort(byPos), pairs.slice(cut).sort(byPos)];
}

function sampleSentences(draw, count, pairs, senses, index, fillers) {
  const cued = [];
  senses.forEach((sense, i) => { if (sense.cues.length) cued.push(i); });
  const out = [];
  for (let r = 0; r < count; r++) {
    const [q, c] = pairs[Math.floor(draw() * pairs.length)];
    const lo = Math.max(TRAIN_MIN_LEN, q + 1, c + 1);
    const length = lo + Math.floor(draw() * (TRAIN_MAX_LEN + 1 - lo));
    const label = cued[Math.floor(draw() * cued.length)];
    const words = [];
    for (let j = 0; j < length; j++) words.push(fillers[Math.floor(draw() * fillers.length)]);
    const cues = senses[label].cues;
    words[q] = senses[label].word;
    words[c] = cues[Math.floor(draw() * cues.length)];
    out.push({ ids: words.map((w) => index.get(w)), q, y: label });
  }
  return out;
}

// attnlib.companions.trainer.make_corpus (settings already checked by checkSettings).
function makeCorpus(st, fillers) {
  const senses = st.senses;
  const vocab = [...new Set([...senses.map((x) => x.word), ...senses.flatMap((x) => x.cues), ...fillers])];
  const names = senses.map((x) => `${x.word}:${x.sense}`);
  const index = new Map(vocab.map((w, i) => [w, i]));
  const ambiguous = [...new Set(senses.map((x) => x.word))];
  const own = st.sentences.map((r) => {
    if (!names.includes(r.sense)) throw new Error(`your sentence ${quotedWord(r.text)} has the sense ${quotedWord(r.sense)}; the senses are ${quotedWords(names)}`);
    const e = encodeSentence(r.text, index, ambiguous, "your sentence");
    if (vocab[e.ids[e.q]] !== r.sense.split(":")[0]) throw new Error(`your sentence ${quotedWord(r.text)} is labelled ${quotedWord(r.sense)} but its ambiguous word is ${quotedWord(vocab[e.ids[e.q]])}`);
    return { ids: e.ids, q: e.q, y: names.indexOf(r.sense) };
  });
  senses.forEach((sense, i) => {
    if (!sense.cues.length && !own.some((o) => o.y === i)) throw new Error(`the sense ${quotedWord(names[i])} has no sentence: give it a cue word or a sentence of your own`);
  });
  if (st.n_train === 0 && own.length === 0) throw new Error("the corpus is empty: ask for at least one training sentence or type one of your own");
  const draw = mulberry32(st.seed);
  const [testPairs, trainPairs] = positionPairs(draw);
  const test = sampleSentences(draw, st.n_test, testPairs, senses, index, fillers);
  const train = sampleSentences(draw, st.n_train, trainPairs, senses, index, fillers).concat(own);
  return { vocab, names, index, ambiguous, train, test, heldOutPairs: testPairs };
}

// attnlib.companions.trainer.init_weights: Box–Muller normals, r·cos θ then r·sin θ, in the order of TRAIN_PARAMS.
// attnlib.companions.trainer.normal_draws: standard normals, Box–Muller pairs, r·cos θ then r·sin θ.
function normalDraws(draw) {
  let spare = null;
  return () => {
    if (spare !== null) { const x = spare; spare = null; return x; }
    const r = Math.sqrt(-2 * Math.log(1 - draw())), theta = 2 * Math.PI * draw();
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  };
}

function initWeights(vocabSize, d, nSenses, seed) {
  const normal = normalDraws(mulberry32((seed + WEIGHT_STREAM) >>> 0));
  const sizes = { embed: vocabSize * d, pos: TRAIN_MAX_LEN * d, w_q: d * d, w_k: d * d, w_v: d * d, w_c: d * nSenses };
  const w = {};
  for (const [name, size] of Object.entries(sizes)) w[name] = Float64Array.from({ length: size }, normal);
  for (const name of ["w_q", "w_k", "w_v", "w_c"]) for (let i = 0; i < w[name].length; i++) w[name][i] = w[name][i] / Math.sqrt(d);
  w.b_c = new Float64Array(nSenses);
  return w;
}

// One sentence forward (attnlib.companions.trainer.forward, one row of it). `buf` is scratch space reused. q and
// u = W_K q depend only on the ambiguous word and its position, so within one step (fixed weights)
// `cache` keeps them per (word, position): the same numbers, computed once.
function forwardOne(w, d, S, sent, buf, cache = null) {
  const n = sent.ids.length, sq = Math.sqrt(d), ids = sent.ids;
  const E = w.embed, P = w.pos, WQ = w.w_q, WK = w.w_k, WV = w.w_v, WC = w.w_c, BC = w.b_c;
  const x = buf.x, q = buf.q, u = buf.u, a = buf.a, xbar = buf.xbar, c = buf.c, logits = buf.logits, probs = buf.probs;
  for (let j = 0; j < n; j++) { const e = ids[j] * d, p = j * d; for (let i = 0; i < d; i++) x[p + i] = E[e + i] + P[p + i]; }
  const xq = sent.q * d, key = ids[sent.q] * TRAIN_MAX_LEN + sent.q;
  const hit = cache !== null ? cache.get(key) : undefined;
  if (hit !== undefined) { q.set(hit.q); u.set(hit.u); }
  else {
    for (let i = 0; i < d; i++) { let t = 0; for (let m = 0; m < d; m++) t += x[xq + m] * WQ[m * d + i]; q[i] = t; }
    for (let i = 0; i < d; i++) { let t = 0; const r = i * d; for (let m = 0; m < d; m++) t += q[m] * WK[r + m]; u[i] = t; }
    if (cache !== null) cache.set(key, { q: Float64Array.from(q), u: Float64Array.from(u) });
  }
  let top = -Infinity;
  for (let j = 0; j < n; j++) { let t = 0; const p = j * d; for (let i = 0; i < d; i++) t += x[p + i] * u[i]; a[j] = t / sq; if (a[j] > top) top = a[j]; }
  let sum = 0;
  for (let j = 0; j < n; j++) { a[j] = Math.exp(a[j] - top); sum += a[j]; }
  for (let j = 0; j < n; j++) a[j] = a[j] / sum;
  for (let i = 0; i < d; i++) { let t = 0; for (let j = 0; j < n; j++) t += a[j] * x[j * d + i]; xbar[i] = t; }
  for (let i = 0; i < d; i++) { let t = 0; for (let m = 0; m < d; m++) t += xbar[m] * WV[m * d + i]; c[i] = t; }
  let lt = -Infinity;
  for (let k = 0; k < S; k++) { let t = 0; for (let m = 0; m < d; m++) t += c[m] * WC[m * S + k]; logits[k] = t + BC[k]; if (logits[k] > lt) lt = logits[k]; }
  let total = 0;
  for (let k = 0; k < S; k++) { probs[k] = Math.exp(logits[k] - lt); total += probs[k]; }
  for (let k = 0; k < S; k++) probs[k] = probs[k] / total;
  return Math.log(total) + lt - logits[sent.y];
}

// One sentence backward, adding its share of the gradient to `g` (attnlib.companions.trainer.backward, one row).
function backwardOne(w, d, S, N, sent, buf, g) {
  const n = sent.ids.length, sq = Math.sqrt(d), xq = sent.q * d, ids = sent.ids;
  const WQ = w.w_q, WK = w.w_k, WV = w.w_v, WC = w.w_c;
  const x = buf.x, q = buf.q, u = buf.u, a = buf.a, xbar = buf.xbar, c = buf.c, probs = buf.probs;
  const dl = buf.dl, dc = buf.dc, dxbar = buf.dxbar, da = buf.da, dz = buf.dz, du = buf.du, dq = buf.dq;
  const gE = g.embed, gP = g.pos, gQ = g.w_q, gK = g.w_k, gV = g.w_v, gC = g.w_c, gB = g.b_c;
  for (let k = 0; k < S; k++) dl[k] = (k === sent.y ? probs[k] - 1 : probs[k]) / N;
  for (let k = 0; k < S; k++) gB[k] += dl[k];
  for (let m = 0; m < d; m++) for (let k = 0; k < S; k++) gC[m * S + k] += c[m] * dl[k];
  for (let m = 0; m < d; m++) { let t = 0; for (let k = 0; k < S; k++) t += dl[k] * WC[m * S + k]; dc[m] = t; }
  for (let m = 0; m < d; m++) { let t = 0; const r = m * d; for (let i = 0; i < d; i++) t += dc[i] * WV[r + i]; dxbar[m] = t; }
  for (let m = 0; m < d; m++) { const r = m * d, xm = xbar[m]; for (let i = 0; i < d; i++) gV[r + i] += xm * dc[i]; }
  let ad = 0;
  for (let j = 0; j < n; j++) { let t = 0; const p = j * d; for (let i = 0; i < d; i++) t += x[p + i] * dxbar[i]; da[j] = t; ad += a[j] * t; }
  for (let j = 0; j < n; j++) dz[j] = a[j] * (da[j] - ad);
  for (let i = 0; i < d; i++) { let t = 0; for (let j = 0; j < n; j++) t += dz[j] * x[j * d + i]; du[i] = t / sq; }
  for (let m = 0; m < d; m++) { let t = 0; for (let i = 0; i < d; i++) t += du[i] * WK[i * d + m]; dq[m] = t; }
  for (let i = 0; i < d; i++) { const r = i * d, di = du[i]; for (let m = 0; m < d; m++) gK[r + m] += di * q[m]; }
  for (let m = 0; m < d; m++) { const r = m * d, xm = x[xq + m]; for (let i = 0; i < d; i++) gQ[r + i] += xm * dq[i]; }
  for (let j = 0; j < n; j++) {
    const e = ids[j] * d, p = j * d, dzj = dz[j], aj = a[j];
    for (let i = 0; i < d; i++) {
      let dx = (dzj * u[i]) / sq + aj * dxbar[i];
      if (j === sent.q) { let t = 0; const r = i * d; for (let m = 0; m < d; m++) t += dq[m] * WQ[r + m]; dx += t; }
      gE[e + i] += dx;
      gP[p + i] += dx;
    }
  }
}

function scratch(d, S) {
  const L = TRAIN_MAX_LEN, f = (k) => new Float64Array(k);
  return { x: f(L * d), q: f(d), u: f(d), a: f(L), xbar: f(d), c: f(d), logits: f(S), probs: f(S), dl: f(S), dc: f(d), dxbar: f(d), da: f(L), dz: f(L), du: f(d), dq: f(d) };
}

// A training run that can stop and continue (attnlib.companions.trainer.Trainer). `settings` are checked ones.
function createTrainer(settings, fillers) {
  const corpus = makeCorpus(settings, fillers);
  const d = settings.d_model, S = corpus.names.length;
  const watch = encodeSentence(settings.watch, corpus.index, corpus.ambiguous, "the watched sentence");
  const weights = initWeights(corpus.vocab.length, d, S, settings.seed);
  const zeros = () => Object.fromEntries(TRAIN_PARAMS.map((k) => [k, new Float64Array(weights[k].length)]));
  const t = { settings, corpus, d, S, weights, m: zeros(), v: zeros(), grads: null, b1t: 1, b2t: 1, losses: [], accuracies: [], rows: [], stopped: null, scratch: scratch(d, S), watch: { ...watch, y: 0 } };
  t.zeros = zeros;
  return t;
}

function trainerStep(t) { return Math.max(t.losses.length - 1, 0); }

// Loss and gradients on the training sentences, held-out accuracy, the watched row; false if diverged.
function measure(t) {
  const { weights: w, d, S, scratch: buf, corpus } = t;
  const g = t.zeros(), N = corpus.train.length;
  const cache = new Map();
  let loss = 0;
  for (const sent of corpus.train) { loss += forwardOne(w, d, S, sent, buf, cache); backwardOne(w, d, S, N, sent, buf, g); }
  loss = loss / N;
  if (!Number.isFinite(loss) || (t.losses.length && loss > DIVERGED * t.losses[0])) {
    const now = Number.isFinite(loss) ? shortNumber(loss, 3) : "no longer a finite number";
    t.stopped = `the loss diverged at step ${t.losses.length} (${now}, from ${shortNumber(t.losses[0], 3)} at step 0): the learning rate ${shortNumber(t.settings.lr, 6)} is too large. The weights of step ${t.losses.length - 1} are kept`;
    return false;
  }
  t.losses.push(loss);
  let right = 0;
  for (const sent of corpus.test) {
    forwardOne(w, d, S, sent, buf, cache);
    let best = 0;
    for (let k = 1; k < S; k++) if (buf.logits[k] > buf.logits[best]) best = k;
    if (best === sent.y) right += 1;
  }
  t.accuracies.push(right / corpus.test.length);
  forwardOne(w, d, S, t.watch, buf);
  t.rows.push(Array.from(buf.a.subarray(0, t.watch.ids.length)));
  t.grads = g;
  return true;
}

// attnlib.companions.trainer.adam_update, in place, on the parameters `names` (a run without weight decay: 0).
function adamUpdate(t, names = TRAIN_PARAMS) {
  const { lr, weight_decay: wd = 0 } = t.settings;
  t.b1t = t.b1t * ADAM_B1;
  t.b2t = t.b2t * ADAM_B2;
  for (const k of names) {
    const w = t.weights[k], g = t.grads[k], m = t.m[k], v = t.v[k];
    for (let i = 0; i < w.length; i++) {
      m[i] = m[i] * ADAM_B1 + (1 - ADAM_B1) * g[i];
      v[i] = v[i] * ADAM_B2 + (1 - ADAM_B2) * (g[i] * g[i]);
      const mh = m[i] / (1 - t.b1t), vh = v[i] / (1 - t.b2t);
      w[i] = w[i] - lr * (mh / (Math.sqrt(vh) + ADAM_EPS) + wd * w[i]);
    }
  }
}

// One more update (or the first measurement); false when the run is over (done, or diverged).
function trainOneStep(t) {
  if (t.stopped !== null) return false;
  if (t.losses.length === 0) return measure(t) && trainerStep(t) < t.settings.steps;
  if (trainerStep(t) >= t.settings.steps) return false;
  const kept = Object.fromEntries(TRAIN_PARAMS.map((k) => [k, Float64Array.from(t.weights[k])]));
  adamUpdate(t);
  if (!measure(t)) { t.weights = kept; return false; }
  return trainerStep(t) < t.settings.steps;
}

// The trained model on a typed sentence: its words, the ambiguous word's row and the sense probabilities.
function askTrained(t, text) {
  const e = encodeSentence(text, t.corpus.index, t.corpus.ambiguous, "the sentence");
  const buf = scratch(t.d, t.S);
  forwardOne(t.weights, t.d, t.S, { ids: e.ids, q: e.q, y: 0 }, buf);
  let best = 0;
  for (let k = 1; k < t.S; k++) if (buf.probs[k] > buf.probs[best]) best = k;
  return { words: e.ids.map((i) => t.corpus.vocab[i]), query: e.q, row: Array.from(buf.a.subarray(0, e.ids.length)), probs: Array.from(buf.probs), sense: t.corpus.names[best] };
}
