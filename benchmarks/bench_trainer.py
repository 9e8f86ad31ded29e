"""Time of "Train it yourself" (chapter 17) in Chromium: the chapter's default run, from the click on
Train to the last step drawn, and how long the page stays busy at a time while it trains.

Serves the built site (_build/html) on 127.0.0.1 with every other host blocked, opens
book/17_learning.html in Debian's Chromium (Playwright, headless) and, ``--runs`` times (default 5),
presses Train with the chapter's settings (1000 training and 1000 held-out sentences, d_model 16,
150 steps) and waits for the end. Per run it reports:

* the training time the page measured (``performance.now()`` from the click to the last step drawn);
* the longest main-thread task: the page trains in a Web Worker, and after each slice of training the
  page draws what it got; the longest of these drawing tasks is the longest the page could not answer;
* the input delay while it trains: keys typed (Playwright's keyboard, real input events) into the
  "ask" box during the run, from each event's timestamp to its handler.

Targets: the default run in at most 3 s, input answered within 50 ms. The figures are recorded in
docs/notes/TRAINER.md, not checked by a timed test. Run from the repository root after ``make site``:
``python -m benchmarks.bench_trainer [--runs N] [--out FILE] [--site DIR]``
(``--site``: another built site, e.g. a copy of an earlier build to compare).
"""

from __future__ import annotations

import statistics
import sys
from typing import Any

from benchmarks._common import training_main
from bookdev import trainer_driver as td

TARGET_S = 3.0
TARGET_INPUT_MS = 50.0


def _measure(run: dict[str, Any], lags: list[float]) -> tuple[dict[str, float], str]:
    row = {"s": run["ms"] / 1000, "slice_ms": max(run["sliceMs"]), "slices": len(run["sliceMs"]),
           "keys": len(lags), "lag_ms": max(lags) if lags else float("nan")}
    return row, (f"{row['s']:.2f} s, longest main-thread task {row['slice_ms']:.1f} ms, "
                 f"{len(lags)} keys typed, slowest answered after {row['lag_ms']:.1f} ms")


def _summary(rows: list[dict[str, float]], typing: bool) -> tuple[list[str], list[str], bool]:
    median = statistics.median(r["s"] for r in rows)
    worst_lag = max(r["lag_ms"] for r in rows)
    columns = ["runs", "median time of the default run", "slowest run", "longest main-thread task", "slowest key answered"]
    cells = [str(len(rows)), f"{median:.2f} s (target ≤ {TARGET_S:g} s)", f"{max(r['s'] for r in rows):.2f} s",
             f"{max(r['slice_ms'] for r in rows):.1f} ms", f"{worst_lag:.1f} ms (target ≤ {TARGET_INPUT_MS:g} ms)"]
    return columns, cells, median <= TARGET_S and (not typing or worst_lag <= TARGET_INPUT_MS)


def main() -> int:
    return training_main(__doc__, td, "a", _measure, _summary, runs=5, missing="run 'make site' first")


if __name__ == "__main__":
    sys.exit(main())
