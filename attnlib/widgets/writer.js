// Write with the trained model: a prompt, a rule (temperature, top-k, top-p) and a seed; the page runs
// the language model of "A model that writes" in float64 from its stored float32 weights, one word at a
// time through a KV cache per block, and shows for each new word the five most likely words and where
// the long-range head looked. The model, the rule and the controls it shares with "Continue the text" are
// writer_core.js, which writer.py puts before this file.
// Python reference: attnlib.widgets.writer.WriteWithModel.numbers (attnlib.generate with a Sampler on the
// same weights).
// Shared helpers (from _dom.js and _common.js): h, quotedWords, card, fmt, nextId, redrawOn, save

// --- the prompt (WriteWithModel.prompt_ids) ---------------------------------------------------------
function promptIds(text, m) {
  const words = text.toLowerCase().split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return { error: "the prompt is empty: give at least one word (a story starts with <s>)" };
  const unknown = words.filter((w) => !m.index.has(w));
  if (unknown.length) {
    return { error: `unknown word${new Set(unknown).size > 1 ? "s" : ""} ${quotedWords(unknown)}: the model knows only its ${m.vocab.length}-word vocabulary` };
  }
  if (words.length >= m.context) return { error: `the prompt has ${words.length} words; it can have at most ${m.context - 1}, so that the model's context of ${m.context} positions has room for the next word` };
  return { words, ids: words.map((w) => m.index.get(w)) };
}

// --- the view ------------------------------------------------------------------------------------------
// The model of the synced state: its weights, vocabulary, the head the page watches and the end word.
function loadModel(model) {
  const m = makeModel(readWeights(model.get("weights"), model.get("shapes")), model.get("config"));
  m.vocab = model.get("vocab");
  m.index = new Map(m.vocab.map((w, i) => [w, i]));
  m.watch = model.get("watch");
  m.endId = m.index.get(model.get("end"));
  return m;
}

// The prompt box, its clear button and the clickable vocabulary.
function buildPrompt(root, m) {
  const inputId = nextId("prompt");
  const input = h("input", { type: "text", id: inputId, "data-name": "prompt", autocomplete: "off", spellcheck: "false", class: "attnw-text" });
  const clear = h("button", { type: "button", class: "attnw-button", "data-name": "clear", text: "clear" });
  root.append(h("div", { class: "attnw-controls" }, [
    h("div", { class: "attnw-control attnw-grow" }, [h("label", { for: inputId, class: "attnw-label", text: "prompt" }), input, clear]),
  ]));
  const vocab = h("details", { class: "attnw-vocab" }, [h("summary", { text: `vocabulary (${m.vocab.length} words): click a word to add it` })]);
  for (const w of m.vocab) if (w !== "<pad>") vocab.append(h("button", { type: "button", class: "attnw-word", "data-word": w, text: w }));
  root.append(vocab);
  return { input, clear, vocab };
}

// The buttons: next word, write to the end, start again.
function buildButtons(root) {
  const next = h("button", { type: "button", class: "attnw-button", "data-name": "next", text: "next word" });
  const finish = h("button", { type: "button", class: "attnw-button", "data-name": "finish", text: "write to the end" });
  const restart = h("button", { type: "button", class: "attnw-button", "data-name": "restart", text: "start again" });
  root.append(h("div", { class: "attnw-controls attnw-buttons" }, [next, finish, restart]));
  return { next, finish, restart };
}

// What was written, and the panels of one new word (its five most likely words, where the head looked).
function buildOutput(root) {
  const story = h("p", { class: "attnw-story", "data-name": "story" });
  const rowCaption = h("figcaption");
  const strip = h("p", { class: "attnw-strip", role: "img", "data-name": "row" });
  const rowMax = h("p", { class: "attnw-desc", "data-name": "row-max" });
  const parts = outputParts("word", h("figure", { class: "attnw-panel" }, [rowCaption, strip, rowMax]));
  root.append(parts.message, story, parts.said, parts.looking);
  return { ...parts, story, rowCaption, strip, rowMax };
}

// One word of the story as a span.
function wordSpan(word, cls, name) {
  return h("span", { class: cls, "data-name": name, text: word });
}

// The strip of where the watched head of the last context word looked (record r), and its maximum.
function showAttentionRow(v, r, context) {
  const row = r.rows[v.m.watch[0]][v.m.watch[1]];
  const last = context[context.length - 1];
  v.rowCaption.textContent = `where the last word '${last}' looked (${v.head}), over the ${context.length} cached positions`;
  const spans = context.map((w, j) => {
    const span = wordSpan(w, "attnw-cell", `row-${j}`);
    const weight = row[j];
    span.style.setProperty("--w", Math.min(1, weight).toFixed(3)); // writer.css shades the word by it, for the theme
    span.title = `${w}: ${fmt(weight, 3)}`;
    span.dataset.weight = fmt(weight, 3);
    return span;
  });
  v.strip.replaceChildren(...spans.flatMap((span) => [span, " "]));
  const order = Array.from(row, (_, j) => j).sort((a, b) => row[b] - row[a]).slice(0, 3); // stable: ties keep the first
  const best = order[0];
  v.strip.setAttribute("aria-label", `attention of '${last}': ` + order.map((j) => `${context[j]} (position ${j + 1}) ${fmt(row[j], 2)}`).join(", "));
  v.rowMax.textContent = `most weight: '${context[best]}' (position ${best + 1}), ${fmt(row[best], 3)}`;
}

// The panels of new word k: its candidates, where the head looked, and the cache it was chosen from.
function showWord(v, k) {
  const r = v.run.steps[k];
  const context = v.run.ids.slice(0, v.run.prompt + k).map((i) => v.m.vocab[i]);
  showTopWords(v, r, k);
  showAttentionRow(v, r, context);
  v.cacheLine.textContent = `The cache holds the keys and values of ${context.length} positions in each of the ${v.m.n_layers} blocks; word ${k + 1} is chosen from the logits of the last one.`;
}

// The story (prompt words, then the new words) and, once there are new words, the panels of the one in focus.
function showStory(v, enc) {
  const { m, run, story, shown } = v;
  const words = enc.words.map((w, j) => wordSpan(w, "attnw-prompt-word", `prompt-${j}`));
  const written = run.new.map((id, j) => wordSpan(m.vocab[id], "attnw-new-word", `new-${j}`));
  story.replaceChildren(...[...words, ...written].flatMap((span) => [span, " "]));
  const n = run.new.length;
  if (n === 0) {
    v.looking.hidden = true;
    story.append(h("span", { class: "attnw-hint", text: "(press 'next word')" }));
  } else {
    v.looking.hidden = false;
    shown.input.max = String(n);
    const k = v.focus === null || v.focus > n ? n : v.focus;
    shown.input.value = String(k);
    shown.show(k);
    shown.input.disabled = n < 2;
    written[k - 1].classList.add("attnw-focus");
    showWord(v, k - 1);
  }
}

// The newest word for screen readers, the end of the story, and the numbers the browser tests read.
function showEnd(v, enc) {
  const { m, run } = v;
  const done = run.ended, n = run.new.length;
  v.said.textContent = n === 0 ? "" : `word ${n}: ${m.vocab[run.new[n - 1]]}${done ? ", the end" : ""}`;
  if (done) v.story.append(h("span", { class: "attnw-hint", "data-name": "done", text: run.ids.length >= m.context ? `(the page's context of ${m.context} is full)` : "(the story ended)" }));
  v.root.dataset.result = JSON.stringify({
    prompt: enc.words, new: run.new.map((i) => m.vocab[i]), ended: done,
    logits: run.steps.map((r) => Array.from(r.logits)), candidates: run.steps.map((r) => r.order),
    probs: run.steps.map((r) => r.probs), rows: run.steps.map((r) => Array.from(r.rows[m.watch[0]][m.watch[1]])), ms: run.steps.map((r) => r.ms),
  });
}

// Redraw from the synced state: the prompt read, the run written on, then the story and its panels.
function draw(v) {
  const enc = promptIds(v.model.get("prompt") || "", v.m);
  if (enc.error) return refuse(v, enc.error);
  if (!writeOn(v, enc, (error) => refuse(v, error))) return;
  showControls(v, { done: v.run.ended });
  showStory(v, enc);
  showEnd(v, enc);
}

// The prompt box, the clear button and the vocabulary's words write the prompt.
function wirePrompt(v) {
  const { model, input } = v;
  input.addEventListener("input", () => save(model, { prompt: input.value }));
  v.clear.addEventListener("click", () => { save(model, { prompt: "", steps: 0 }); input.focus(); });
  v.vocab.addEventListener("click", (ev) => {
    const w = ev.target && ev.target.dataset ? ev.target.dataset.word : undefined;
    if (!w) return;
    const now = (model.get("prompt") || "").trim();
    save(model, { prompt: now ? `${now} ${w}` : w });
  });
}

// The rule's sliders, the seed box, the word in focus and the buttons.
function wireRuleAndButtons(v) {
  const { model, m, shown } = v;
  wireRule(v);
  shown.input.addEventListener("input", () => { v.focus = Number(shown.input.value); draw(v); });
  v.next.addEventListener("click", () => { v.focus = null; save(model, { steps: (v.run ? v.run.new.length : 0) + 1 }); });
  v.finish.addEventListener("click", () => { v.focus = null; save(model, { steps: m.context }); });
  v.restart.addEventListener("click", () => { v.focus = null; save(model, { steps: 0 }); });
}

function render({ model, el }) {
  const m = loadModel(model);
  const root = card(
    "Write with the model",
    `Type a prompt from the model's ${m.vocab.length}-word vocabulary (or click words below), choose a rule and a seed, then let the trained model write, one word at a time. It runs in this page, from the weights trained above.`,
  );
  root.classList.add("attnw-learned", "attnw-writer");
  // the view: its parts, and the run being written (with the synced state it was written for)
  const v = {
    model, m, root, head: `block ${m.watch[0] + 1}, head ${m.watch[1] + 1}`, noun: "word", label: (i) => m.vocab[i],
    ...buildPrompt(root, m), ...buildRule(root, m, "word"), ...buildButtons(root), ...buildOutput(root),
    run: null, runKey: "", focus: null,
  };
  el.append(root);
  wirePrompt(v);
  wireRuleAndButtons(v);
  draw(v);
  return redrawOn(model, ["prompt", "temperature", "top_k", "top_p", "seed", "steps"], () => draw(v));
}

export default { render };
