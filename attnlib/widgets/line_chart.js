// lineChart: a line chart of series against the step, shared by "Train it yourself" (trainer.js) and "Watch an
// induction head form" (induction.js): trainer.py and induction.py put this file before their own module.
// Shared helpers (from _dom.js and _common.js): PALETTE, clamp, fmt, s

// A line chart of series against the step (chapters 17 and 20): a polyline per series, in the colours of
// `colors` (every other one dashed), with the top value, step 0 and the last step marked.
function lineChart({ title, name, width = 320, height = 160, ymax = null, colors = [PALETTE.blue, PALETTE.red] }) {
  const pad = { l: 34, r: 8, t: 10, b: 24 };
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "attnw-chart", role: "img", "data-name": name });
  const desc = s("title", { text: title });
  const plotW = width - pad.l - pad.r, plotH = height - pad.t - pad.b;
  svg.append(desc, s("line", { x1: pad.l, x2: pad.l + plotW, y1: pad.t + plotH, y2: pad.t + plotH, stroke: PALETTE.ink }),
    s("line", { x1: pad.l, x2: pad.l, y1: pad.t, y2: pad.t + plotH, stroke: PALETTE.ink }));
  const top = s("text", { x: pad.l - 3, y: pad.t + 8, "text-anchor": "end", class: "attnw-barlab" });
  const zero = s("text", { x: pad.l - 3, y: pad.t + plotH, "text-anchor": "end", class: "attnw-barlab", text: "0" });
  const right = s("text", { x: pad.l + plotW, y: height - 6, "text-anchor": "end", class: "attnw-barlab" });
  // the first series is classed attnw-series: the curve whose colour a reader's theme is checked on
  const lines = colors.map((stroke, k) => s("polyline", { fill: "none", stroke, "stroke-width": 2, ...(k % 2 ? { "stroke-dasharray": "5 3" } : {}), ...(k ? {} : { class: "attnw-series" }) }));
  svg.append(top, zero, right, s("text", { x: pad.l, y: height - 6, class: "attnw-barlab", text: "step 0" }), ...lines);
  return {
    el: svg,
    update(series, steps) {
      const hi = ymax !== null ? ymax : Math.max(1e-9, ...series.flatMap((x) => x.values.filter(Number.isFinite)));
      top.textContent = fmt(hi, 2);
      right.textContent = `step ${steps}`;
      series.forEach((x, k) => {
        lines[k].setAttribute("points", x.values.map((v, i) => `${(pad.l + (plotW * i) / Math.max(steps, 1)).toFixed(1)},${(pad.t + plotH - (plotH * clamp(v, 0, hi)) / hi).toFixed(1)}`).join(" "));
      });
      const last = series.map((x) => `${x.label} ${x.values.length ? fmt(x.values[x.values.length - 1], 3) : "–"}`).join(", ");
      desc.textContent = `${title}, ${series[0].values.length ? series[0].values.length - 1 : 0} of ${steps} steps: ${last}`;
    },
  };
}

// Re-run `draw` whenever one of the model's `names` changes (from the kernel or another view);
// returns the cleanup function anywidget calls when the view is removed.
