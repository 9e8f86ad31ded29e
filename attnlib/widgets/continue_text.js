// Continue the text: the reader types a beginning, and the character-level model of "Attention on real text"
// continues it in this page, in float64 from its stored float32 weights (writer_core.js, which
// continue_text.py puts before this file: the model with its rotary positions, the rule, the controls). For
// each new character it shows the five most likely characters and where every head of both blocks looked from
// the last character. When its context of 64 is full, the model keeps the latest 32 characters and reads them
// afresh, as the chapter scored the held-out text.
// Python reference: attnlib.widgets.continue_text.ContinueText.numbers (the model's forward on the same
// weights, the same rule and seed).
// Shared helpers (from _dom.js and _common.js): h, quotedWords, card, fmt, nextId, redrawOn, save

const START = "\n"; // an empty prompt starts here (continue_text.START)
const MORE = 64; // the characters "write 64 more" adds
const EMPTY_NOTE = "the prompt is empty, so the model starts from a new line";

// A character as a message shows it: a control character by its code (continue_text.shown_char).
function shownChar(c) {
  const code = c.codePointAt(0);
  return code < 32 || code === 127 ? `U+${code.toString(16).toUpperCase().padStart(4, "0")}` : c;
}

// A character as the panels write it: the new line as ↵, the space as ·.
function charLabel(c) {
  return c === "\n" ? "↵" : c === " " ? "·" : c;
}

// --- the prompt (ContinueText.read_prompt) -----------------------------------------------------------
function readPrompt(text, m) {
  const chars = Array.from(text); // characters, not UTF-16 halves: Python's str counts the same
  const unknown = chars.filter((c) => !m.index.has(c));
  if (unknown.length) {
    const n = new Set(unknown).size;
    return { error: `${n} character${n > 1 ? "s" : ""} the model never saw: ${quotedWords(unknown.map(shownChar), 3)}. It knows only the ${m.vocab.length} characters of its text: ${m.known}` };
  }
  if (chars.length === 0) return { ids: [m.index.get(START)], note: EMPTY_NOTE };
  const kept = chars.slice(-m.context);
  const note = chars.length > m.context ? `the prompt has ${chars.length} characters and the model reads at most ${m.context}: it keeps the last ${m.context}` : "";
  return { ids: kept.map((c) => m.index.get(c)), note };
}

// --- the view ------------------------------------------------------------------------------------------
// The model of the synced state: its weights and characters (config.keep: what it keeps when its context is
// full); it has no end.
function loadModel(model) {
  const m = makeModel(readWeights(model.get("weights"), model.get("shapes")), model.get("config"));
  m.vocab = model.get("vocab");
  m.index = new Map(m.vocab.map((c, i) => [c, i]));
  m.known = model.get("known");
  m.endId = -1;
  return m;
}

// The prompt box (several lines: a speech starts after a name and a new line) and its clear button.
function buildPrompt(root) {
  const inputId = nextId("prompt");
  const input = h("textarea", { id: inputId, rows: "3", "data-name": "prompt", autocomplete: "off", spellcheck: "false", class: "attnw-text" });
  const clear = h("button", { type: "button", class: "attnw-button", "data-name": "clear", text: "clear" });
  root.append(h("div", { class: "attnw-controls" }, [
    h("div", { class: "attnw-control attnw-grow" }, [h("label", { for: inputId, class: "attnw-label", text: "beginning" }), input, clear]),
  ]));
  return { input, clear };
}

// The buttons: next character, 64 more, start again.
function buildButtons(root) {
  const next = h("button", { type: "button", class: "attnw-button", "data-name": "next", text: "next character" });
  const finish = h("button", { type: "button", class: "attnw-button", "data-name": "finish", text: `write ${MORE} more` });
  const restart = h("button", { type: "button", class: "attnw-button", "data-name": "restart", text: "start again" });
  root.append(h("div", { class: "attnw-controls attnw-buttons" }, [next, finish, restart]));
  return { next, finish, restart };
}

// Every head's line and strip, made once with a cell for each position of the context (a click then changes
// their text and shades, and makes no element).
function buildHeads(m) {
  const heads = [];
  for (let l = 0; l < m.n_layers; l++) {
    for (let a = 0; a < m.num_heads; a++) {
      const name = `b${l + 1}-h${a + 1}`;
      const cells = Array.from({ length: m.context }, (_, j) => h("span", { class: "attnw-cell", "data-name": `${name}-${j}` }));
      const line = h("p", { class: "attnw-desc attnw-head-max", "data-name": `${name}-max` });
      const strip = h("p", { class: "attnw-strip attnw-charstrip", role: "img" }, cells);
      heads.push({ l, a, cells, line, strip, box: h("div", { class: "attnw-head" }, [line, strip]) });
    }
  }
  return heads;
}

// The text written, and the panels of one new character (its five most likely, where every head looked).
function buildOutput(root, m) {
  const note = h("p", { class: "attnw-desc attnw-note", "data-name": "note" });
  const story = h("p", { class: "attnw-story attnw-chars", "data-name": "story" });
  const headsCaption = h("figcaption");
  const heads = buildHeads(m);
  const parts = outputParts("character", h("figure", { class: "attnw-panel attnw-heads-panel" }, [
    headsCaption, h("div", { class: "attnw-heads" }, heads.map((x) => x.box)),
  ]));
  root.append(parts.message, note, story, parts.said, parts.looking);
  return { ...parts, note, story, headsCaption, heads };
}

// Head `head`'s row (weights over `context`, the characters read): its cells show the characters shaded by
// weight, and its line names where it put the most.
function showHead(head, row, context) {
  const n = context.length;
  head.cells.forEach((cell, j) => {
    cell.hidden = j >= n;
    if (j >= n) return;
    const label = charLabel(context[j]);
    if (cell.textContent !== label) cell.textContent = label;
    // shaded by its weight in 21 steps of 0.05, a class each (continue_text.css sets its --w, writer.css the
    // shade for the theme): a class changed only where the step changed costs far less than 512 styles set
    const level = Math.round(20 * Math.min(1, row[j]));
    if (cell.level !== level) {
      cell.className = `attnw-cell attnw-w${level}`;
      cell.level = level;
    }
  });
  let best = 0;
  for (let j = 1; j < n; j++) if (row[j] > row[best]) best = j; // the first of the largest
  const back = n - 1 - best;
  const where = back === 0 ? "itself" : back === 1 ? "the character before" : `${back} characters back`;
  head.line.textContent = `block ${head.l + 1}, head ${head.a + 1}: most weight on '${charLabel(context[best])}', ${where}, ${fmt(row[best], 2)}`;
  head.strip.setAttribute("aria-label", head.line.textContent);
}

// The panels of new character k: its candidates, and where every head looked from the last character read.
function showChar(v, k) {
  const { m, run } = v;
  const r = run.steps[k];
  const context = run.ids.slice(0, run.prompt + k).slice(-r.read).map((i) => m.vocab[i]);
  showTopWords(v, r, k);
  v.headsCaption.textContent = `where each head looked from the last character, '${charLabel(context[context.length - 1])}', over the ${context.length} characters read`;
  for (const head of v.heads) showHead(head, r.rows[head.l][head.a], context);
  const before = run.prompt + k - r.read;
  v.cacheLine.textContent = `Character ${k + 1} is chosen from the logits of the last of the ${r.read} characters the cache holds` +
    (before > 0 ? ` (the ${before} before them left it when the context of ${m.context} was full).` : ".");
}

// The text (the prompt read, then the new characters, the one in focus marked) and the panels of that one.
function showStory(v, enc) {
  const { m, run, story, shown } = v;
  const text = (ids) => ids.map((i) => m.vocab[i]).join("");
  const n = run.new.length;
  const k = n === 0 ? 0 : v.focus === null || v.focus > n ? n : v.focus;
  story.replaceChildren(h("span", { class: "attnw-prompt-word", "data-name": "prompt-text", text: text(enc.ids) }));
  if (n === 0) {
    v.looking.hidden = true;
    story.append(h("span", { class: "attnw-hint", text: " (press 'next character')" }));
    return;
  }
  story.append(h("span", { class: "attnw-new-word", text: text(run.new.slice(0, k - 1)) }),
    h("span", { class: "attnw-new-word attnw-focus", "data-name": "focus", text: m.vocab[run.new[k - 1]] }),
    h("span", { class: "attnw-new-word", text: text(run.new.slice(k)) }));
  v.looking.hidden = false;
  shown.input.max = String(n);
  shown.input.value = String(k);
  shown.show(k);
  shown.input.disabled = n < 2;
  showChar(v, k - 1);
}

// The result as numbers (the page's own, for the book's checks of this page): what `enc` and `run` wrote.
// The view hands it out on request (root.result()): serialised at every click it would cost more than the
// model's step.
function resultOf(m, enc, run) {
  return {
    prompt: enc.ids.map((i) => m.vocab[i]).join(""), note: enc.note, new: run.new.map((i) => m.vocab[i]).join(""),
    logits: run.steps.map((r) => Array.from(r.logits)), candidates: run.steps.map((r) => r.order), probs: run.steps.map((r) => r.probs),
    rows: run.steps.map((r) => r.rows.map((block) => block.map((row) => Array.from(row)))), ms: run.steps.map((r) => r.ms),
  };
}

// What a synced state (prompt, temperature, top_k, top_p, seed, steps) writes, from scratch: the same
// reading, run and rule as the view's.
function numbersOf(m, state) {
  const enc = readPrompt(state.prompt, m);
  if (enc.error) return { error: enc.error };
  const v = { model: { get: (k) => state[k] }, m, run: null, runKey: "" };
  try {
    advanceRun(v, enc);
  } catch (err) {
    return { error: err.message };
  }
  return resultOf(m, enc, v.run);
}

// Redraw from the synced state: the prompt read, the run written on, then the text and its panels.
function draw(v) {
  const { m, model } = v;
  const enc = readPrompt(model.get("prompt") || "", m);
  v.note.textContent = enc.note || "";
  v.note.hidden = !enc.note;
  const stop = (error) => { v.root.result = () => ({ error }); refuse(v, error); };
  if (enc.error) return stop(enc.error);
  if (!writeOn(v, enc, stop)) return;
  const n = v.run.new.length, done = n >= m.max_new;
  showControls(v, { done });
  showStory(v, enc);
  v.said.textContent = n === 0 ? "" : `character ${n}: ${charLabel(m.vocab[v.run.new[n - 1]])}${done ? `, the last of ${m.max_new}` : ""}`;
  if (done) v.story.append(h("span", { class: "attnw-hint", "data-name": "done", text: ` (the page writes at most ${m.max_new} characters)` }));
  const run = { new: v.run.new.slice(), steps: v.run.steps.slice() }; // as drawn now
  v.root.result = () => resultOf(m, enc, run);
}

// The prompt box, the clear button, the rule, the seed, the character in focus and the buttons.
function wire(v) {
  const { model, m, input, shown } = v;
  input.addEventListener("input", () => save(model, { prompt: input.value }));
  v.clear.addEventListener("click", () => { save(model, { prompt: "", steps: 0 }); input.focus(); });
  wireRule(v);
  shown.input.addEventListener("input", () => { v.focus = Number(shown.input.value); draw(v); });
  const written = () => (v.run ? v.run.new.length : 0);
  v.next.addEventListener("click", () => { v.focus = null; save(model, { steps: Math.min(m.max_new, written() + 1) }); });
  v.finish.addEventListener("click", () => { v.focus = null; save(model, { steps: Math.min(m.max_new, written() + MORE) }); });
  v.restart.addEventListener("click", () => { v.focus = null; save(model, { steps: 0 }); });
}

function render({ model, el }) {
  const m = loadModel(model);
  const root = card(
    "Continue the text",
    `Type a beginning in the ${m.vocab.length} characters of the text, choose a rule and a seed, and the model trained above continues it, one character at a time, in this page. Below, where each of its ${m.n_layers * m.num_heads} heads looked from the last character.`,
  );
  root.classList.add("attnw-learned", "attnw-writer", "attnw-continue");
  // the view: its parts, and the run being written (with the synced state it was written for)
  const v = {
    model, m, root, noun: "character", label: (i) => charLabel(m.vocab[i]),
    ...buildPrompt(root), ...buildRule(root, m, "character"), ...buildButtons(root), ...buildOutput(root, m),
    run: null, runKey: "", focus: null,
  };
  el.append(root);
  wire(v);
  draw(v);
  root.numbers = (state) => numbersOf(m, state); // read by the book's own checks of this page
  return redrawOn(model, ["prompt", "temperature", "top_k", "top_p", "seed", "steps"], () => draw(v));
}

export default { render };
