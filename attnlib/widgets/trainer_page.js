// The page side of a run that the two training widgets share, "Train it yourself" (trainer.js) and "Watch an
// induction head form" (induction.js): the loop their Web Worker runs, the worker made from the module's own
// text, the page's own slices where no worker may start, the message and the state of the card, and the
// buttons Train, Stop, Continue and Reset. Each widget's file gives what is its own (how to make, step, draw,
// finish and report a run); trainer.py and induction.py put this file in front of it.
// Shared helpers (from _dom.js and _common.js): none

const RUN_SLICE_MS = 12; // without a worker: train for at most about this long, then let the page draw and answer input

// The worker's loop, sent into the worker as its own source text (String(trainInSlices)) with the core it
// trains: on "start", create(message) makes the run; it trains in slices of sliceMs, step(t) a step at a time
// until it returns false or Stop is asked, and after each slice send(t, final) posts the page what is new
// (final: the run stopped or ended); "stop" and "continue" pause and resume; an error is posted as { error }.
// Between slices it yields through a MessageChannel, not setTimeout(0), which a worker clamps to 4 ms or more
// once the calls nest: the worker's messages (Stop) are answered between slices either way.
function trainInSlices(sliceMs, create, step, send) {
  let t = null, stopAsked = false;
  const next = new MessageChannel();
  next.port1.onmessage = () => slice();
  function slice() {
    const until = performance.now() + sliceMs;
    let more = true;
    try { while (more && !stopAsked && performance.now() < until) more = step(t); }
    catch (err) { postMessage({ error: err.message }); return; }
    if (!more || stopAsked) { send(t, true); return; }
    send(t, false);
    next.port2.postMessage(null);
  }
  onmessage = (e) => {
    const m = e.data;
    if (m.type === "start") {
      try { t = create(m); } catch (err) { postMessage({ error: err.message }); return; }
      stopAsked = false;
      slice();
    } else if (m.type === "stop") stopAsked = true;
    else if (m.type === "continue") { stopAsked = false; slice(); }
  };
}

// A maker of workers from these source texts (one Blob URL, made at the first call: nothing is fetched);
// each call gives a new worker, or null where the page may not start one (then the page trains in slices itself).
function workerMaker(parts) {
  let url = null;
  return () => {
    try {
      if (!url) url = URL.createObjectURL(new Blob(parts, { type: "text/javascript" }));
      return new Worker(url);
    } catch (err) {
      return null;
    }
  };
}

// The card's state (idle, training, stopped, done, diverged, error) and the buttons and ask box it allows.
function setState(v, name) {
  v.root.dataset.state = name;
  v.stop.disabled = name !== "training";
  v.cont.disabled = name !== "stopped";
  v.ask.input.disabled = !v.trainer || v.trainer.losses.length === 0;
}

// A message under the buttons: a problem (orange bar) or, with `note`, a plain report (blue bar).
function say(v, text, note = false) {
  v.message.textContent = text;
  v.message.hidden = !text;
  v.message.classList.toggle("attnw-note", note);
}

// Without a worker: train for one slice of the page's time with run.step, draw (run.draw(v, going): going is
// false on the last slice, which run.finish draws), and go on after the page's other tasks.
function sliceRun(v, run) {
  if (!v.running) return;
  const begin = performance.now(), until = begin + RUN_SLICE_MS;
  let more = true;
  try {
    while (more && !v.stopAsked && performance.now() < until) more = run.step(v.trainer);
  } catch (err) { say(v, `Training failed: ${err.message}`); v.running = false; setState(v, "error"); return; }
  run.draw(v, more && !v.stopAsked);
  v.trainer.sliceMs.push(performance.now() - begin); // how long the page was busy, drawing included
  if (!more || v.stopAsked) { run.finish(v); return; }
  setTimeout(() => sliceRun(v, run), 0);
}

// The new run v.trainer trained by a new worker (run.worker() makes it; its reports go to run.report(v, m);
// `start` is the message that starts it), or in slices by the page where no worker may start.
function trainInWorker(v, run, start) {
  if (v.worker) v.worker.terminate();
  v.worker = run.worker();
  if (!v.worker) { setTimeout(() => sliceRun(v, run), 0); return; }
  v.trainer.worker = true;
  const mine = v.worker;
  v.worker.onmessage = (e) => { if (v.worker === mine) run.report(v, e.data); };
  v.worker.onerror = (e) => { if (v.worker !== mine) return; e.preventDefault(); v.worker.terminate(); v.worker = null; v.running = false; say(v, `Training failed: ${e.message}`); setState(v, "error"); };
  v.worker.postMessage(start);
}

// The buttons: Train starts a run (run.start) unless one is running, Stop asks the run to stop, Continue
// resumes a stopped run (in its worker or in the page's slices), Reset calls run.reset.
function wireRunButtons(v, run) {
  v.train.addEventListener("click", () => { if (!v.running) run.start(v); });
  v.stop.addEventListener("click", () => { v.stopAsked = true; if (v.worker) v.worker.postMessage({ type: "stop" }); });
  v.cont.addEventListener("click", () => {
    if (!v.trainer || v.running || v.trainer.stopped) return;
    v.stopAsked = false; v.running = true; say(v, ""); setState(v, "training");
    if (v.worker) v.worker.postMessage({ type: "continue" });
    else setTimeout(() => sliceRun(v, run), 0);
  });
  v.reset.addEventListener("click", () => run.reset(v));
}
