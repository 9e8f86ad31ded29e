// Write with the trained model: a prompt, a rule (temperature, top-k, top-p) and a seed; the page runs
// the language model of "A model that writes" in float64 from its stored float32 weights, one word at a
// time through a KV cache per block, and shows for each new word the five most likely words and where
// the long-range head looked.
// Python reference: attnlib.widgets.writer.WriteWithModel.numbers (attnlib.generate with a Sampler on the
// same weights). `candidates` and `choose` follow attnlib.companions.sampler line for line; the random numbers
// are mulberry32's (uniformAt in _common.js is attnlib.companions.sampler.Mulberry32).
// Shared helpers (from _dom.js and _common.js): h, requireSeed, pyRepr, quotedWord, quotedWords, uniformAt, clamp, softmax, fmt, nextId, card, rangeControl, redrawOn, save

// --- the weights ---------------------------------------------------------------------------------
// The stored weights, by name: Float64Array copies of the float32 numbers (exact), in torch's layout.
function readWeights(blob, layout) {
  const bin = atob(blob);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const view = new DataView(bytes.buffer);
  const out = {};
  let at = 0;
  for (const [name, shape] of layout) {
    const n = shape.reduce((a, b) => a * b, 1);
    const data = new Float64Array(n);
    for (let i = 0; i < n; i++) data[i] = view.getFloat32(4 * (at + i), true); // little-endian
    out[name] = data;
    at += n;
  }
  if (4 * at !== bytes.length) throw new Error(`the stored weights hold ${bytes.length / 4} numbers, the layout reads ${at}`);
  return out;
}

// --- the model (attnlib.transformer.TinyLM.step, one word at a time) ------------------------------
// y = W x + b for torch's Linear: W is (out, in), row-major.
function linear(x, W, b) {
  const nIn = x.length, nOut = b.length;
  const y = new Float64Array(nOut);
  for (let o = 0; o < nOut; o++) {
    let t = b[o];
    const row = o * nIn;
    for (let i = 0; i < nIn; i++) t += W[row + i] * x[i];
    y[o] = t;
  }
  return y;
}

// nn.LayerNorm: (x - mean) / sqrt(var + 1e-5) · weight + bias, with the biased variance.
function layerNorm(x, w, b) {
  const n = x.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= n;
  let v = 0;
  for (let i = 0; i < n; i++) v += (x[i] - mean) * (x[i] - mean);
  const inv = 1 / Math.sqrt(v / n + 1e-5);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) y[i] = (x[i] - mean) * inv * w[i] + b[i];
  return y;
}

// GELU, tanh form (attnlib.transformer.gelu)
const GELU_C = Math.sqrt(2 / Math.PI);
function gelu(x) {
  const y = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) y[i] = 0.5 * x[i] * (1 + Math.tanh(GELU_C * (x[i] + 0.044715 * x[i] * x[i] * x[i])));
  return y;
}

function makeModel(w, config) {
  const blocks = [];
  for (let l = 0; l < config.n_layers; l++) {
    const p = (name) => w[`blocks.${l}.${name}`];
    blocks.push({
      norm1: [p("norm1.weight"), p("norm1.bias")], norm2: [p("norm2.weight"), p("norm2.bias")],
      q: [p("attn.W_q.weight"), p("attn.W_q.bias")], k: [p("attn.W_k.weight"), p("attn.W_k.bias")],
      v: [p("attn.W_v.weight"), p("attn.W_v.bias")], o: [p("attn.W_o.weight"), p("attn.W_o.bias")],
      ff1: [p("ff1.weight"), p("ff1.bias")], ff2: [p("ff2.weight"), p("ff2.bias")],
    });
  }
  return { ...config, embed: w["embed.weight"], pos: w["pos.weight"], norm: [w["norm.weight"], w["norm.bias"]], blocks };
}

// One word through the model: its key and value join each block's cache (caches[l].keys/values);
// returns the logits of the next word and every head's attention row over the cache, per block.
function step(m, caches, id, position) {
  const d = m.d_model, heads = m.num_heads, dk = d / heads, scale = 1 / Math.sqrt(dk);
  let x = new Float64Array(d);
  for (let c = 0; c < d; c++) x[c] = m.embed[id * d + c] + m.pos[position * d + c];
  const rows = [];
  m.blocks.forEach((b, l) => {
    const normed = layerNorm(x, ...b.norm1);
    const q = linear(normed, ...b.q);
    const cache = caches[l];
    cache.keys.push(linear(normed, ...b.k));
    cache.values.push(linear(normed, ...b.v));
    const n = cache.keys.length;
    const concat = new Float64Array(d);
    const blockRows = [];
    for (let a = 0; a < heads; a++) {
      const off = a * dk;
      const scores = new Float64Array(n);
      for (let j = 0; j < n; j++) {
        let t = 0;
        const key = cache.keys[j];
        for (let c = 0; c < dk; c++) t += q[off + c] * key[off + c];
        scores[j] = t * scale;
      }
      const weights = softmax(scores, 1);
      for (let j = 0; j < n; j++) {
        const value = cache.values[j];
        for (let c = 0; c < dk; c++) concat[off + c] += weights[j] * value[off + c];
      }
      blockRows.push(weights);
    }
    const attended = linear(concat, ...b.o);
    for (let c = 0; c < d; c++) x[c] += attended[c];
    const f = linear(gelu(linear(layerNorm(x, ...b.norm2), ...b.ff1)), ...b.ff2);
    for (let c = 0; c < d; c++) x[c] += f[c];
    rows.push(blockRows);
  });
  x = layerNorm(x, ...m.norm);
  const logits = new Float64Array(m.vocab_size); // the readout tied to the embeddings
  for (let v = 0; v < m.vocab_size; v++) {
    let t = 0;
    for (let c = 0; c < d; c++) t += x[c] * m.embed[v * d + c];
    logits[v] = t;
  }
  return { logits, rows };
}

// --- the rule (attnlib.companions.sampler.candidates and choose) ---------------------------------
// The logits, or an Error with attnlib.generation's message: NaN and +inf come from a model that
// diverged, and all -inf leaves no word; -inf alone is a word ruled out.
function requireLogits(logits) {
  if (logits.length === 0) throw new Error("the logits are empty: there is no word to choose from");
  let ruledOut = 0;
  for (let i = 0; i < logits.length; i++) {
    const x = logits[i];
    if (Number.isNaN(x) || x === Infinity) {
      throw new Error(`logit ${i} is ${pyRepr(x)}: the logits must be finite (or -inf for a word ruled out); a model whose logits are NaN or +inf has diverged`);
    }
    if (x === -Infinity) ruledOut += 1;
  }
  if (ruledOut === logits.length) throw new Error(`all ${logits.length} logits are -inf: every word is ruled out, so none can be chosen`);
  return logits;
}

// The words the rule chooses among, most likely first (ties: the smaller index), with their
// probabilities; a word of probability 0 is never a candidate. (z - top) / T keeps every exponent
// <= 0, so a tiny temperature is greedy instead of inf / inf.
function candidates(logits, rule) {
  requireLogits(logits);
  let order = Array.from(logits, (_, i) => i);
  order.sort((a, b) => (logits[b] - logits[a]) || (a - b));
  const t = rule.greedy ? 1 : rule.temperature;
  if (rule.topK !== null) order = order.slice(0, rule.topK);
  const top = logits[order[0]];
  let weights = order.map((i) => Math.exp((logits[i] - top) / t));
  const positive = weights.filter((w) => w > 0).length; // sorted: the zeros come last
  order = order.slice(0, positive);
  weights = weights.slice(0, positive);
  let total = 0;
  for (const w of weights) total += w;
  if (rule.topP !== null && rule.topP < 1) {
    let kept = 0, running = 0;
    while (kept < weights.length && running < rule.topP * total) {
      running += weights[kept];
      kept += 1;
    }
    order = order.slice(0, kept);
    weights = weights.slice(0, kept);
    total = running;
  }
  return { order, probs: weights.map((w) => w / total) };
}

function choose(logits, rule, uniform) {
  if (rule.greedy) {
    requireLogits(logits);
    let best = 0;
    for (let i = 1; i < logits.length; i++) if (logits[i] > logits[best]) best = i;
    return best;
  }
  const { order, probs } = candidates(logits, rule);
  let running = 0;
  for (let j = 0; j < order.length; j++) {
    running += probs[j];
    if (running > uniform) return order[j];
  }
  return order[order.length - 1]; // rounding left the sum just under 1: the last word of probability > 0
}

// The rule of the synced state (as WriteWithModel.rule): temperature 0 is greedy.
function ruleOf(model, vocabSize) {
  const t = model.get("temperature"), k = model.get("top_k"), p = model.get("top_p");
  if (!(t > 0)) return { greedy: true, temperature: null, topK: null, topP: null };
  return { greedy: false, temperature: t, topK: k >= 1 && k < vocabSize ? k : null, topP: p > 0 && p < 1 ? p : null };
}

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

// --- writing ------------------------------------------------------------------------------------------
// A run: the prompt through the caches, then one word per call of `more` (attnlib.generate).
function startRun(m, ids, rule, seed) {
  const caches = m.blocks.map(() => ({ keys: [], values: [] }));
  let last = null;
  ids.forEach((id, i) => { last = step(m, caches, id, i); });
  return { ids: ids.slice(), prompt: ids.length, caches, last, rule, seed, new: [], steps: [], ended: false };
}

function more(m, run) {
  const t0 = performance.now();
  const { logits, rows } = run.last;
  const k = run.new.length;
  const choice = choose(logits, run.rule, run.rule.greedy ? null : uniformAt(run.seed, k));
  const cand = candidates(logits, run.rule);
  const record = { logits, order: cand.order, probs: cand.probs, row: rows[m.watch[0]][m.watch[1]], choice };
  run.ids.push(choice);
  run.new.push(choice);
  run.ended = choice === m.endId || run.ids.length >= m.context;
  if (!run.ended) run.last = step(m, run.caches, choice, run.ids.length - 1);
  record.ms = performance.now() - t0;
  run.steps.push(record);
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

// The rule (temperature, top-k, top-p) with the note on why top-k and top-p are off at greedy, and the
// seed box with its note.
function buildRule(root, m) {
  const temperature = rangeControl({
    label: "temperature", name: "temperature", min: 0, max: Math.round(10 * 3), value: 0,
    format: (p) => (p === 0 ? "greedy" : `T = ${(p / 10).toFixed(1)}`),
  });
  const topK = rangeControl({
    label: "top-k", name: "top_k", min: 1, max: m.vocab_size, value: m.vocab_size,
    format: (p) => (p >= m.vocab_size ? "every word" : `k = ${p}`),
  });
  const topP = rangeControl({
    label: "top-p", name: "top_p", min: 1, max: 20, value: 20,
    format: (p) => (p >= 20 ? "every word" : `p = ${(p / 20).toFixed(2)}`),
  });
  const seedId = nextId("seed");
  const seed = h("input", { type: "text", inputmode: "numeric", id: seedId, "data-name": "seed", class: "attnw-number", autocomplete: "off", spellcheck: "false" });
  const seedNote = h("span", { class: "attnw-note", role: "status", "aria-live": "polite", "data-name": "seed-note" });
  const seedRow = h("div", { class: "attnw-control" }, [h("label", { for: seedId, class: "attnw-label", text: "seed" }), seed, seedNote]);
  const ruleNote = h("p", { class: "attnw-hint attnw-rule-note", id: nextId("rule-note"), "data-name": "rule-note",
    text: "top-k and top-p are off at temperature 0: greedy always takes the most likely word. Raise the temperature to sample, and they choose which words it samples from." });
  for (const c of [topK, topP]) c.input.setAttribute("aria-describedby", ruleNote.id);
  root.append(h("div", { class: "attnw-controls" }, [temperature.row, topK.row, topP.row, ruleNote, seedRow]));
  return { temperature, topK, topP, ruleNote, seed, seedNote };
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
  const message = h("p", { class: "attnw-message", role: "status", "aria-live": "polite", "data-name": "message" });
  const story = h("p", { class: "attnw-story", "data-name": "story" });
  const said = h("p", { class: "attnw-sr", role: "status", "aria-live": "polite", "data-name": "said" }); // the newest word, for screen readers
  const shown = rangeControl({ label: "look at word", name: "shown", min: 1, max: 1, value: 1, format: (p) => `${p}` });
  const cacheLine = h("p", { class: "attnw-desc", "data-name": "cache" });
  const topCaption = h("figcaption");
  const topTable = h("table", { class: "attnw-table attnw-top", "data-name": "top" });
  const rowCaption = h("figcaption");
  const strip = h("p", { class: "attnw-strip", role: "img", "data-name": "row" });
  const rowMax = h("p", { class: "attnw-desc", "data-name": "row-max" });
  const panels = h("div", { class: "attnw-panels" }, [
    h("figure", { class: "attnw-panel" }, [topCaption, topTable]),
    h("figure", { class: "attnw-panel" }, [rowCaption, strip, rowMax]),
  ]);
  const looking = h("div", {}, [shown.row, cacheLine, panels]);
  root.append(message, story, said, looking);
  return { message, story, said, shown, cacheLine, topCaption, topTable, rowCaption, strip, rowMax, looking };
}

// A slider's readout shows the synced value itself, which Python may set between the slider's steps.
function setSlider(ctl, position, text) {
  ctl.input.value = String(position);
  ctl.show(position);
  if (text !== null) {
    ctl.row.querySelector("output").textContent = text;
    ctl.input.setAttribute("aria-valuetext", text);
  }
}

// Whether x is a multiple of 1 / per (a slider's step).
const onGrid = (x, per) => Math.abs(per * x - Math.round(per * x)) < 1e-9;

// The controls show the synced state; the buttons that write are off once the story has ended.
function showControls(v, state) {
  const { model } = v;
  const t = model.get("temperature"), p = model.get("top_p");
  setSlider(v.temperature, Math.round(10 * t), t > 0 && !onGrid(t, 10) ? `T = ${Number(t.toFixed(4))}` : null);
  setSlider(v.topK, model.get("top_k"), null);
  setSlider(v.topP, Math.round(20 * p), p < 1 && !onGrid(p, 20) ? `p = ${Number(p.toFixed(4))}` : null);
  for (const c of [v.topK, v.topP]) c.input.disabled = !(t > 0);
  v.ruleNote.hidden = t > 0;
  if (document.activeElement !== v.seed) v.seed.value = String(model.get("seed"));
  if (v.input.value !== model.get("prompt")) v.input.value = model.get("prompt");
  v.next.disabled = state.done;
  v.finish.disabled = state.done;
}

// One word of the story as a span.
function wordSpan(word, cls, name) {
  return h("span", { class: cls, "data-name": name, text: word });
}

// The table of the five most likely words for new word k (record r), the chosen one marked.
function showTopWords(v, r, k) {
  const chosen = v.m.vocab[r.choice];
  v.topCaption.textContent = v.run.rule.greedy
    ? `word ${k + 1}, '${chosen}': the model's five most likely words (greedy takes the first)`
    : `word ${k + 1}, '${chosen}': the five most likely words your rule draws from`;
  const rows = [h("tr", {}, [h("th", { scope: "col", text: "word" }), h("th", { scope: "col", text: "probability" })])];
  for (let j = 0; j < Math.min(5, r.order.length); j++) {
    const p = r.probs[j];
    const bar = h("span", { class: "attnw-bar" });
    bar.style.width = `${(100 * p).toFixed(1)}%`;
    const word = v.m.vocab[r.order[j]];
    rows.push(h("tr", { class: r.order[j] === r.choice ? "attnw-chosen" : "" }, [
      h("th", { scope: "row", "data-name": `top-${j}-word`, text: word }),
      h("td", {}, [h("span", { class: "attnw-barbox" }, [bar]), h("span", { class: "attnw-num", "data-name": `top-${j}-prob`, text: fmt(p, 3) })]),
    ]));
  }
  v.topTable.replaceChildren(...rows);
}

// The strip of where the watched head of the last context word looked (record r), and its maximum.
function showAttentionRow(v, r, context) {
  const last = context[context.length - 1];
  v.rowCaption.textContent = `where the last word '${last}' looked (${v.head}), over the ${context.length} cached positions`;
  const spans = context.map((w, j) => {
    const span = wordSpan(w, "attnw-cell", `row-${j}`);
    const weight = r.row[j];
    span.style.setProperty("--w", Math.min(1, weight).toFixed(3)); // writer.css shades the word by it, for the theme
    span.title = `${w}: ${fmt(weight, 3)}`;
    span.dataset.weight = fmt(weight, 3);
    return span;
  });
  v.strip.replaceChildren(...spans.flatMap((span) => [span, " "]));
  const order = Array.from(r.row, (_, j) => j).sort((a, b) => r.row[b] - r.row[a]).slice(0, 3); // stable: ties keep the first
  const best = order[0];
  v.strip.setAttribute("aria-label", `attention of '${last}': ` + order.map((j) => `${context[j]} (position ${j + 1}) ${fmt(r.row[j], 2)}`).join(", "));
  v.rowMax.textContent = `most weight: '${context[best]}' (position ${best + 1}), ${fmt(r.row[best], 3)}`;
}

// The panels of new word k: its candidates, where the head looked, and the cache it was chosen from.
function showWord(v, k) {
  const r = v.run.steps[k];
  const context = v.run.ids.slice(0, v.run.prompt + k).map((i) => v.m.vocab[i]);
  showTopWords(v, r, k);
  showAttentionRow(v, r, context);
  v.cacheLine.textContent = `The cache holds the keys and values of ${context.length} positions in each of the ${v.m.n_layers} blocks; word ${k + 1} is chosen from the logits of the last one.`;
}

// A message instead of the story: a bad prompt, or a word that cannot be chosen (never a silent pick).
function refuse(v, error) {
  v.message.textContent = error;
  v.message.hidden = false;
  v.story.hidden = true;
  v.looking.hidden = true;
  showControls(v, { done: true });
  v.root.dataset.result = JSON.stringify({ error });
}

// The run of the synced prompt, rule and seed, written up to the asked number of words (a new run when
// any of them changed, or fewer words are asked); an Error when a word cannot be chosen.
function advanceRun(v, enc) {
  const { model, m } = v;
  const asked = Math.max(0, model.get("steps") | 0);
  const rule = ruleOf(model, m.vocab_size);
  const seedValue = model.get("seed");
  const key = JSON.stringify([enc.ids, rule, seedValue]);
  if (key !== v.runKey || v.run === null || v.run.new.length > asked) {
    v.run = startRun(m, enc.ids, rule, requireSeed(seedValue));
    v.runKey = key;
  }
  while (v.run.new.length < asked && !v.run.ended) more(m, v.run);
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
    probs: run.steps.map((r) => r.probs), rows: run.steps.map((r) => Array.from(r.row)), ms: run.steps.map((r) => r.ms),
  });
}

// Redraw from the synced state: the prompt read, the run written on, then the story and its panels.
function draw(v) {
  const enc = promptIds(v.model.get("prompt") || "", v.m);
  if (enc.error) return refuse(v, enc.error);
  v.message.hidden = true;
  v.story.hidden = false;
  try {
    advanceRun(v, enc);
  } catch (err) {
    v.run = null;
    return refuse(v, err.message);
  }
  showControls(v, { done: v.run.ended });
  showStory(v, enc);
  showEnd(v, enc);
}

// The seed a reader typed: a value outside [0, 2^32) or between whole numbers is moved to the nearest
// seed; an empty box, or one that holds no number, keeps the seed; the note says which. The box then
// shows the seed in use.
function takeSeed(v) {
  const { model, seed } = v;
  const typed = seed.value.trim(), now = model.get("seed");
  const x = typed === "" ? NaN : Number(typed);
  const use = Number.isFinite(x) ? clamp(Math.round(x), 0, 4294967295) : now;
  const rule = "a whole number from 0 to 4294967295";
  v.seedNote.textContent = typed === "" ? `the seed box is empty (a seed is ${rule}): still using ${now}`
    : !Number.isFinite(x) ? `${quotedWord(typed)} is not a number (a seed is ${rule}): still using ${now}`
      : use === x ? "" : `${quotedWord(typed)} is not a seed (${rule}): using ${use}`;
  seed.value = String(use);
  if (use !== now) save(model, { seed: use });
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
  const { model, m, temperature, topK, topP, shown } = v;
  temperature.input.addEventListener("input", () => save(model, { temperature: Number(temperature.input.value) / 10 }));
  topK.input.addEventListener("input", () => save(model, { top_k: Number(topK.input.value) }));
  topP.input.addEventListener("input", () => save(model, { top_p: Number(topP.input.value) / 20 }));
  v.seed.addEventListener("change", () => takeSeed(v));
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
    model, m, root, head: `block ${m.watch[0] + 1}, head ${m.watch[1] + 1}`,
    ...buildPrompt(root, m), ...buildRule(root, m), ...buildButtons(root), ...buildOutput(root),
    run: null, runKey: "", focus: null,
  };
  el.append(root);
  wirePrompt(v);
  wireRuleAndButtons(v);
  draw(v);
  return redrawOn(model, ["prompt", "temperature", "top_k", "top_p", "seed", "steps"], () => draw(v));
}

export default { render };
