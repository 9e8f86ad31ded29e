"""Time of "Watch an induction head form" (chapter 20) in Chromium: the chapter's default run, from the click
on Train to the induction head (a second-layer head's prefix-matching score above 0.4, as the page's worker
reports it) and to the last step drawn, and how long the page stays busy at a time while it trains.

Serves the built site (_build/html) on 127.0.0.1 with every other host blocked, opens
book/20_induction_heads.html in Debian's Chromium (Playwright, headless) and, ``--runs`` times (default 3),
presses Train with the chapter's settings (2 layers of 2 heads, d_model 32, batch 32, 500 steps) and waits for
the end, typing into the "your tokens" box meanwhile. Per run it reports the time to the phase change, the
time of the whole run, the longest main-thread task and the slowest key answered.

Targets: the phase change within 10 s, the run within 30 s, input answered within 50 ms. The figures are
recorded in docs/notes/INDUCTION.md, not checked by a timed test. Run from the repository root after the site
is built: ``python -m benchmarks.bench_induction [--runs N] [--out FILE] [--site DIR]``
(``--site``: another built site, e.g. a copy of an earlier build to compare).
"""

from __future__ import annotations

import math
import statistics
import sys
from typing import Any

from benchmarks._common import training_main
from bookdev import induction_driver as idr

TARGET_CROSS_S, TARGET_S, TARGET_INPUT_MS = 10.0, 30.0, 50.0


def _measure(run: dict[str, Any], lags: list[float]) -> tuple[dict[str, float], str]:
    row = {"cross_s": run["crossedMs"] / 1000 if run["crossedMs"] is not None else math.nan, "s": run["ms"] / 1000,
           "slice_ms": max(run["sliceMs"]), "lag_ms": max(lags) if lags else math.nan}
    return row, (f"induction head after {row['cross_s']:.2f} s, done after {row['s']:.2f} s, "
                 f"longest main-thread task {row['slice_ms']:.1f} ms, slowest key {row['lag_ms']:.1f} ms")


def _summary(rows: list[dict[str, float]], typing: bool) -> tuple[list[str], list[str], bool]:
    cross, whole = statistics.median(r["cross_s"] for r in rows), statistics.median(r["s"] for r in rows)
    worst_lag = max(r["lag_ms"] for r in rows)
    columns = ["runs", "median time to the induction head", "median time of the default run", "longest main-thread task",
               "slowest key answered"]
    cells = [str(len(rows)), f"{cross:.2f} s (target ≤ {TARGET_CROSS_S:g} s)", f"{whole:.2f} s (target ≤ {TARGET_S:g} s)",
             f"{max(r['slice_ms'] for r in rows):.1f} ms", f"{worst_lag:.1f} ms (target ≤ {TARGET_INPUT_MS:g} ms)"]
    return columns, cells, cross <= TARGET_CROSS_S and whole <= TARGET_S and (not typing or worst_lag <= TARGET_INPUT_MS)


def main() -> int:
    return training_main(__doc__, idr, "1", _measure, _summary, runs=3, missing="build the site first", timeout_ms=120_000)


if __name__ == "__main__":
    sys.exit(main())
