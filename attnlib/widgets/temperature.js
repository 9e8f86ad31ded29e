// Temperature: softmax(scores / T). Low T sharpens towards the largest score, high T flattens towards
// uniform. Python reference: slider_math.temperature_numbers.
// Shared helpers (from _dom.js and _common.js): h, PALETTE, finiteIn, logValue, logPosition, softmax, entropy, maxOf, fmt, card, rangeControl, stat, barChart, redrawOn, save

function render({ model, el }) {
  const [lo, hi, steps] = model.get("_limits").temperature;
  const scores = Float64Array.from(model.get("scores"), (x) => (Number.isFinite(x) ? x : 0));
  const labels = model.get("labels");
  const currentT = () => finiteIn(model.get("temperature"), lo, hi, 1);

  const root = card(
    "Temperature",
    "Move T: softmax(scores / T). A low temperature sharpens the weights towards the largest score, a high one flattens them towards uniform.",
  );
  const slider = rangeControl({
    label: "temperature T", name: "temperature", min: 0, max: steps, value: logPosition(currentT(), lo, hi, steps),
    format: (p) => `T = ${fmt(logValue(p, lo, hi, steps), 3)}`,
  });
  root.append(h("div", { class: "attnw-controls" }, [slider.row]));
  const scoreText = Array.from(scores, (x, i) => `${labels[i]} = ${fmt(x, 3)}`).join(", ");
  root.append(h("p", { class: "attnw-desc", text: `scores: ${scoreText}` }));
  const chart = barChart({ labels, title: "softmax(scores / T)", color: PALETTE.blue, name: "weights-bars" });
  const tShown = stat("T =", "temperature-value");
  const mx = stat("max weight", "max");
  const ent = stat("entropy (nats)", "entropy");
  root.append(h("figure", { class: "attnw-panel" }, [
    h("figcaption", { text: "softmax(scores / T)" }), chart.el, h("div", { class: "attnw-stats" }, [tShown.el, mx.el, ent.el]),
  ]));
  el.append(root);

  function draw() {
    const t = currentT();
    const w = softmax(scores, t);
    chart.update(w);
    tShown.set(t, 3);
    mx.set(maxOf(w));
    ent.set(entropy(w));
    const p = logPosition(t, lo, hi, steps);
    if (Math.abs(logValue(Number(slider.input.value), lo, hi, steps) - t) > 1e-12) slider.input.value = String(p);
    slider.show(Number(slider.input.value));
    root.dataset.temperature = String(t);
  }

  slider.input.addEventListener("input", () => save(model, { temperature: logValue(Number(slider.input.value), lo, hi, steps) }));
  draw();
  return redrawOn(model, ["temperature"], draw);
}

export default { render };
