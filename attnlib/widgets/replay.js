// Training replay: scrub through the stored checkpoints of the trained "bank"/"bat" model. Every number
// shown was computed in Python (attnlib.learning.replay_frame) and stored in the widget state, so the
// page shows exactly the checkpoints of the run; nothing is trained in the browser.

// An n × n attention map: rows are queries, columns keys, each cell shaded by its weight and labelled.
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
    return [{ x: left + j * cell, y: top + i * cell, width: cell - 1, height: cell - 1, fill: PALETTE.blue, "fill-opacity": 0 },
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
          rects[i * n + j].setAttribute("fill-opacity", text === "–" ? "0" : text);
          const t = texts[i * n + j];
          t.textContent = text;
          t.setAttribute("fill", w > 0.5 ? "#ffffff" : PALETTE.ink);
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

function render({ model, el }) {
  const frames = model.get("frames");
  const sentences = model.get("sentences");
  const senses = model.get("senses");
  const last = frames.length - 1;
  const currentIndex = () => finiteIn(model.get("index"), 0, last, last) | 0;
  const currentSentence = () => finiteIn(model.get("sentence"), 0, sentences.length - 1, 0) | 0;

  const root = card(
    "Replay the training",
    "Move the slider through the stored checkpoints of the trained model. The map shows where each word looks; the row of the ambiguous word decides its sense.",
  );
  const slider = rangeControl({
    label: "checkpoint", name: "index", min: 0, max: last, value: currentIndex(),
    format: (p) => `step ${frames[clamp(Number(p) | 0, 0, last)].step}`,
  });
  const selId = nextId("sentence");
  const select = h("select", { id: selId, "data-name": "sentence" });
  sentences.forEach((words, i) => select.append(h("option", { value: String(i), text: words.join(" ") })));
  select.value = String(currentSentence());
  const selRow = h("div", { class: "attnw-control" }, [h("label", { for: selId, class: "attnw-label", text: "sentence" }), select]);
  root.append(h("div", { class: "attnw-controls" }, [slider.row, selRow]));

  const step = stat("step", "step");
  const loss = stat("training loss", "loss");
  const acc = stat("held-out accuracy", "accuracy");
  const cue = stat("held-out weight on cue", "attention-to-cue");
  const sense = h("span", { class: "attnw-num", "data-name": "sense", text: "–" });
  const prob = stat("p", "probability");
  root.append(h("div", { class: "attnw-stats" }, [step.el, loss.el, acc.el, cue.el]));
  root.append(h("p", { class: "attnw-desc", role: "status" }, [h("span", { text: "predicted sense: " }), sense, " ", prob.el]));
  const line = lossLine({ steps: frames.map((f) => f.step), losses: frames.map((f) => f.loss), name: "loss-line" });
  const mapHolder = h("div");
  root.append(h("div", { class: "attnw-panels" }, [
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "attention map of the sentence" }), mapHolder]),
    h("figure", { class: "attnw-panel" }, [h("figcaption", { text: "training loss" }), line.el]),
  ]));
  root.classList.add("attnw-learned");
  el.append(root);

  let map = null, mapFor = -1;
  function draw() {
    const i = currentIndex();
    const k = currentSentence();
    const f = frames[i];
    if (mapFor !== k) {
      map = attentionMap({ words: sentences[k], name: "map" });
      mapHolder.replaceChildren(map.el);
      mapFor = k;
    }
    map.update(f.maps[k]);
    line.update(i);
    step.set(f.step, 0);
    loss.set(f.loss, 4);
    acc.set(f.test_accuracy, 3);
    cue.set(f.test_attention_to_cue, 3);
    const p = f.probs[k];
    let best = 0;
    for (let c = 1; c < p.length; c++) if (p[c] > p[best]) best = c;
    sense.textContent = senses[best];
    prob.set(p[best], 3);
    if (Number(slider.input.value) !== i) slider.input.value = String(i);
    slider.show(i);
    if (select.value !== String(k)) select.value = String(k);
    root.dataset.index = String(i);
  }

  slider.input.addEventListener("input", () => save(model, { index: Number(slider.input.value) | 0 }));
  select.addEventListener("change", () => save(model, { sentence: Number(select.value) | 0 }));
  draw();
  return redrawOn(model, ["index", "sentence"], draw);
}

export default { render };
