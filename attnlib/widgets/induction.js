// Watch an induction head form: the reader sets the layers, heads, d_model, vocabulary, context, the range of
// repeat lengths, the batch, the learning rate, the steps and the seed; Train runs Adam in float64 in this page
// (induction_core.js, the line-for-line twin of attnlib/companions/induction.py) in a Web Worker made from the
// module's own text (where no worker may start, in slices between frames). The losses on the two copies, each
// head's prefix-matching and previous-token scores and its attention pattern on one repeated sequence are drawn
// as it learns; Stop and Continue pause and resume; afterwards heads can be switched off and a typed sequence
// shows where each head looks. The fields survive a reload (localStorage); Reset restores the chapter's run.
// Shared helpers (from _dom.js and _common.js): h, s, PALETTE, clamp, fmt, nextId, card, save
// (and lineChart, from line_chart.js, and the run's steps of trainer_page.js: trainInSlices, workerMaker, sliceRun,
// trainInWorker, wireRunButtons, say, setState; induction.py puts both before this file)

const IND_STORE_KEY = "attnbook:watch-induction:v1";
const IND_WORKER_SLICE_MS = 50;
const IND_DRAW_MS = 100; // the curves are redrawn at most this often while the model trains
const IND_SERIES = ["losses", "second", "first", "previous", "duplicate", "prefix"];
const IND_FIELDS = ["layers", "heads", "d_model", "vocab", "context", "repeat_min", "repeat_max", "batch", "lr", "steps", "seed"];
const IND_LABELS = { layers: "layers (1 or 2)", heads: "heads per layer", d_model: "d_model", vocab: "vocabulary", context: "context",
  repeat_min: "shortest repeat", repeat_max: "longest repeat", batch: "batch", lr: "learning rate", steps: "steps", seed: "seed" };
// Each head's line colour; induction.css turns the last five into their theme's shade (3:1 on the chart in both themes).
const HEAD_COLOURS = [PALETTE.blue, PALETTE.red, PALETTE.green, "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999"];

// The worker's own code, after trainer_core.js, induction_core.js and trainInSlices (trainer_page.js): it sends
// only the steps not sent yet (from the step numbered from on), and the weights only when the run stops or ends.
const IND_WORKER_MAIN = `
let sent = 0;
function send(t, final) {
  const from = sent, part = (k) => t[k].slice(from);
  sent = t.losses.length;
  postMessage({ from, losses: part("losses"), second: part("second"), first: part("first"), previous: part("previous"), duplicate: part("duplicate"), prefix: part("prefix"), stopped: t.stopped, weights: final ? t.weights : null, final });
}
trainInSlices(${IND_WORKER_SLICE_MS}, (m) => { const t = createInduction(m.settings); sent = 0; return t; }, inductionOneStep, send);`;
// What is this widget's own in a run that trainer_page.js drives: its worker, a step, the drawing (at most every
// IND_DRAW_MS while it trains), the end, a report of the worker, and what Train and Reset do.
const IND_RUN = {
  worker: workerMaker([TRAINER_CORE_SOURCE, INDUCTION_CORE_SOURCE, "\n", String(trainInSlices), IND_WORKER_MAIN]),
  step: inductionOneStep, draw: (v, going) => { if (going) drawSoon(v); }, finish: finishInduction, report: fromInductionWorker,
  start: startInduction, reset: resetInduction,
};

// What the reader typed, quoted in at most about 40 characters.
function quoted(text) {
  const chars = Array.from(String(text).trim());
  return chars.length <= 40 ? `'${chars.join("")}'` : `'${chars.slice(0, 36).join("")}…' (${chars.length} characters)`;
}

function whole(text, key, lo, hi) {
  const t = String(text).trim(), v = Number(t);
  if (t === "" || !/^[+-]?\d+$/.test(t) || v < lo || v > hi) throw new Error(`${key} must be a whole number from ${lo} to ${hi}, got ${t === "" ? "nothing" : quoted(t)}`);
  return v;
}

// The fields read and checked as attnlib.companions.induction.check_settings does: the settings, or an Error.
function parseInductionFields(f, limits) {
  const st = {};
  for (const k of Object.keys(limits)) st[k] = whole(f[k], k, ...limits[k]);
  st.seed = whole(f.seed, "seed", 0, 4294967295);
  const lrText = String(f.lr).trim(), lr = Number(lrText);
  if (lrText === "" || !(Number.isFinite(lr) && lr > 0)) throw new Error(`the learning rate must be a finite number > 0, got ${lrText === "" ? "nothing" : quoted(lrText)}`);
  st.lr = lr;
  if (st.d_model % st.heads) throw new Error(`d_model (${st.d_model}) must split evenly into ${st.heads} heads`);
  if (st.repeat_min > st.repeat_max) throw new Error(`the shortest repeat (${st.repeat_min}) is longer than the longest (${st.repeat_max})`);
  if (2 * st.repeat_max > st.context) throw new Error(`a repeat of ${st.repeat_max} tokens, twice, does not fit in a context of ${st.context} tokens: make the repeat at most ${Math.floor(st.context / 2)}`);
  return st;
}

// A typed sequence of token numbers, checked against the trained model's vocabulary and context.
function parseTokens(text, st) {
  const parts = String(text).trim().split(/[\s,]+/).filter((x) => x);
  if (parts.length < 2 || parts.length > st.context) throw new Error(`type 2 to ${st.context} token numbers, got ${parts.length}`);
  return parts.map((x) => {
    if (!/^\d+$/.test(x) || Number(x) >= st.vocab) throw new Error(`each token is a whole number from 0 to ${st.vocab - 1}, got ${quoted(x)}`);
    return Number(x);
  });
}

// An n × n attention pattern: rows are queries, columns keys; each cell's opacity is its weight.
function patternChart(n, title, name) {
  const size = 120, cell = size / n;
  const svg = s("svg", { viewBox: `0 0 ${size} ${size}`, class: "attnw-chart attnw-pattern", role: "img", "data-name": name });
  const desc = s("title", { text: title });
  svg.append(desc, s("rect", { x: 0, y: 0, width: size, height: size, fill: "none", stroke: PALETTE.grid, class: "attnw-ground" }));
  const cells = [];
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) {
    const r = s("rect", { x: (j * cell).toFixed(2), y: (i * cell).toFixed(2), width: cell.toFixed(2), height: cell.toFixed(2), fill: PALETTE.blue, "fill-opacity": 0 });
    cells.push([i * n + j, r]);
    svg.append(r);
  }
  return { el: svg, update(p) { for (const [k, r] of cells) r.setAttribute("fill-opacity", clamp(p[k], 0, 1).toFixed(3)); } };
}

function indField(label, name, attrs = {}) {
  const id = nextId(name);
  const input = h("input", { id, "data-name": name, class: "attnw-number", spellcheck: "false", autocomplete: "off", type: "text", ...attrs });
  return { input, el: h("div", { class: "attnw-control attnw-field" }, [h("label", { for: id, class: "attnw-label", text: label }), input]) };
}

// The fields, the buttons, the message, the charts and the holders of the patterns and head switches.
function buildInduction() {
  const button = (name, text) => h("button", { type: "button", class: "attnw-button", "data-name": name, text });
  const f = {};
  for (const k of IND_FIELDS) f[k] = indField(IND_LABELS[k], k, { inputmode: k === "lr" ? "decimal" : "numeric" });
  return {
    f, train: button("train", "Train"), stop: button("stop", "Stop"), cont: button("continue", "Continue"), reset: button("reset", "Reset"),
    progress: h("progress", { "data-name": "progress", max: "1", value: "0", "aria-label": "training progress" }),
    stepText: h("span", { class: "attnw-num", "data-name": "step", text: "–" }),
    message: h("p", { class: "attnw-message", role: "status", "aria-live": "polite", "data-name": "message" }),
    lossChart: lineChart({ title: "loss on the second copy (solid) and the first (dashed)", name: "loss-curve" }),
    prefixChart: lineChart({ title: "prefix-matching score of each head", name: "prefix-curve", ymax: 1, colors: HEAD_COLOURS }),
    prevChart: lineChart({ title: "previous-token score of each head", name: "previous-curve", ymax: 1, colors: HEAD_COLOURS }),
    legend: h("p", { class: "attnw-desc", "data-name": "legend" }),
    switches: h("div", { class: "attnw-controls", "data-name": "switches" }),
    ask: indField("your tokens (numbers)", "ask", { class: "attnw-text", placeholder: "e.g. 5 9 2 7 5 9 2" }),
    answer: h("p", { class: "attnw-desc", "data-name": "answer", "aria-live": "polite" }),
    patterns: h("div", { class: "attnw-panels", "data-name": "patterns" }),
  };
}

function layOutInduction(v) {
  const panel = (caption, chart) => h("figure", { class: "attnw-panel" }, [h("figcaption", { text: caption }), chart.el]);
  v.root.append(
    h("div", { class: "attnw-controls" }, IND_FIELDS.map((k) => v.f[k].el)),
    h("div", { class: "attnw-controls attnw-buttons" }, [v.train, v.stop, v.cont, v.reset, h("span", { class: "attnw-stat" }, [v.progress, " step ", v.stepText])]),
    v.message,
    h("div", { class: "attnw-panels" }, [panel("loss on the copies", v.lossChart), panel("prefix-matching score", v.prefixChart), panel("previous-token score", v.prevChart)]),
    v.legend, v.switches, h("div", { class: "attnw-controls attnw-grow" }, [v.ask.el]), v.answer, v.patterns,
  );
}

function readInd(v) { return Object.fromEntries(IND_FIELDS.map((k) => [k, v.f[k].input.value])); }
function writeInd(v, values) { for (const [k, x] of Object.entries(values)) if (v.f[k]) v.f[k].input.value = String(x); }
function storeInd(v) { try { localStorage.setItem(IND_STORE_KEY, JSON.stringify(readInd(v))); } catch (e) { /* storage off */ } }
function headName(st, k) { return `L${Math.floor(k / st.heads) + 1}H${(k % st.heads) + 1}`; }

// The curves so far: the two losses, and one line per head for each score.
function drawInductionRun(v) {
  const t = v.trainer, st = t.settings, done = inductionStepsDone(t), heads = st.layers * st.heads;
  v.progress.max = st.steps;
  v.progress.value = done;
  v.stepText.textContent = `${done} of ${st.steps}`;
  v.lossChart.update([{ label: "second copy", values: t.second }, { label: "first copy", values: t.first }], st.steps);
  const per = (rows) => Array.from({ length: Math.min(heads, HEAD_COLOURS.length) }, (_, k) => ({ label: headName(st, k), values: rows.map((r) => r[k]) }));
  v.prefixChart.update(per(t.prefix), st.steps);
  v.prevChart.update(per(t.previous), st.steps);
  v.legend.textContent = `lines, in order: ${per(t.prefix).map((x, k) => `${x.label} ${["blue", "orange", "green", "pink", "ochre", "teal", "ink", "grey"][k]}`).join(", ")} (dashed every other)`;
}

// The curves redrawn now if IND_DRAW_MS have passed since the last time, else once when they have.
function drawSoon(v) {
  const wait = (v.drawnAt || -Infinity) + IND_DRAW_MS - performance.now();
  if (wait <= 0) { clearTimeout(v.drawTimer); v.drawTimer = null; v.drawnAt = performance.now(); drawInductionRun(v); }
  else if (!v.drawTimer) v.drawTimer = setTimeout(() => { v.drawTimer = null; if (v.running) drawSoon(v); }, wait);
}

// The switches of the trained model's heads (checked: on), drawn once per run.
function drawSwitches(v) {
  const st = v.trainer.settings;
  v.keep = new Float64Array(st.layers * st.heads).fill(1);
  v.switches.replaceChildren(h("span", { class: "attnw-label", text: "heads on:" }), ...Array.from(v.keep, (_, k) => {
    const id = nextId("head");
    const box = h("input", { type: "checkbox", id, "data-name": `head-${k}` });
    box.checked = true;
    box.addEventListener("change", () => { v.keep[k] = box.checked ? 1 : 0; drawLook(v); });
    return h("label", { class: "attnw-check", for: id }, [box, headName(st, k)]);
  }));
}

// Each head's pattern on the watched sequence, or on the typed one, with the switched-off heads off.
function drawLook(v) {
  const t = v.trainer;
  if (!t || t.losses.length === 0) { v.answer.textContent = "Train the model first: then switch heads off or type tokens."; return; }
  const st = t.settings, typed = v.ask.input.value.trim();
  let tokens, repeat = null;
  try { tokens = typed ? parseTokens(typed, st) : Array.from(v.watched.tokens); }
  catch (err) { v.answer.textContent = err.message; v.root.dataset.look = JSON.stringify({ error: err.message }); return; }
  if (!typed) repeat = { start: v.watched.start, length: v.watched.length };
  const out = inductionLook(t.weights, st, tokens, v.keep, repeat);
  const n = tokens.length;
  v.patterns.replaceChildren(...out.patterns.map((p, k) => {
    const chart = patternChart(n, `attention pattern of head ${headName(st, k)} on ${tokens.join(" ")}`, `pattern-${k}`);
    chart.update(p);
    return h("figure", { class: "attnw-panel attnw-small" }, [h("figcaption", { text: headName(st, k) }), chart.el]);
  }));
  const off = Array.from(v.keep).map((x, k) => (x ? null : headName(st, k))).filter((x) => x);
  v.answer.textContent = `${typed ? "your tokens" : `the watched sequence (a repeat of ${repeat.length} from position ${repeat.start})`}: ${tokens.join(" ")}. ` +
    (repeat ? `Loss on its second copy ${fmt(out.second, 3)} nats` : `Mean loss ${fmt(out.loss, 3)} nats`) + (off.length ? `, with ${off.join(", ")} off.` : ", every head on.");
  v.root.dataset.look = JSON.stringify({ tokens, patterns: out.patterns, second: out.second, loss: out.loss });
}

function finishInduction(v) {
  v.running = false;
  const t = v.trainer, st = t.settings;
  t.finishedAt = performance.now();
  clearTimeout(v.drawTimer); v.drawTimer = null;
  if (t.stopped) { say(v, `Stopped: ${t.stopped}.`); setState(v, "diverged"); }
  else if (inductionStepsDone(t) >= st.steps) {
    const best = Math.max(...t.prefix[t.prefix.length - 1]);
    say(v, `Done: ${st.steps} steps; loss on the second copy ${fmt(t.second[t.second.length - 1], 3)}, on the first ${fmt(t.first[t.first.length - 1], 3)}; best prefix-matching score ${fmt(best, 3)}.`, true);
    setState(v, "done");
  } else { say(v, `Stopped at step ${inductionStepsDone(t)} of ${st.steps}: press Continue to go on.`, true); setState(v, "stopped"); }
  drawInductionRun(v);
  drawSwitches(v);
  drawLook(v);
  save(v.model, { result: { step: inductionStepsDone(t), second: t.second, prefix: t.prefix, stopped: t.stopped } });
}

function noteCrossing(v) {
  const t = v.trainer;
  if (t.crossedAt === undefined && t.prefix.length && t.settings.layers === 2 && Math.max(...t.prefix[t.prefix.length - 1].slice(t.settings.heads)) > 0.4) t.crossedAt = performance.now();
}

function fromInductionWorker(v, m) {
  const begin = performance.now();
  if (m.error) { v.running = false; say(v, `Training failed: ${m.error}`); setState(v, "error"); return; }
  const t = v.trainer;
  for (const k of IND_SERIES) { t[k].length = m.from; for (const x of m[k]) t[k].push(x); }
  t.stopped = m.stopped;
  if (m.weights) t.weights = m.weights;
  noteCrossing(v);
  if (m.final) finishInduction(v);
  else drawSoon(v);
  v.trainer.sliceMs.push(performance.now() - begin);
}

function startInduction(v) {
  let st;
  try { st = parseInductionFields(readInd(v), v.limits); v.trainer = createInduction(st); v.trainer.sliceMs = []; v.trainer.startedAt = performance.now(); v.watched = inductionWatched(st); }
  catch (err) { v.trainer = null; say(v, err.message); setState(v, "error"); v.patterns.replaceChildren(); v.switches.replaceChildren(); return; }
  save(v.model, { settings: st });
  say(v, "");
  v.stopAsked = false; v.running = true;
  setState(v, "training");
  drawInductionRun(v);
  trainInWorker(v, IND_RUN, { type: "start", settings: st });
}

function resetInduction(v) {
  v.stopAsked = true; v.running = false; v.trainer = null;
  if (v.worker) { v.worker.terminate(); v.worker = null; }
  try { localStorage.removeItem(IND_STORE_KEY); } catch (e) { /* storage off */ }
  writeInd(v, v.defaults);
  save(v.model, { settings: v.defaults });
  v.patterns.replaceChildren(); v.switches.replaceChildren(); v.answer.textContent = ""; v.ask.input.value = "";
  say(v, "The chapter's settings are back. Press Train.", true);
  setState(v, "idle");
}

function wireInduction(v) {
  wireRunButtons(v, IND_RUN);
  for (const k of IND_FIELDS) v.f[k].input.addEventListener("input", () => storeInd(v));
  v.ask.input.addEventListener("input", () => drawLook(v));
}

function restoreInduction(v) {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(IND_STORE_KEY) || "null"); } catch (e) { saved = null; }
  writeInd(v, v.model.get("settings"));
  if (saved && typeof saved === "object") writeInd(v, Object.fromEntries(Object.entries(saved).filter(([k, x]) => IND_FIELDS.includes(k) && typeof x === "string")));
}

function render({ model, el }) {
  const root = card("Watch an induction head form",
    "Set the model and the data, then press Train. The page trains the chapter's attention-only model here, in float64, step for step as the book's Python does. Set one layer to see the control, or both repeat lengths equal to see the trap.");
  root.classList.add("attnw-learned", "attnw-trainer", "attnw-induction");
  const v = { model, root, defaults: model.get("defaults"), limits: model.get("limits"), ...buildInduction(), trainer: null, running: false, stopAsked: false, worker: null, keep: null, watched: null };
  layOutInduction(v);
  el.append(root);
  wireInduction(v);
  restoreInduction(v);
  say(v, "Press Train: the chapter's run, trained in this page.", true);
  setState(v, "idle");
  root.trainer = () => v.trainer; // read by the book's own checks of this page
  return () => { v.stopAsked = true; v.running = false; clearTimeout(v.drawTimer); if (v.worker) v.worker.terminate(); };
}

export default { render };
