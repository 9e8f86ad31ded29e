// Ask the trained model: type (or assemble from the vocabulary) a sentence with "bank" or "bat". The
// page runs the trained model in float64 — embedding + position, one attention head, readout — and
// shows the ambiguous word's attention row and the predicted sense. A sentence outside the training
// pattern (no cue word, cue words of two senses, or a cue of the other ambiguous word) gets a caution
// that its answer means nothing, instead of a confident answer.
// Python reference: attnlib.companions.learning.encode, predict_np and outside_training (same words, same
// messages, same numbers).
// Shared helpers (from _dom.js and _common.js): h, PALETTE, quotedWords, softmax, maxOf, nextId, card, stat, barChart, redrawOn, save

const PUNCTUATION = /[.,!?;:]/g;

function wordsOf(text) {
  return text.toLowerCase().replace(PUNCTUATION, " ").split(/\s+/).filter((w) => w.length > 0);
}

function matVec(x, w) { // x (d_in) times w (d_in, d_out) -> (d_out)
  const out = new Float64Array(w[0].length);
  for (let a = 0; a < x.length; a++) {
    const row = w[a];
    for (let b = 0; b < out.length; b++) out[b] += x[a] * row[b];
  }
  return out;
}

function dot(a, b) {
  let t = 0;
  for (let i = 0; i < a.length; i++) t += a[i] * b[i];
  return t;
}

// The words of `text` checked like attnlib.companions.learning.encode: { words, ids, query } or { error }.
function encode(text, m) {
  const words = wordsOf(text);
  if (words.length === 0) return { error: `the sentence is empty: give 1 to ${m.max_len} words, one of them ${m.ambiguous.map((w) => `'${w}'`).join(" or ")}` };
  if (words.length > m.max_len) return { error: `the sentence has ${words.length} words; the model reads at most ${m.max_len}` };
  const unknown = words.filter((w) => !m.index.has(w));
  if (unknown.length) return { error: `unknown word(s) [${quotedWords(unknown)}]: the model knows only its ${m.vocab.length}-word vocabulary` };
  const amb = [];
  words.forEach((w, i) => { if (m.ambiguous.includes(w)) amb.push(i); });
  if (amb.length !== 1) return { error: `the sentence needs exactly one ambiguous word (${m.ambiguous.join(" or ")}), got ${amb.length}` };
  return { words, ids: words.map((w) => m.index.get(w)), query: amb[0] };
}

// Why the answer means nothing, like attnlib.companions.learning.outside_training; null inside the training pattern
// (exactly one cue word, of a sense of the sentence's ambiguous word).
function outsideTraining(words, query, m) {
  const word = words[query];
  const found = words.filter((w) => m.cues.has(w)).map((w) => [w, m.cues.get(w)]);
  const senses = m.senses.filter((sense) => found.some(([, f]) => f === sense));
  if (found.length === 0) return `no cue word: every training sentence had one word that decides the sense of '${word}', so this answer is a guess that training never tested`;
  if (senses.length > 1) return `cue words of two senses: ${found.map(([w, sense]) => `'${w}' (${sense})`).join(", ")}; no training sentence mixed them, so this answer means nothing`;
  if (!senses[0].startsWith(`${word}:`)) return `'${found[0][0]}' is a cue of ${senses[0]}, not of '${word}'; no training sentence had them together, so this answer means nothing`;
  return null;
}

// embedding + position -> attention row of the ambiguous word -> context -> sense probabilities
function predict(enc, m) {
  const x = enc.ids.map((id, i) => Float64Array.from(m.embed[id], (e, c) => e + m.pos[i][c]));
  const q = matVec(x[enc.query], m.w_q);
  const scale = 1 / Math.sqrt(q.length);
  const scores = x.map((xi) => dot(q, matVec(xi, m.w_k)) * scale);
  const row = softmax(scores, 1);
  const ctx = new Float64Array(m.w_v[0].length);
  x.forEach((xi, j) => { const v = matVec(xi, m.w_v); for (let c = 0; c < ctx.length; c++) ctx[c] += row[j] * v[c]; });
  const logits = matVec(ctx, m.w_c).map((z, c) => z + m.b_c[c]);
  const probs = softmax(logits, 1);
  let best = 0;
  for (let c = 1; c < probs.length; c++) if (probs[c] > probs[best]) best = c;
  return { row, probs, sense: m.senses[best] };
}

// The trained model of the synced state: its weights, vocabulary, senses and cue words.
function loadModel(model) {
  const m = { ...model.get("weights"), vocab: model.get("vocab"), senses: model.get("senses"), ambiguous: model.get("ambiguous"), max_len: model.get("max_len") };
  m.index = new Map(m.vocab.map((w, i) => [w, i]));
  m.cues = new Map(Object.entries(model.get("cues")));
  return m;
}

// The sentence box, its clear button and the clickable vocabulary.
function buildInput(root, m, model) {
  const inputId = nextId("sentence");
  const input = h("input", { type: "text", id: inputId, "data-name": "sentence", autocomplete: "off", spellcheck: "false", class: "attnw-text" });
  input.value = model.get("sentence") || "";
  const clear = h("button", { type: "button", class: "attnw-button", "data-name": "clear", text: "clear" });
  root.append(h("div", { class: "attnw-controls" }, [
    h("div", { class: "attnw-control attnw-grow" }, [h("label", { for: inputId, class: "attnw-label", text: "your sentence" }), input, clear]),
  ]));
  const vocab = h("details", { class: "attnw-vocab" }, [h("summary", { text: `vocabulary (${m.vocab.length} words): click a word to add it` })]);
  for (const w of m.vocab) vocab.append(h("button", { type: "button", class: "attnw-word", "data-word": w, text: w }));
  root.append(vocab);
  return { input, clear, vocab };
}

// The messages, the predicted sense and the two panels (the attention row, the sense probabilities).
function buildOutput(root) {
  const message = h("p", { class: "attnw-message", role: "status", "aria-live": "polite", "data-name": "message" });
  const sense = h("span", { class: "attnw-num", "data-name": "sense", text: "–" });
  const prob = stat("p", "probability");
  const outside = h("p", { class: "attnw-message", role: "status", "aria-live": "polite", "data-name": "outside" });
  const lead = h("span", { text: "predicted sense: " });
  const result = h("p", { class: "attnw-desc" }, [lead, sense, " ", prob.el]);
  const rowHolder = h("figure", { class: "attnw-panel" });
  const probHolder = h("figure", { class: "attnw-panel" });
  const panels = h("div", { class: "attnw-panels" }, [rowHolder, probHolder]);
  root.append(message, outside, result, panels);
  return { message, sense, prob, outside, lead, result, rowHolder, probHolder, panels };
}

// A message instead of an answer: the sentence cannot be read.
function refuse(v, error) {
  v.message.textContent = error;
  v.message.hidden = false;
  v.outside.hidden = true;
  v.result.hidden = true;
  v.panels.hidden = true;
  v.root.dataset.result = JSON.stringify({ error });
}

// The answer: the caution when the sentence is outside the training pattern, the attention row (a new
// chart when the words change) and the sense probabilities.
function showAnswer(v, enc, out, why) {
  v.message.textContent = "";
  v.message.hidden = true;
  v.outside.textContent = why ? `Outside what the model learned: ${why}.` : "";
  v.outside.hidden = !why;
  v.lead.textContent = why ? "the model outputs (not an answer): " : "predicted sense: ";
  v.result.hidden = false;
  v.panels.hidden = false;
  const key = enc.words.join(" ");
  if (key !== v.rowKey) {
    v.rowChart = barChart({ labels: enc.words, title: `attention of '${enc.words[enc.query]}'`, color: PALETTE.blue, name: "row" });
    v.rowHolder.replaceChildren(h("figcaption", { text: `where '${enc.words[enc.query]}' looks (its attention row)` }), v.rowChart.el);
    v.rowKey = key;
  }
  v.rowChart.update(out.row);
  v.senseChart.update(out.probs);
  v.sense.textContent = out.sense;
  v.prob.set(maxOf(out.probs), 3);
}

// Redraw for the synced sentence.
function draw(v) {
  const text = v.model.get("sentence") || "";
  if (v.input.value !== text) v.input.value = text;
  const enc = encode(text, v.m);
  if (enc.error) return refuse(v, enc.error);
  const out = predict(enc, v.m);
  const why = outsideTraining(enc.words, enc.query, v.m);
  showAnswer(v, enc, out, why);
  v.root.dataset.result = JSON.stringify({ words: enc.words, query: enc.query, row: Array.from(out.row), probs: Array.from(out.probs), sense: out.sense, outside: why });
}

// The sentence box, the clear button and the vocabulary's words write the sentence.
function wireInput(v) {
  const { model, input } = v;
  input.addEventListener("input", () => save(model, { sentence: input.value }));
  v.clear.addEventListener("click", () => { save(model, { sentence: "" }); input.focus(); });
  v.vocab.addEventListener("click", (ev) => {
    const w = ev.target && ev.target.dataset ? ev.target.dataset.word : undefined;
    if (!w) return;
    const now = (model.get("sentence") || "").trim();
    save(model, { sentence: now ? `${now} ${w}` : w });
  });
}

function render({ model, el }) {
  const m = loadModel(model);
  const root = card(
    "Ask the trained model",
    `Type a sentence of at most ${m.max_len} words from the model's vocabulary, with 'bank' or 'bat' in it, or click words below to add them. The page runs the trained model and shows where the ambiguous word looks and which sense it predicts.`,
  );
  // the view: its parts, and the attention row's chart with the words it was drawn for
  const v = { model, m, root, ...buildInput(root, m, model), ...buildOutput(root), rowChart: null, rowKey: "" };
  root.classList.add("attnw-learned");
  el.append(root);
  v.senseChart = barChart({ labels: m.senses.map((x) => x.replace(":", " ")), title: "sense probabilities", color: PALETTE.green, name: "probs" });
  v.probHolder.append(h("figcaption", { text: "sense probabilities" }), v.senseChart.el);
  wireInput(v);
  draw(v);
  return redrawOn(model, ["sentence"], () => draw(v));
}

export default { render };
