// Training replay: scrub through the stored checkpoints of the trained "bank"/"bat" model. Every number
// shown was computed in Python (attnlib.companions.learning.replay_frame) and stored in the widget state, so the
// page shows exactly the checkpoints of the run; nothing is trained in the browser.
// Shared helpers (from _dom.js and _common.js): h, PALETTE, clamp, finiteIn, fmt, s, nextId, card, rangeControl, stat, labelledRects, redrawOn, save

// An n × n attention map: rows are queries, columns keys, each cell shaded by its weight and labelled
// in the card's ink (the shade follows the theme: widgets.css, .attnw-heat).
function attentionMap({ words, name, width = 330 }) {
  const n = words.length;
  const left = 64, top = 40;
  const cell = Math.min(34, (width - left - 4) / n);
  const height = top + n * cell + 4;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "attnw-chart", role: "img", "data-name": name });
  svg.append(s("title", { text: `attention map of: ${words.join(" ")} (rows attend to columns)` }));
  const shown = new Array(n * n).fill(null);
  for (let j = 0; j < n; j++) {
    const x = left + (j + 0.5) * cell;
    svg.append(s("text", { x, y: top - 6, class: "attnw-barlab", "text-anchor": "start", transform: `rotate(-40 ${x} ${top - 6})`, text: words[j] }));
  }
  for (let i = 0; i < n; i++) {
    svg.append(s("text", { x: left - 4, y: top + (i + 0.62) * cell, "text-anchor": "end", class: "attnw-barlab", text: words[i] }));
  }
  // cell k is row i = ⌊k / n⌋ (the query), column j = k mod n (the key)
  const { rects, texts } = labelledRects(svg, n * n, (k) => {
    const i = Math.floor(k / n), j = k % n;
    return [{ x: left + j * cell, y: top + i * cell, width: cell - 1, height: cell - 1, fill: PALETTE.blue, "fill-opacity": 0, class: "attnw-heat" },
      { x: left + (j + 0.5) * cell, y: top + (i + 0.64) * cell, "text-anchor": "middle", class: "attnw-barval", "data-name": `${name}-${i}-${j}` }];
  });
  return {
    el: svg,
    update(map) {
      // Only cells whose printed value changed are touched: fewer DOM writes, less style and layout work.
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const text = fmt(map[i][j], 2);
          if (shown[i * n + j] === text) continue;
          shown[i * n + j] = text;
          const w = Number.isFinite(map[i][j]) ? clamp(map[i][j], 0, 1) : 0;
          // the weight as printed; the page's shade of it (widgets.css) keeps the ink readable on the cell
          rects[i * n + j].setAttribute("fill-opacity", text === "–" ? "0" : text);
          rects[i * n + j].style.setProperty("--w", text === "–" ? "0" : String(w));
          texts[i * n + j].textContent = text;
        }
      }
    },
  };
}

// A line of the training loss over the steps, with a dot at the current checkpoint.
function lossLine({ steps, losses, name, width = 330, height = 90 }) {
  const pad = { l: 34, r: 8, t: 8, b: 18 };
  const maxStep = Math.max(1, steps[steps.length - 1]);
  const maxLoss = Math.max(1e-9, ...losses);
  const X = (v) => pad.l + (v / maxStep) * (width - pad.l - pad.r);
  const Y = (v) => pad.t + (1 - v / maxLoss) * (height - pad.t - pad.b);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "attnw-chart", role: "img", "data-name": name });
  svg.append(s("title", { text: "training loss at each checkpoint" }));
  svg.append(s("polyline", { points: steps.map((st, i) => `${X(st)},${Y(losses[i])}`).join(" "), fill: "none", stroke: PALETTE.blue, "stroke-width": 2 }));
  svg.append(s("text", { x: pad.l - 4, y: Y(maxLoss) + 8, "text-anchor": "end", class: "attnw-barlab", text: fmt(maxLoss, 1) }));
  svg.append(s("text", { x: pad.l - 4, y: Y(0), "text-anchor": "end", class: "attnw-barlab", text: "0" }));
  svg.append(s("text", { x: width - pad.r, y: height - 4, "text-anchor": "end", class: "attnw-barlab", text: `step ${maxStep}` }));
  const dot = s("circle", { r: 5, fill: PALETTE.red });
  svg.append(dot);
  return { el: svg, update(i) { dot.setAttribute("cx", String(X(steps[i]))); dot.setAttribute("cy", String(Y(losses[i]))); } };
}

// The checkpoint slider and the sentence menu.
function buildControls(v) {
  const { frames, last } = v;
  v.slider = rangeControl({
    label: "checkpoint", name: "index", min: 0, max: last, value: v.currentIndex(),
    format: (p) => `step ${frames[clamp(Number(p) | 0, 0, last)].step}`,
  });
  const selId = nextId("sentence");
  v.select = h("select", { id: selId, "data-name": "sentence" });
  v.sentences.forEach((words, i) => v.select.append(h("option", { value: String(i), text: words.join(" ") })));
  v.select.value = String(v.currentSentence());
  const selRow = h("div", { class: "attnw-control" }, [h("label", { for: selId, class: "attnw-label", text: "sentence" }), v.select]);
  v.root.append(h("div", { class: "attnw-controls" }, [v.slider.row, selRow]));
}

// The checkpoint's statistics, the predicted sense, and the panels (attention map, loss line).
function buildOutput(v) {
  const { root, frames } = v;
  Object.assign(v, {
    step: stat("step", "step"), loss: stat("training loss", "loss"), acc: stat("held-out accuracy", "accuracy"),
    cue: stat("held-out weight on cue", "attention-to-cue"),
    sense: h("span", { class: "attnw-num", "data-name": "sense", text: "–" }), prob: stat("p", "probability"),
  });
  root.append(h("div", { class: "attnw-stats" }, [v.step.el, v.loss.el, v.acc.el, v.cue.el]));
  root.append(h("p", { class: "attnw-desc", role: "status" }, [h("span", { text: "predicted sense: " }), v.sense, " ", v.prob.el]));
  v.line = lossLine({ steps: frames.map((f) => f.step), losses: frames.map((f) => f.loss), name: "loss-line" });
  v.mapHolder = h("div");
  root.append(h("div", { class: "attnw-panels" }, [
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "attention map of the sentence" }), v.mapHolder]),
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "training loss" }), v.line.el]),
  ]));
}

// The checkpoint's numbers: its step, loss, accuracy, weight on the cue, and the sense it predicts for sentence k.
function showNumbers(v, f, k) {
  v.step.set(f.step, 0);
  v.loss.set(f.loss, 4);
  v.acc.set(f.test_accuracy, 3);
  v.cue.set(f.test_attention_to_cue, 3);
  const p = f.probs[k];
  let best = 0;
  for (let c = 1; c < p.length; c++) if (p[c] > p[best]) best = c;
  v.sense.textContent = v.senses[best];
  v.prob.set(p[best], 3);
}

// Redraw for the synced checkpoint and sentence (a new map when the sentence changes).
function draw(v) {
  const i = v.currentIndex();
  const k = v.currentSentence();
  const f = v.frames[i];
  if (v.mapFor !== k) {
    v.map = attentionMap({ words: v.sentences[k], name: "map" });
    v.mapHolder.replaceChildren(v.map.el);
    v.mapFor = k;
  }
  v.map.update(f.maps[k]);
  v.line.update(i);
  showNumbers(v, f, k);
  if (Number(v.slider.input.value) !== i) v.slider.input.value = String(i);
  v.slider.show(i);
  if (v.select.value !== String(k)) v.select.value = String(k);
  v.root.dataset.index = String(i);
}

function render({ model, el }) {
  const frames = model.get("frames");
  const sentences = model.get("sentences");
  const last = frames.length - 1;
  // the view: the synced checkpoints, the card, its parts, and the map with the sentence it is drawn for
  const v = {
    frames, sentences, last, senses: model.get("senses"), map: null, mapFor: -1,
    currentIndex: () => finiteIn(model.get("index"), 0, last, last) | 0,
    currentSentence: () => finiteIn(model.get("sentence"), 0, sentences.length - 1, 0) | 0,
    root: card(
      "Replay the training",
      "Move the slider through the stored checkpoints of the trained model. The map shows where each word looks; the row of the ambiguous word decides its sense.",
    ),
  };
  buildControls(v);
  buildOutput(v);
  v.root.classList.add("attnw-learned");
  el.append(v.root);

  v.slider.input.addEventListener("input", () => save(model, { index: Number(v.slider.input.value) | 0 }));
  v.select.addEventListener("change", () => save(model, { sentence: Number(v.select.value) | 0 }));
  draw(v);
  return redrawOn(model, ["index", "sentence"], () => draw(v));
}

export default { render };
