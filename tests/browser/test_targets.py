"""The documented targets that need the built site and Chromium, in a quick form (one page, a few
inputs, one run), so that none breaks unseen: `make serve`, `make page-weight`'s command, and the
browser benchmarks `python -m benchmarks.bench_widgets` and `python -m benchmarks.bench_trainer`.
Each checks that the command runs and reports what it says, never how fast: the benchmarks' own
verdicts on their time targets (their exit code 1) are not judged here. The other targets' quick
forms are in tests/build/test_targets.py."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bookdev.browser import SITE
from tests._project import ROOT

PYTHON = sys.executable
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
PAGE = "book/05_softmax.html"

pytestmark = pytest.mark.skipif(not (SITE / "index.html").is_file(), reason="no built site: make test builds it first")


def _run(args: list[str], timeout: int = 240) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=timeout, check=False)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_make_serve_serves_the_built_site() -> None:
    port = _free_port()
    serve = subprocess.Popen(["make", "--no-print-directory", "serve", f"PORT={port}"], cwd=ROOT, env=ENV,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        body, deadline = None, time.monotonic() + 30
        while body is None and time.monotonic() < deadline and serve.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/{PAGE}", timeout=5) as r:
                    body = r.read().decode()
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
        assert body is not None, f"make serve did not answer on port {port} (exit {serve.poll()})"
        assert body == (SITE / PAGE).read_text(encoding="utf-8")
    finally:
        os.killpg(serve.pid, signal.SIGTERM)  # make and the server it started: their own session
        serve.wait(timeout=30)


def test_page_weight_measures_one_page(tmp_path: Path) -> None:
    """`make page-weight`'s command on one page: the table names it with its bytes and budget."""
    out = tmp_path / "weight.md"
    proc = _run([PYTHON, "-m", "tools.page_weight", str(SITE), "--page", PAGE, "--out", str(out)])
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    rows = [ln for ln in out.read_text(encoding="utf-8").splitlines() if "05_softmax" in ln]
    assert rows and re.search(r"\d", rows[0]), out.read_text(encoding="utf-8")
    missing = _run([PYTHON, "-m", "tools.page_weight", str(SITE), "--page", "book/no_such_page.html"])
    assert missing.returncode != 0 and "no such page" in missing.stderr


def test_bench_widgets_times_a_few_inputs_on_two_pages(tmp_path: Path) -> None:
    """A slider's page, and chapter 21's, whose writer also reports the model's own time per character."""
    out = tmp_path / "widgets.json"
    proc = _run([PYTHON, "-m", "benchmarks.bench_widgets", "--inputs", "3", "--page", PAGE, "--page", "book/21_real_text.html",
                 "--json", str(out)])
    assert proc.returncode in (0, 1), proc.stdout[-2000:] + proc.stderr[-2000:]  # 1: a time target missed
    assert "missing widgets" not in proc.stderr and "other hosts" not in proc.stderr, proc.stderr
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert results and all(r["inputs"] == 3 and r["max_ms"] >= r["median_ms"] >= 0 for r in results.values()), results
    writer = results["ContinueText"]
    assert writer["model_tokens"] >= 3 and writer["model_max_ms"] >= writer["model_median_ms"] > 0, writer
    assert re.search(r"^ +the model +[\d.]+ +[\d.]+ +\(its own time per token", proc.stdout, flags=re.MULTILINE), proc.stdout


def test_bench_trainer_runs_once(tmp_path: Path) -> None:
    out = tmp_path / "trainer.md"
    proc = _run([PYTHON, "-m", "benchmarks.bench_trainer", "--runs", "1", "--no-typing", "--out", str(out)])
    assert proc.returncode in (0, 1), proc.stdout[-2000:] + proc.stderr[-2000:]  # 1: a time target missed
    assert re.search(r"^run 1: [\d.]+ s", proc.stdout, flags=re.MULTILINE), proc.stdout[-2000:]
    assert re.search(r"^\| 1 \| [\d.]+ s", out.read_text(encoding="utf-8"), flags=re.MULTILINE)
