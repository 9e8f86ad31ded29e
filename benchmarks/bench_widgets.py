"""Latency of the book's sliders: from a slider's input event to the redrawn numbers, in Chromium.

Serves the built site (_build/html) on 127.0.0.1 with every other host blocked, opens the
"Softmax", "Why divide by √dₖ" and "Worked example: 'it'" pages (the four sliders of the retired playground),
the rotary widget of "Positions", and the "Attention that learns" and "A model that writes" pages in Debian's Chromium (Playwright, headless), and for each widget moves one slider
through ``--inputs`` positions (default 200), each a different value. Per input, inside the page:

    t0 = performance.now(); input.value = …; input.dispatchEvent(new Event("input"));
    read the widget's numbers; force style and layout (offsetHeight); t1 = performance.now()

(for the "ask the trained model" box: a new sentence in the text box and an input event; for "write
with the model": a click on "next word", one more word written by the model in the page; for "continue
the text" of "Attention on real text": a click on "next character", one more character, and the
rows of its eight heads redrawn) so the
time covers the widget's JavaScript math, its DOM/SVG update and the browser's layout (not
the wait for the next paint, which is paced by the display). Prints median, 95th percentile and max
per widget and fails (exit 1) if a median exceeds the 16 ms target (one frame at 60 Hz). For the
widgets that write, it also prints the model's own time per token as the page records it (``ms`` of
the run: the choice and the model's step, or the context's latest half read afresh when it is full).

Run from the repository root, after ``make book``
``python -m benchmarks.bench_widgets`` (the server and browser come from ``bookdev.browser``, shared
with the browser tests).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from bookdev import widgets as wd
from bookdev.browser import SITE, BrowserMissing, chromium, chromium_executable, offline_page, serve

TARGET_MS = 16.0
# The slider each widget is timed on, and the range of positions it sweeps.
SLIDERS = {
    "SoftmaxSharpening": ("d_k", lambda s: (0, s["_limits"]["d_k"][2], 1)),
    "TemperatureSlider": ("temperature", lambda s: (0, s["_limits"]["temperature"][2], 1)),
    "DotProductSpread": ("dim", lambda s: (0, s["_limits"]["dim"][2], 1)),
    "GeometricAttention": ("query_x", lambda s: (s["_limits"]["query"][0], s["_limits"]["query"][1], s["_limits"]["query"][2])),
    "TrainingReplay": ("index", lambda s: (0, len(s["frames"]) - 1, 1)),
    "RotaryPositions": ("query_position", lambda s: (0, s["_limits"]["position"][1], 1)),
}
# Widgets driven by a text box: each input puts the next of these sentences in the box (one more word
# each time, then back), as a reader typing or clicking words does.
TEXT_BOXES = {"AskModel": ("sentence", ["we", "we sat", "we sat on", "we sat on the", "we sat on the bank",
                                         "we sat on the bank by", "we sat on the bank by the",
                                         "we sat on the bank by the river", "the bat", "the bat and the ball"])}
# Widgets driven by a button: each input is a click on it (a new word written); when it is disabled (the
# story ended), the second button starts again, untimed.
BUTTONS = {"WriteWithModel": ("next", "restart"), "ContinueText": ("next", "restart")}
PAGES = ["book/05_softmax.html", "book/06_scaling.html", "book/08_it_attends.html", "book/14_positions.html",
         "book/17_learning.html", "book/19_a_model_that_writes.html", "book/21_real_text.html"]
# The model's own milliseconds per token of the page's run (since "start again").
_MODEL_MS = {"WriteWithModel": "(root) => JSON.parse(root.dataset.result).ms", "ContinueText": "(root) => root.result().ms"}

_TIME_TEXT = """async ([root, name, sentences, n]) => {
  const el = eval(root);
  const input = el.querySelector(`input[data-name="${name}"]`);
  const outputs = [...el.querySelectorAll(".attnw-num, .attnw-barval, [data-name=message]")];
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    input.value = sentences[i % sentences.length];
    input.dispatchEvent(new Event("input", { bubbles: true }));
    let text = "";
    for (const o of outputs) if (o.isConnected) text += o.textContent;
    for (const o of el.querySelectorAll(".attnw-barval")) text += o.textContent;
    void el.offsetHeight; // style + layout of the redrawn widget
    times.push(performance.now() - t0);
    if (text.includes("NaN")) throw new Error(`NaN shown for ${input.value}`);
    if (i % 20 === 19) await new Promise((r) => requestAnimationFrame(() => r()));
  }
  return times;
}"""

# Also the model's own times of every token written (`msOf`: the page's ms of its run, read before each
# new run and at the end, the tokens the page had written before the first click left out).
_TIME_CLICKS = """async ([root, name, again, n, msOf]) => {
  const el = eval(root);
  const button = el.querySelector(`button[data-name="${name}"]`);
  const ms = eval(msOf), model = [];
  let before = ms(el).length;
  const times = [];
  for (let i = 0; i < n; i++) {
    if (button.disabled) {
      model.push(...ms(el).slice(before));
      before = 0;
      el.querySelector(`button[data-name="${again}"]`).click();
    }
    const t0 = performance.now();
    button.click();
    const text = el.textContent;
    void el.offsetHeight; // style + layout of the redrawn widget
    times.push(performance.now() - t0);
    if (text.includes("NaN")) throw new Error("NaN shown");
    if (i % 20 === 19) await new Promise((r) => requestAnimationFrame(() => r()));
  }
  model.push(...ms(el).slice(before));
  return { times, model };
}"""

# Sweep the slider back and forth over its range, `n` inputs, each to a new value; time each one.
_TIME_INPUTS = """async ([root, name, lo, hi, step, n]) => {
  const el = eval(root);
  const input = el.querySelector(`input[data-name="${name}"]`);
  const outputs = [...el.querySelectorAll(".attnw-num, td, .attnw-barval")];
  const count = Math.round((hi - lo) / step);
  const times = [];
  let k = Math.round((Number(input.value) - lo) / step), dir = 1;
  for (let i = 0; i < n; i++) {
    if (k + dir > count || k + dir < 0) dir = -dir;
    k += dir;
    const value = lo + k * step;
    const t0 = performance.now();
    input.value = String(value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    let text = "";
    for (const o of outputs) text += o.textContent;
    void el.offsetHeight; // style + layout of the redrawn widget
    times.push(performance.now() - t0);
    if (text.includes("NaN")) throw new Error(`NaN shown at ${name} = ${value}`);
    if (i % 20 === 19) await new Promise((r) => requestAnimationFrame(() => r())); // let frames paint
  }
  return times;
}"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=200, help="inputs per widget (default 200)")
    parser.add_argument("--page", action="append", help=f"page of the built site (repeatable; default {PAGES})")
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    args = parser.parse_args()

    pages = args.page or PAGES
    for name in pages:
        if not (SITE / name).is_file():
            print(f"no built page {SITE / name}: run 'make book' first", file=sys.stderr)
            return 2
    try:
        chromium_executable()
    except BrowserMissing as err:
        print(err, file=sys.stderr)
        return 2

    results = {}
    with serve(SITE) as url, chromium() as browser, offline_page(browser, url) as (page, log):
        done = set()
        for page_name in pages:
            page.goto(f"{url}/{page_name}", wait_until="networkidle")
            wd.wait_for_widgets(page)
            user_agent = page.evaluate("navigator.userAgent")
            for w in wd.find_widgets(page):
                if w.kind in done or w.kind not in SLIDERS | TEXT_BOXES | BUTTONS:
                    continue
                done.add(w.kind)
                page.evaluate(f"() => {w.root}.scrollIntoView({{ block: 'center' }})")
                model_ms = None
                if w.kind in BUTTONS:
                    name, again = BUTTONS[w.kind]
                    clicked = page.evaluate(_TIME_CLICKS, [w.root, name, again, args.inputs, _MODEL_MS[w.kind]])
                    times, model_ms = clicked["times"], sorted(clicked["model"])
                elif w.kind in TEXT_BOXES:
                    name, sentences = TEXT_BOXES[w.kind]
                    times = page.evaluate(_TIME_TEXT, [w.root, name, sentences, args.inputs])
                else:
                    name, bounds = SLIDERS[w.kind]
                    lo, hi, step = bounds(w.state)
                    times = page.evaluate(_TIME_INPUTS, [w.root, name, lo, hi, step, args.inputs])
                times.sort()
                results[w.kind] = {
                    "slider": name,
                    "inputs": len(times),
                    "median_ms": statistics.median(times),
                    "p95_ms": times[int(0.95 * (len(times) - 1))],
                    "max_ms": times[-1],
                }
                if model_ms:
                    results[w.kind] |= {"model_tokens": len(model_ms), "model_median_ms": statistics.median(model_ms),
                                        "model_max_ms": model_ms[-1]}
    external = log.external

    print(f"Slider latency: input event -> numbers redrawn and laid out ({args.inputs} inputs per widget)")
    print(f"browser: {user_agent}")
    print(f"{'widget':20s} {'slider':12s} {'median ms':>10s} {'p95 ms':>8s} {'max ms':>8s}  target median <= {TARGET_MS:g} ms")
    ok = True
    for kind, r in results.items():
        verdict = "ok" if r["median_ms"] <= TARGET_MS else "TOO SLOW"
        ok &= r["median_ms"] <= TARGET_MS
        print(f"{kind:20s} {r['slider']:12s} {r['median_ms']:10.3f} {r['p95_ms']:8.3f} {r['max_ms']:8.3f}  {verdict}")
        if "model_tokens" in r:
            print(f"{'':20s} {'the model':12s} {r['model_median_ms']:10.3f} {'':8s} {r['model_max_ms']:8.3f}  "
                  f"(its own time per token, {r['model_tokens']} tokens)")
    expected = set(SLIDERS) | set(TEXT_BOXES) | set(BUTTONS) if args.page is None else set(results)
    if set(results) != expected:
        print(f"missing widgets on {pages}: {sorted(expected - set(results))}", file=sys.stderr)
        ok = False
    if external:
        print(f"requests to other hosts (blocked): {external}", file=sys.stderr)
        ok = False
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"user_agent": user_agent, "target_ms": TARGET_MS, "results": results}, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
