"""What the benchmark scripts share: progress lines and publishing the final report; and the two training
widgets' benchmarks: their command line, the site served, the widget timed while a reader types, the report
and the exit status (``training_main``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from bookdev.browser import SITE, BrowserMissing, chromium, offline_page, serve


def say(text: str = "") -> None:
    """Print a progress line at once (the scripts run for minutes)."""
    print(text, flush=True)


def publish(report: str, out: Path | None) -> None:
    """Print the Markdown report and, with ``out``, write it to that file."""
    say()
    say(report)
    if out:
        out.write_text(report + "\n", encoding="utf-8")
        say(f"(written to {out})")


# --- the two training widgets' benchmarks (bench_trainer, bench_induction) -------------------------------
#: Records how late the page answers each key typed into the widget's "ask" box (window.__lags, in ms).
WATCH_KEYS = """(root) => {
  const el = eval(root), box = el.querySelector('[data-name="ask"]');
  window.__lags = [];
  box.addEventListener("keydown", (e) => window.__lags.push(performance.now() - e.timeStamp));
}"""


def training_arguments(doc: str, runs: int) -> argparse.Namespace:
    """The command line of a training widget's benchmark: --runs (default ``runs``), --out, --no-typing, --site."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--out", type=Path, help="also write the Markdown report to this file")
    parser.add_argument("--no-typing", action="store_true", help="do not type while it trains (the training time alone)")
    parser.add_argument("--site", type=Path, default=SITE,
                        help="the built site to serve (default _build/html; e.g. a copy of an earlier build, to compare)")
    return parser.parse_args()


def train_typing(page: Any, w: Any, drv: ModuleType, key: str, typing: bool,
                 timeout_ms: float = 60_000) -> tuple[dict[str, Any], list[float]]:
    """Press Train on a training widget (``drv``: its driver in bookdev) and, with ``typing``, type ``key`` into
    its ask box until it stops training; the run it trained (``drv.read_run``) and how late each key was answered (ms)."""
    page.evaluate("() => { window.__lags = []; }")
    drv.click(w, "train")
    page.evaluate(f"() => {w.root}.querySelector('[data-name=\"ask\"]').disabled = false")
    page.focus("xpath=//*[@data-name='ask']")
    while typing and drv.state(w) == "training":
        page.keyboard.type(key, delay=20)
    assert drv.wait_until_ended(w, timeout_ms) == "done", drv.message(w)
    return drv.read_run(w), page.evaluate("() => window.__lags")


def time_training(drv: ModuleType, args: argparse.Namespace, key: str,
                  measure: Callable[[dict[str, Any], list[float]], tuple[dict[str, Any], str]], missing: str,
                  timeout_ms: float = 60_000) -> tuple[list[dict[str, Any]], str] | None:
    """Serve the built site ``args.site`` (every other host blocked), open ``drv.PAGE`` in Chromium and train its default run
    ``args.runs`` times (``train_typing``, typing ``key`` unless ``args.no_typing``); ``measure(run, lags)`` makes
    each run's row and its progress line. The rows and the browser's user agent; None (with ``missing``, or why
    the browser is missing, printed) where the page is not built or there is no browser."""
    site = args.site
    if not (site / drv.PAGE).is_file():
        print(f"no built page {drv.PAGE}: {missing}", file=sys.stderr)
        return None
    try:
        rows = []
        with serve(site) as url, chromium() as browser, offline_page(browser, url) as (page, log):
            w = drv.find(page, url)
            agent = page.evaluate("navigator.userAgent")
            page.evaluate(WATCH_KEYS, w.root)
            for i in range(args.runs):
                row, line = measure(*train_typing(page, w, drv, key, not args.no_typing, timeout_ms))
                rows.append(row)
                say(f"run {i + 1}: {line}")
            assert log.external == [], log.external
    except BrowserMissing as err:
        print(err, file=sys.stderr)
        return None
    return rows, agent


def training_report(columns: list[str], cells: list[str], agent: str) -> str:
    """A training widget's benchmark report: a Markdown table of one row (``columns``, right-aligned, over
    ``cells``) and the browser it ran in."""
    return "\n".join([f"| {' | '.join(columns)} |", "|" + "---:|" * len(columns), f"| {' | '.join(cells)} |", "", f"browser: {agent}"])


def training_main(doc: str, drv: ModuleType, key: str, measure: Callable[[dict[str, Any], list[float]], tuple[dict[str, Any], str]],
                  summary: Callable[[list[dict[str, Any]], bool], tuple[list[str], list[str], bool]], *, runs: int,
                  missing: str, timeout_ms: float = 60_000) -> int:
    """A training widget's benchmark from its command line (``training_arguments(doc, runs)``) to its exit
    status: time ``drv``'s default run (``time_training``), then ``summary(rows, typing)`` makes the report's
    columns and cells and says whether the targets hold, and the report is published. 0 when they hold,
    1 when they do not, 2 when nothing was timed (no built page, no browser)."""
    args = training_arguments(doc, runs)
    timed = time_training(drv, args, key, measure, missing, timeout_ms)
    if timed is None:
        return 2
    rows, agent = timed
    columns, cells, met = summary(rows, not args.no_typing)
    publish(training_report(columns, cells, agent), args.out)
    return 0 if met else 1
