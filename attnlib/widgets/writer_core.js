// The trained language model in the page, shared by "Write with the model" (writer.js, chapter 19) and
// "Continue the text" (continue_text.js, chapter 21): its stored float32 weights read into float64, one
// token at a time through a KV cache per block (attnlib.transformer.TinyLM.step), with rotary positions
// where the model has them (attnlib.positions.rope_unchecked); when its context is full, a model that slides
// keeps its latest m.keep tokens and reads them afresh. `candidates` and `choose` follow attnlib.companions.sampler line for line; the
// random numbers are mulberry32's (uniformAt in _common.js is attnlib.companions.sampler.Mulberry32). Then
// the parts of the view both widgets share: the rule and seed controls, the table of the most likely tokens,
// the run written up to the synced number of tokens, and the message that replaces it.
// Shared helpers (from _dom.js and _common.js): h, requireSeed, pyRepr, quotedWord, uniformAt, clamp, softmax, fmt, nextId, rangeControl, save

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

// --- the model (attnlib.transformer.TinyLM.step, one token at a time) -------------------------------
// y = W x + b for torch's Linear: W is (out, in), row-major. Four running sums (a sum's order is free:
// torch's own kernels choose theirs), so that each addition need not wait for the one before.
function linear(x, W, b) {
  const nIn = x.length, nOut = b.length, end = nIn - (nIn % 4);
  const y = new Float64Array(nOut);
  for (let o = 0; o < nOut; o++) {
    const row = o * nIn;
    let t0 = 0, t1 = 0, t2 = 0, t3 = 0;
    for (let i = 0; i < end; i += 4) {
      t0 += W[row + i] * x[i];
      t1 += W[row + i + 1] * x[i + 1];
      t2 += W[row + i + 2] * x[i + 2];
      t3 += W[row + i + 3] * x[i + 3];
    }
    for (let i = end; i < nIn; i++) t0 += W[row + i] * x[i];
    y[o] = b[o] + ((t0 + t1) + (t2 + t3));
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

// The cosines and sines of rotary positions (attnlib.positions.rope_unchecked, base 10000): pair i of a
// head at position p turns by p · 10000^(-2i/d_k), computed in float64; (context · d_k/2) each.
function ropeTables(context, dk) {
  const half = dk / 2, cos = new Float64Array(context * half), sin = new Float64Array(context * half);
  for (let i = 0; i < half; i++) {
    const theta = Math.pow(10000, -(2 * i) / dk);
    for (let p = 0; p < context; p++) {
      cos[p * half + i] = Math.cos(p * theta);
      sin[p * half + i] = Math.sin(p * theta);
    }
  }
  return { cos, sin };
}

// x (one token's queries or keys, heads side by side) with every head's interleaved pairs (2i, 2i + 1) turned
// to `position`, in place.
function rotate(m, x, position) {
  const dk = m.d_model / m.num_heads, half = dk / 2, at = position * half;
  for (let a = 0; a < m.num_heads; a++) {
    for (let i = 0; i < half; i++) {
      const j = a * dk + 2 * i, cs = m.rope.cos[at + i], sn = m.rope.sin[at + i];
      const x0 = x[j], x1 = x[j + 1];
      x[j] = x0 * cs - x1 * sn;
      x[j + 1] = x0 * sn + x1 * cs;
    }
  }
  return x;
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
  const rope = config.rope ? ropeTables(config.context, config.d_model / config.num_heads) : null;
  return { ...config, embed: w["embed.weight"], pos: w["pos.weight"], rope, norm: [w["norm.weight"], w["norm.bias"]], blocks };
}

// One token through the model: its key and value join each block's cache (caches[l].keys/values), turned
// to `position` with rotary positions; returns the logits of the next token and every head's attention
// row over the cache, per block. `keysOnly`: a token whose logits nobody reads (one read afresh before the
// last): the last block only caches its key and value, and nothing is returned.
function step(m, caches, id, position, keysOnly = false) {
  const d = m.d_model, heads = m.num_heads, dk = d / heads, scale = 1 / Math.sqrt(dk);
  let x = new Float64Array(d);
  for (let c = 0; c < d; c++) x[c] = m.rope ? m.embed[id * d + c] : m.embed[id * d + c] + m.pos[position * d + c];
  const rows = [];
  for (let l = 0; l < m.blocks.length; l++) {
    const b = m.blocks[l], cache = caches[l];
    const normed = layerNorm(x, ...b.norm1);
    const key = linear(normed, ...b.k);
    cache.keys.push(m.rope ? rotate(m, key, position) : key);
    cache.values.push(linear(normed, ...b.v));
    if (keysOnly && l === m.blocks.length - 1) return null;
    const q = m.rope ? rotate(m, linear(normed, ...b.q), position) : linear(normed, ...b.q);
    const n = cache.keys.length;
    const concat = new Float64Array(d);
    const blockRows = [];
    for (let a = 0; a < heads; a++) {
      const off = a * dk;
      const scores = new Float64Array(n);
      for (let j = 0; j < n; j++) {
        let t = 0;
        const k = cache.keys[j];
        for (let c = 0; c < dk; c++) t += q[off + c] * k[off + c];
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
  }
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

// --- writing ------------------------------------------------------------------------------------------
// `ids` read afresh, at positions 0, 1, ...: new caches, and the last token's logits and attention rows.
function readAfresh(m, ids) {
  const caches = m.blocks.map(() => ({ keys: [], values: [] }));
  const n = ids.length;
  for (let i = 0; i < n - 1; i++) step(m, caches, ids[i], i, true);
  return { caches, last: step(m, caches, ids[n - 1], n - 1) };
}

// A run: the prompt through the caches, then one token per call of `more` (attnlib.generate).
function startRun(m, ids, rule, seed) {
  const { caches, last } = readAfresh(m, ids);
  return { ids: ids.slice(), prompt: ids.length, caches, last, rule, seed, new: [], steps: [], ended: false };
}

// One new token, chosen from the last logits (read from the `read` tokens in the caches); then the logits
// after it: one step more through the caches while the context has room; once it is full, a model that
// slides (m.keep > 0) keeps its latest m.keep tokens and reads them afresh, and one that does not ends
// there. A model with an end token also ends at it.
function more(m, run) {
  const t0 = performance.now();
  const { logits, rows } = run.last;
  const k = run.new.length, read = run.caches[0].keys.length;
  const choice = choose(logits, run.rule, run.rule.greedy ? null : uniformAt(run.seed, k));
  const cand = candidates(logits, run.rule);
  run.ids.push(choice);
  run.new.push(choice);
  run.ended = choice === m.endId || (!m.keep && run.ids.length >= m.context);
  if (!run.ended && read < m.context) run.last = step(m, run.caches, choice, read);
  else if (!run.ended) ({ caches: run.caches, last: run.last } = readAfresh(m, run.ids.slice(-m.keep)));
  run.steps.push({ logits, order: cand.order, probs: cand.probs, rows, choice, read, ms: performance.now() - t0 });
}

// The run of the synced prompt, rule and seed, written up to the asked number of tokens (a new run when
// any of them changed, or fewer tokens are asked); an Error when a token cannot be chosen.
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

// --- the view both widgets share ------------------------------------------------------------------------
// The rule (temperature, top-k, top-p) with the note on why top-k and top-p are off at greedy, and the
// seed box with its note. `noun` is what the model writes ("word", "character").
function buildRule(root, m, noun) {
  const temperature = rangeControl({
    label: "temperature", name: "temperature", min: 0, max: Math.round(10 * 3), value: 0,
    format: (p) => (p === 0 ? "greedy" : `T = ${(p / 10).toFixed(1)}`),
  });
  const topK = rangeControl({
    label: "top-k", name: "top_k", min: 1, max: m.vocab_size, value: m.vocab_size,
    format: (p) => (p >= m.vocab_size ? `every ${noun}` : `k = ${p}`),
  });
  const topP = rangeControl({
    label: "top-p", name: "top_p", min: 1, max: 20, value: 20,
    format: (p) => (p >= 20 ? `every ${noun}` : `p = ${(p / 20).toFixed(2)}`),
  });
  const seedId = nextId("seed");
  const seed = h("input", { type: "text", inputmode: "numeric", id: seedId, "data-name": "seed", class: "attnw-number", autocomplete: "off", spellcheck: "false" });
  const seedNote = h("span", { class: "attnw-note", role: "status", "aria-live": "polite", "data-name": "seed-note" });
  const seedRow = h("div", { class: "attnw-control" }, [h("label", { for: seedId, class: "attnw-label", text: "seed" }), seed, seedNote]);
  const ruleNote = h("p", { class: "attnw-hint attnw-rule-note", id: nextId("rule-note"), "data-name": "rule-note",
    text: `top-k and top-p are off at temperature 0: greedy always takes the most likely ${noun}. Raise the temperature to sample, and they choose which ${noun}s it samples from.` });
  for (const c of [topK, topP]) c.input.setAttribute("aria-describedby", ruleNote.id);
  root.append(h("div", { class: "attnw-controls" }, [temperature.row, topK.row, topP.row, ruleNote, seedRow]));
  return { temperature, topK, topP, ruleNote, seed, seedNote };
}

// The output both widgets share: the message (a bad prompt, a token that cannot be chosen), the newest token
// for screen readers, and what shows one new token, `looking`: the "look at" slider, the cache line and two
// panels, the five most likely tokens (caption and table) and the widget's own `panel` (a figure). `noun`
// names a token ("word", "character"); each widget puts its story between the message and `said`.
function outputParts(noun, panel) {
  const message = h("p", { class: "attnw-message", role: "status", "aria-live": "polite", "data-name": "message" });
  const said = h("p", { class: "attnw-sr", role: "status", "aria-live": "polite", "data-name": "said" });
  const shown = rangeControl({ label: `look at ${noun}`, name: "shown", min: 1, max: 1, value: 1, format: (p) => `${p}` });
  const cacheLine = h("p", { class: "attnw-desc", "data-name": "cache" });
  const topCaption = h("figcaption");
  const topTable = h("table", { class: "attnw-table attnw-top", "data-name": "top" });
  const panels = h("div", { class: "attnw-panels" }, [h("figure", { class: "attnw-panel" }, [topCaption, topTable]), panel]);
  const looking = h("div", {}, [shown.row, cacheLine, panels]);
  return { message, said, shown, cacheLine, topCaption, topTable, looking };
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

// The controls show the synced state; the buttons that write are off once the text has ended.
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

// The table of the five most likely tokens for new token k (record r), the chosen one marked; v.label
// writes a token for the reader, v.noun names it.
function showTopWords(v, r, k) {
  const chosen = v.label(r.choice), noun = v.noun;
  v.topCaption.textContent = v.run.rule.greedy
    ? `${noun} ${k + 1}, '${chosen}': the model's five most likely ${noun}s (greedy takes the first)`
    : `${noun} ${k + 1}, '${chosen}': the five most likely ${noun}s your rule draws from`;
  const rows = [h("tr", {}, [h("th", { scope: "col", text: noun }), h("th", { scope: "col", text: "probability" })])];
  for (let j = 0; j < Math.min(5, r.order.length); j++) {
    const p = r.probs[j];
    const bar = h("span", { class: "attnw-bar" });
    bar.style.width = `${(100 * p).toFixed(1)}%`;
    rows.push(h("tr", { class: r.order[j] === r.choice ? "attnw-chosen" : "" }, [
      h("th", { scope: "row", "data-name": `top-${j}-word`, text: v.label(r.order[j]) }),
      h("td", {}, [h("span", { class: "attnw-barbox" }, [bar]), h("span", { class: "attnw-num", "data-name": `top-${j}-prob`, text: fmt(p, 3) })]),
    ]));
  }
  v.topTable.replaceChildren(...rows);
}

// A message instead of the text: a bad prompt, or a token that cannot be chosen (never a silent pick).
function refuse(v, error) {
  v.message.textContent = error;
  v.message.hidden = false;
  v.story.hidden = true;
  v.looking.hidden = true;
  showControls(v, { done: true });
  v.root.dataset.result = JSON.stringify({ error });
}

// The text shown instead of the message, and the run of the synced state written on (advanceRun): true; or,
// where a token cannot be chosen, no run and `stop` called with the reason: false.
function writeOn(v, enc, stop) {
  v.message.hidden = true;
  v.story.hidden = false;
  try {
    advanceRun(v, enc);
    return true;
  } catch (err) {
    v.run = null;
    stop(err.message);
    return false;
  }
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

// The rule's sliders and the seed box write the synced state.
function wireRule(v) {
  const { model, temperature, topK, topP } = v;
  temperature.input.addEventListener("input", () => save(model, { temperature: Number(temperature.input.value) / 10 }));
  topK.input.addEventListener("input", () => save(model, { top_k: Number(topK.input.value) }));
  topP.input.addEventListener("input", () => save(model, { top_p: Number(topP.input.value) / 20 }));
  v.seed.addEventListener("change", () => takeSeed(v));
}
