// Train it yourself: the reader edits the senses and their cue words, the ambiguous words, the number of
// training sentences, sentences of their own, d_model, the learning rate, the weight decay, the steps
// and the seed; Train runs full-batch Adam in float64 in this page (trainer_core.js, the line-for-line
// twin of attnlib/companions/trainer.py), in a Web Worker made from this module's own text, so the page stays free
// to answer input (where no worker may start, in slices of a few milliseconds between frames).
// The loss, the held-out accuracy and the watched sentence's attention row are drawn as it learns;
// Stop and Continue pause and resume; afterwards a typed sentence gets its sense and its attention row.
// The fields are kept in localStorage, so they survive a reload; Reset restores the chapter's run.
// Shared helpers (from _dom.js and _common.js): h, PALETTE, fmt, nextId, card, barChart, save, quotedWord, quotedWords
// (and lineChart, from line_chart.js, and the run's steps of trainer_page.js: trainInSlices, workerMaker, sliceRun,
// trainInWorker, wireRunButtons, say, setState; trainer.py puts both before this file)

const STORE_KEY = "attnbook:train-it-yourself:v1";
const WORKER_SLICE_MS = 30; // in the worker: report to the page (and read Stop) this often

// The worker's own code, after trainer_core.js (TRAINER_CORE_SOURCE, put in front of this module by
// attnlib/widgets/trainer.py) and trainInSlices (trainer_page.js): it trains in slices, and after each sends
// the page the curves so far and the weights, so that the page only draws and stays free for the reader's input.
const WORKER_MAIN = `
trainInSlices(${WORKER_SLICE_MS}, (m) => createTrainer(m.settings, m.fillers), trainOneStep,
  (t, final) => postMessage({ losses: t.losses, accuracies: t.accuracies, rows: t.rows, stopped: t.stopped, weights: t.weights, final }));`;
// The shared helpers trainer_core.js uses, put in front of it in the worker (their own source text).
const WORKER_HELPERS = [quotedWord, quotedWords].map(String).join("\n");
// What is this widget's own in a run that trainer_page.js drives: its worker, a step, the drawing, the end, a
// report of the worker, and what Train and Reset do.
const RUN = {
  worker: workerMaker([WORKER_HELPERS, "\n", TRAINER_CORE_SOURCE, "\n", String(trainInSlices), WORKER_MAIN]),
  step: trainOneStep, draw: drawRun, finish, report: fromWorker, start, reset: resetAll,
};
const FIELDS = ["n_train", "n_test", "d_model", "lr", "weight_decay", "steps", "seed"];

function sensesText(senses) { return senses.map((x) => `${x.word} ${x.sense}: ${x.cues.join(" ")}`).join("\n"); }
function sentencesText(rows) { return rows.map((r) => `${r.sense} | ${r.text}`).join("\n"); }

// The fields as the reader left them (strings), from the settings.
function fieldsOf(st) {
  const f = { senses: sensesText(st.senses), sentences: sentencesText(st.sentences), watch: st.watch };
  for (const k of FIELDS) f[k] = String(st[k]);
  return f;
}

function wholeIn(text, key, lo, hi) {
  const v = Number(String(text).trim());
  if (String(text).trim() === "" || !Number.isInteger(v) || v < lo || v > hi) throw new Error(`${key} must be a whole number from ${lo} to ${hi}, got ${quotedWord(String(text))}`);
  return v;
}

// The fields read and checked as attnlib.companions.trainer.check_settings does: the settings, or an Error naming the bad value.
function parseFields(f, limits) {
  const senses = [], seen = new Set();
  f.senses.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const m = line.match(/^\s*(\S+)\s+(\S+)\s*:(.*)$/);
    if (!m) throw new Error(`line ${i + 1} of the senses, ${quotedWord(line.trim())}, must read 'word sense: cue cue ...'`);
    const word = m[1].toLowerCase(), sense = m[2].toLowerCase();
    const cues = [...new Set(m[3].toLowerCase().split(/[\s,]+/).filter((c) => c))];
    const name = quotedWord(`${word}:${sense}`);
    for (const w of [word, sense, ...cues]) if (!/^[a-z']+$/.test(w)) throw new Error(`${quotedWord(w)} is not a word: use the letters a to z (sense ${name})`);
    if (seen.has(`${word}:${sense}`)) throw new Error(`the sense ${name} is listed twice`);
    seen.add(`${word}:${sense}`);
    senses.push({ word, sense, cues });
  });
  if (senses.length < 2) throw new Error(`give at least two senses to tell apart, got ${senses.length}`);
  const ambiguous = new Set(senses.map((x) => x.word));
  for (const x of senses) for (const c of x.cues) if (ambiguous.has(c)) throw new Error(`${quotedWord(c)} is an ambiguous word and a cue of ${quotedWord(`${x.word}:${x.sense}`)}: it cannot be both`);
  const sentences = [];
  f.sentences.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const bar = line.indexOf("|");
    if (bar < 0) throw new Error(`line ${i + 1} of your sentences, ${quotedWord(line.trim())}, must read 'word:sense | the sentence'`);
    sentences.push({ sense: line.slice(0, bar).trim().toLowerCase(), text: line.slice(bar + 1).trim() });
  });
  const st = { senses, sentences, watch: f.watch };
  for (const k of ["n_train", "n_test", "d_model", "steps"]) st[k] = wholeIn(f[k], k, ...limits[k]);
  const lrText = String(f.lr).trim(), lr = Number(lrText);
  if (lrText === "" || !(Number.isFinite(lr) && lr > 0)) throw new Error(`the learning rate must be a finite number > 0, got ${lrText === "" ? "nothing" : Number.isFinite(lr) ? shortNumber(lr, 6) : quotedWord(lrText)}`);
  st.lr = lr;
  const wd = Number(String(f.weight_decay).trim());
  if (String(f.weight_decay).trim() === "" || !(wd >= 0 && wd < 10)) throw new Error(`weight_decay must be a number in [0, 10), got ${quotedWord(String(f.weight_decay))}`);
  st.weight_decay = wd;
  st.seed = wholeIn(f.seed, "seed", 0, 4294967295);
  return st;
}

function field(label, name, attrs = {}) {
  const id = nextId(name);
  const input = h(attrs.rows ? "textarea" : "input", { id, "data-name": name, class: attrs.rows ? "attnw-area" : "attnw-number", spellcheck: "false", autocomplete: "off", ...attrs });
  return { input, el: h("div", { class: "attnw-control attnw-field" }, [h("label", { for: id, class: "attnw-label", text: label }), input]) };
}

// The fields of the data, the model and the training, and of the watched sentence.
function buildFields() {
  return {
    senses: field("senses and cue words", "senses", { rows: 4 }),
    sentences: field("your sentences", "sentences", { rows: 2, placeholder: "bank:river | we went by boat to the bank" }),
    n_train: field("training sentences", "n_train", { type: "text", inputmode: "numeric" }),
    n_test: field("held-out sentences", "n_test", { type: "text", inputmode: "numeric" }),
    d_model: field("d_model (= d_k)", "d_model", { type: "text", inputmode: "numeric" }),
    lr: field("learning rate", "lr", { type: "text", inputmode: "decimal" }),
    weight_decay: field("weight decay", "weight_decay", { type: "text", inputmode: "decimal" }),
    steps: field("steps", "steps", { type: "text", inputmode: "numeric" }),
    seed: field("seed", "seed", { type: "text", inputmode: "numeric" }),
    watch: field("watched sentence", "watch", { type: "text", class: "attnw-text" }),
  };
}

// The buttons, the progress, the message, the two curves, the watched row's panel, and the ask box with its answer.
function buildParts() {
  const button = (name, text) => h("button", { type: "button", class: "attnw-button", "data-name": name, text });
  return {
    train: button("train", "Train"), stop: button("stop", "Stop"), cont: button("continue", "Continue"), reset: button("reset", "Reset"),
    progress: h("progress", { "data-name": "progress", max: "1", value: "0", "aria-label": "training progress" }),
    stepText: h("span", { class: "attnw-num", "data-name": "step", text: "–" }),
    message: h("p", { class: "attnw-message", role: "status", "aria-live": "polite", "data-name": "message" }),
    restored: h("p", { class: "attnw-desc attnw-restored", "data-name": "restored", hidden: "" }),
    lossChart: lineChart({ title: "training loss", name: "loss-curve" }),
    accChart: lineChart({ title: "held-out accuracy", name: "accuracy-curve", ymax: 1 }),
    rowHolder: h("figure", { class: "attnw-panel" }),
    ask: field("ask the model you trained", "ask", { type: "text", class: "attnw-text" }),
    answer: h("p", { class: "attnw-desc", "data-name": "answer", "aria-live": "polite" }),
    askRow: h("figure", { class: "attnw-panel" }),
  };
}

// The card's parts in order: the fields, the buttons, the message, the panels, the ask box and its answer.
function layOut(v) {
  const { f } = v;
  v.root.append(
    h("div", { class: "attnw-controls attnw-grow" }, [f.senses.el, f.sentences.el]),
    h("div", { class: "attnw-controls" }, [f.n_train.el, f.n_test.el, f.d_model.el, f.lr.el, f.weight_decay.el, f.steps.el, f.seed.el]),
    h("div", { class: "attnw-controls attnw-grow" }, [f.watch.el]),
    h("div", { class: "attnw-controls attnw-buttons" }, [v.train, v.stop, v.cont, v.reset, h("span", { class: "attnw-stat" }, [v.progress, " step ", v.stepText])]),
    v.message, v.restored,
    h("div", { class: "attnw-panels" }, [h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "training loss" }), v.lossChart.el]),
      h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "held-out accuracy" }), v.accChart.el]), v.rowHolder]),
    h("div", { class: "attnw-controls attnw-grow" }, [v.ask.el]), v.answer, v.askRow,
  );
}

// The fields as text, the ask box left out; writing sets the fields named in `values`; the store keeps them.
function readFields(v) { return Object.fromEntries(Object.entries(v.f).filter(([k]) => k !== "ask").map(([k, x]) => [k, x.input.value])); }
function writeFields(v, values) { for (const [k, x] of Object.entries(values)) if (v.f[k]) v.f[k].input.value = x; }
function store(v) { try { localStorage.setItem(STORE_KEY, JSON.stringify(readFields(v))); } catch (e) { /* storage off: nothing is kept */ } }

// The run so far: the progress, the two curves, and the watched sentence's latest attention row.
function drawRun(v) {
  const t = v.trainer;
  const steps = t.settings.steps, done = trainerStep(t);
  v.progress.max = steps;
  v.progress.value = done;
  v.stepText.textContent = `${done} of ${steps}`;
  v.lossChart.update([{ label: "loss", values: t.losses }], steps);
  v.accChart.update([{ label: "accuracy", values: t.accuracies }], steps);
  const words = trainWords(t.settings.watch);
  if (!v.rowChart) {
    v.rowChart = barChart({ labels: words, title: `attention of '${words[t.watch.q]}'`, color: PALETTE.blue, name: "row" });
    v.rowHolder.replaceChildren(h("figcaption", { text: `where '${words[t.watch.q]}' looks, now` }), v.rowChart.el);
  }
  if (t.rows.length) v.rowChart.update(t.rows[t.rows.length - 1]);
  v.ask.input.disabled = t.losses.length === 0; // the box asks the weights of the last step drawn
}

// The end of a run (done, stopped or diverged): the message, the last drawing, the answer, the result saved.
function finish(v) {
  v.running = false;
  const t = v.trainer;
  t.finishedAt = performance.now();
  if (t.stopped) { say(v, `Stopped: ${t.stopped}.`); setState(v, "diverged"); }
  else if (trainerStep(t) >= t.settings.steps) { say(v, `Done: ${t.settings.steps} steps, training loss ${fmt(t.losses[t.losses.length - 1], 4)}, held-out accuracy ${fmt(t.accuracies[t.accuracies.length - 1], 3)}.`, true); setState(v, "done"); }
  else { say(v, `Stopped at step ${trainerStep(t)} of ${t.settings.steps}: press Continue to go on.`, true); setState(v, "stopped"); }
  drawRun(v);
  drawAnswer(v);
  save(v.model, { result: { step: trainerStep(t), losses: t.losses, accuracies: t.accuracies, stopped: t.stopped } });
}

// Train pressed: the fields read and checked, a new run, trained by a new worker (or in slices by the page).
function start(v) {
  let st;
  try { st = parseFields(readFields(v), v.limits); v.trainer = createTrainer(st, v.fillers); v.trainer.sliceMs = []; v.trainer.startedAt = performance.now(); }
  catch (err) { v.trainer = null; say(v, err.message); setState(v, "error"); v.rowHolder.replaceChildren(); return; }
  save(v.model, { settings: st });
  v.rowChart = null;
  say(v, "");
  v.stopAsked = false;
  v.running = true;
  setState(v, "training");
  drawRun(v);
  trainInWorker(v, RUN, { type: "start", settings: st, fillers: v.fillers });
}

// A report of the worker: the run so far (a copy of its numbers), drawn; at the end, finish.
function fromWorker(v, m) {
  const begin = performance.now();
  if (m.error) { v.running = false; say(v, `Training failed: ${m.error}`); setState(v, "error"); return; }
  Object.assign(v.trainer, { losses: m.losses, accuracies: m.accuracies, rows: m.rows, stopped: m.stopped, weights: m.weights });
  if (m.final) finish(v);
  else drawRun(v);
  v.trainer.sliceMs.push(performance.now() - begin); // how long the page was busy, drawing included
}

// The trained model's answer for the sentence in the ask box: its sense and where its ambiguous word looks.
function drawAnswer(v) {
  const { trainer, answer, askRow, root } = v;
  if (!trainer || trainer.losses.length === 0) { answer.textContent = "Train the model first, then ask it."; askRow.replaceChildren(); return; }
  try {
    const out = askTrained(trainer, v.ask.input.value);
    answer.textContent = `predicted sense: ${out.sense} (p = ${fmt(Math.max(...out.probs), 3)}), after ${trainerStep(trainer)} steps`;
    const chart = barChart({ labels: out.words, title: `attention of '${out.words[out.query]}'`, color: PALETTE.green, name: "ask-row" });
    chart.update(out.row);
    askRow.replaceChildren(h("figcaption", { text: `where '${out.words[out.query]}' looks` }), chart.el);
    root.dataset.answer = JSON.stringify(out);
  } catch (err) { answer.textContent = err.message; askRow.replaceChildren(); root.dataset.answer = JSON.stringify({ error: err.message }); }
}

// Reset pressed: the run and the worker gone, the stored fields forgotten, the chapter's settings back.
function resetAll(v) {
  v.stopAsked = true; v.running = false; v.trainer = null; v.rowChart = null;
  if (v.worker) { v.worker.terminate(); v.worker = null; }
  try { localStorage.removeItem(STORE_KEY); } catch (e) { /* storage off */ }
  writeFields(v, fieldsOf(v.defaults));
  save(v.model, { settings: v.defaults });
  v.rowHolder.replaceChildren(); v.askRow.replaceChildren(); v.answer.textContent = "";
  v.restored.hidden = true;
  say(v, "The chapter's settings are back. Press Train.", true);
  setState(v, "idle");
}

// The buttons train, stop, continue and reset; every field is stored as it is typed; the ask box asks.
function wire(v) {
  const { model, ask } = v;
  wireRunButtons(v, RUN);
  for (const x of Object.values(v.f)) x.input.addEventListener("input", () => store(v));
  ask.input.addEventListener("input", () => { drawAnswer(v); save(model, { ask: ask.input.value }); });
}

// The fields from the synced settings, then from the ones the reader left (localStorage); the ask box.
// True when the stored fields changed any of them.
function restoreFields(v) {
  const { model, f } = v;
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(STORE_KEY) || "null"); } catch (e) { saved = null; }
  writeFields(v, fieldsOf(model.get("settings")));
  const before = JSON.stringify(readFields(v));
  if (saved && typeof saved === "object") writeFields(v, Object.fromEntries(Object.entries(saved).filter(([k, x]) => f[k] && typeof x === "string")));
  v.ask.input.value = model.get("ask") || "";
  return JSON.stringify(readFields(v)) !== before;
}

// The first message: the chapter's run to train, or the settings this browser kept from a last visit
// (said under the message until Reset), with what is wrong with them, if anything.
function greet(v, restored) {
  v.restored.hidden = !restored;
  if (!restored) { say(v, "Press Train: the chapter's run, trained in this page.", true); setState(v, "idle"); return; }
  v.restored.textContent = "These are the settings you left here last time, kept by this browser: press Reset to go back to the chapter's.";
  try { parseFields(readFields(v), v.limits); say(v, "Your settings from last time are back. Press Train.", true); setState(v, "idle"); }
  catch (err) { say(v, `Your settings from last time are back, and one is not right: ${err.message}. Change it, or press Reset.`); setState(v, "error"); }
}

function render({ model, el }) {
  const root = card("Train it yourself",
    "Change the senses and their cue words (one sense a line: 'word sense: cue cue …'), add sentences of your own ('word:sense | sentence'), set the model and the training, then press Train. The page trains the model here, in float64, step for step as the book's Python does.");
  root.classList.add("attnw-learned", "attnw-trainer");
  // the view: the synced defaults and limits, the card and its parts, and the run (its trainer and worker)
  const v = {
    model, root, defaults: model.get("defaults"), limits: model.get("limits"), fillers: model.get("fillers"),
    f: buildFields(), ...buildParts(),
    trainer: null, running: false, stopAsked: false, rowChart: null, worker: null,
  };
  layOut(v);
  el.append(root);
  wire(v);
  greet(v, restoreFields(v));
  root.trainer = () => v.trainer; // read by the book's own checks of this page
  const onSettings = () => { if (!v.running) { writeFields(v, fieldsOf(model.get("settings"))); store(v); } };
  model.on("change:settings", onSettings);
  return () => { v.stopAsked = true; v.running = false; if (v.worker) v.worker.terminate(); model.off("change:settings", onSettings); };
}

export default { render };
