"""Every documented target works, in a quick form: each target `make help` lists is a target make can
plan (a dry run), and the commands behind `make execute`, `make bench`, `python -m
benchmarks.bench_build` and the README's local JupyterLab run here at a small size, once, so that none
breaks unseen. (The quick forms that need the built site and Chromium, `make serve`, `make
page-weight` and the browser benchmarks, are in tests/browser/test_targets.py.) Nothing here times
anything: each checks that the command runs and writes what it says."""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest

from tests._project import ROOT
from tools import execute

PYTHON = sys.executable
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def _run(args: list[str], timeout: int = 300, **kw: object) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=timeout, check=False, **kw)


def _help_targets() -> list[str]:
    out = _run(["make", "--no-print-directory", "help"]).stdout
    return sorted(set(re.findall(r"^\s+make ([a-z][\w-]*)", out, flags=re.MULTILINE)))


def test_make_help_lists_the_documented_targets() -> None:
    targets = _help_targets()
    assert {"book", "test", "serve", "execute", "bench", "page-weight", "pdf", "clean"} <= set(targets), targets


@pytest.mark.parametrize("target", _help_targets())
def test_every_target_make_help_lists_can_be_planned(target: str) -> None:
    """`make -n` plans the target (its prerequisites and recipe lines exist and parse) without running it."""
    proc = _run(["make", "--no-print-directory", "-n", target, "NB=book/01_words_to_numbers.ipynb"], timeout=120)
    assert proc.returncode == 0, f"make -n {target}:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}"


# --- make execute: tools.execute, and stable widget ids ---------------------------------------
_WIDGET_CELLS = [
    "import ipywidgets as w\nslider = w.IntSlider(value=3, description='n')\nslider",
    "box = w.VBox([w.Label('twice'), slider])\nbox",
    "import time\nfor i in range(3):\n    print(i, flush=True)\n    time.sleep(0.05)",
]


def _widget_notebook(path: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in _WIDGET_CELLS]
    nbformat.write(nb, path)
    return path


def _ids(nb: nbformat.NotebookNode) -> tuple[list[str], set[str], set[str]]:
    """(the model ids of the views in the outputs, the ids of the stored models, the ids they refer to)."""
    views = [o["data"][execute.VIEW_MIME]["model_id"] for c in nb.cells for o in c.get("outputs", [])
             if execute.VIEW_MIME in o.get("data", {})]
    state = nb.metadata["widgets"][execute.STATE_MIME]["state"]
    refs = set(re.findall(r"IPY_MODEL_([0-9a-f]{32})", json.dumps(state)))
    return views, set(state), refs


def test_execute_twice_leaves_an_unchanged_notebook_unchanged(tmp_path: Path) -> None:
    """The quick form of `make execute`: a notebook with widgets executed twice by tools.execute is
    the same file byte for byte, although the kernel draws new model ids each time; the ids it
    stores are whole (every view and every reference names a stored model)."""
    nb_path = _widget_notebook(tmp_path / "widgets.ipynb")
    first = _run([PYTHON, "-m", "tools.execute", str(nb_path)], timeout=240)
    assert first.returncode == 0, first.stderr[-3000:]
    once = nb_path.read_bytes()
    second = _run([PYTHON, "-m", "tools.execute", str(nb_path)], timeout=240)
    assert second.returncode == 0, second.stderr[-3000:]
    assert nb_path.read_bytes() == once, "re-executing an unchanged notebook changed its file"
    nb = nbformat.reads(once.decode(), as_version=4)
    views, stored, refs = _ids(nb)
    assert len(views) == 2 and set(views) <= stored and refs <= stored and len(stored) >= 6, (views, stored)
    assert all(re.fullmatch(r"[0-9a-f]{32}", m) for m in stored)
    assert [o["text"] for o in nb.cells[2].outputs] == ["0\n1\n2\n"], "the printed pieces were not joined"


def _random_ids(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` with every model id replaced by a new random one, as another kernel run would draw them."""
    text = nbformat.writes(nb)
    for mid in nb.metadata["widgets"][execute.STATE_MIME]["state"]:
        text = text.replace(mid, secrets.token_hex(16))
    return nbformat.reads(text, as_version=4)


def test_stable_ids_do_not_depend_on_the_kernels_ids_and_follow_the_file_name() -> None:
    nb = nbformat.read(ROOT / "book" / "05_softmax.ipynb", as_version=4)
    a, b = _random_ids(nb), _random_ids(nb)
    assert nbformat.writes(a) != nbformat.writes(b)
    renamed = execute.stable_ids(a, "05_softmax.ipynb")
    execute.stable_ids(b, "05_softmax.ipynb")
    assert nbformat.writes(a) == nbformat.writes(b)
    assert len(renamed) == len(nb.metadata["widgets"][execute.STATE_MIME]["state"]) >= 2
    views, stored, refs = _ids(a)
    assert views and set(views) <= stored and refs <= stored
    other = _random_ids(nb)
    execute.stable_ids(other, "06_scaling.ipynb")
    assert not stored & _ids(other)[1], "two chapters share a model id"


def test_join_streams_joins_consecutive_pieces_only() -> None:
    """Pieces of one stream in a row become one output; text printed after a figure stays after it."""
    cell = nbformat.v4.new_code_cell("")
    stream = lambda name, text: nbformat.v4.new_output("stream", name=name, text=text)  # noqa: E731
    figure = nbformat.v4.new_output("display_data", data={"text/plain": "<Figure>"})
    cell.outputs = [stream("stdout", "a\n"), stream("stdout", "b\n"), stream("stderr", "w\n"), figure,
                    stream("stdout", "c\n"), stream("stdout", "d\n")]
    nb = nbformat.v4.new_notebook(cells=[cell])
    execute.join_streams(nb)
    assert [(o["output_type"], o.get("text")) for o in nb.cells[0].outputs] == [
        ("stream", "a\nb\n"), ("stream", "w\n"), ("display_data", None), ("stream", "c\nd\n")]


def test_tidy_gives_the_committed_chapters_what_a_run_would_store(tmp_path: Path) -> None:
    """`tools.execute --tidy` on a chapter changes nothing: every committed chapter is stored as a run
    of the unchanged chapter would store it (joined prints, stable widget ids)."""
    changed = []
    for path in sorted((ROOT / "book").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        before = nbformat.writes(nb)
        execute.tidy(nb, path.name)
        if nbformat.writes(nb) != before:
            changed.append(path.name)
    assert not changed, f"run `python -m tools.execute --tidy` (or re-execute) on {changed}"


def test_stable_ids_leave_a_notebook_without_widgets_alone() -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("1")]
    assert execute.stable_ids(nb, "x.ipynb") == {} and "widgets" not in nb.metadata


# --- the benchmarks ---------------------------------------------------------------------------
def test_bench_attention_runs_in_its_quick_form(tmp_path: Path) -> None:
    """`make bench`'s command at a small size, one round: every kind of measurement reports (the first in a
    worker process of its own, as a full run starts for each)."""
    out, tile = tmp_path / "RESULTS.md", tmp_path / "tile.json"
    proc = _run([PYTHON, "-m", "benchmarks.bench_attention", "--quick", "--out", str(out), "--tile-out", str(tile)])
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    report = out.read_text(encoding="utf-8")
    for label in ("torch SDPA (fused)", "attnlib readable", "attnlib chunked"):
        assert re.search(rf"^\| 64 \| {re.escape(label)} \| [\d,.]+ \|", report, flags=re.MULTILINE), label
    assert "## Generation" in report and "| 64 |" in report.split("## Generation")[1]
    assert "Breakdown at n=" in report or "readable attention at n=64" in proc.stdout
    assert json.loads(tile.read_text(encoding="utf-8"))["median_s"]["eager step, attnlib"] > 0


def test_bench_build_runs_in_its_quick_form(tmp_path: Path) -> None:
    """`python -m benchmarks.bench_build --quick`: a clean build of a two-page book and one execution."""
    out = tmp_path / "BUILD.md"
    proc = _run([PYTHON, "-m", "benchmarks.bench_build", "--quick", "--out", str(out)], timeout=400)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    report = out.read_text(encoding="utf-8")
    assert re.search(r"^\| clean \(no `_build`\) \| [\d.]+ \| 0 \|", report, flags=re.MULTILINE), report
    assert "| quick_chapter.ipynb |" in report


# --- the README's local path: JupyterLab on book/ ---------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_jupyter_lab_on_book_answers(tmp_path: Path) -> None:
    """The README's `.venv/bin/jupyter lab book/` (no browser, a free local port, its own config and
    runtime folders): JupyterLab starts, serves its page and lists the chapters, then stops."""
    jupyter = Path(PYTHON).with_name("jupyter")
    port, token = _free_port(), secrets.token_hex(16)
    env = {**ENV, **{f"JUPYTER_{k}": str(tmp_path / k.lower()) for k in ("CONFIG_DIR", "RUNTIME_DIR")},
           "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"), "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "ws")}
    log = tmp_path / "lab.log"
    with log.open("w") as sink:
        lab = subprocess.Popen([str(jupyter), "lab", "book/", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
                                "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}"]
                               + (["--allow-root"] if os.geteuid() == 0 else []),  # a container's root user
                               cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        base, page, listing = f"http://127.0.0.1:{port}", None, None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and lab.poll() is None:
            try:
                with urllib.request.urlopen(f"{base}/lab?token={token}", timeout=5) as r:
                    page = r.read().decode()
                with urllib.request.urlopen(f"{base}/api/contents/?token={token}", timeout=5) as r:
                    listing = json.loads(r.read())
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.5)
        assert page is not None, f"JupyterLab did not answer on {base}:\n{log.read_text()[-3000:]}"
        assert "JupyterLab" in page
        names = {item["name"] for item in listing["content"]}
        assert "01_words_to_numbers.ipynb" in names, sorted(names)
    finally:
        lab.terminate()
        try:
            lab.wait(timeout=30)
        except subprocess.TimeoutExpired:
            lab.kill()
            lab.wait()


# --- .ci/steps: the steps of make test --------------------------------------------------------
def _steps(tmp: Path, *args: str, site: str = "true") -> subprocess.CompletedProcess:
    env = {**ENV, "PYTHON": PYTHON, "TIMES": str(tmp / "times"), "SITE_LOG": str(tmp / "site.log"), "SITE_BUILD": site,
           "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # a bare pytest: the plugins' imports are not what is tested
    return subprocess.run([str(ROOT / ".ci" / "steps"), *args], cwd=tmp, env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def test_steps_time_each_step_and_keep_the_exit_code(tmp_path: Path) -> None:
    (tmp_path / "times").write_text("")
    ok = _steps(tmp_path, "step", "first", "true")
    assert ok.returncode == 0 and "==> first" in ok.stdout and re.search(r"first: \d+ s", ok.stdout)
    bad = _steps(tmp_path, "step", "second", "sh", "-c", "exit 3")
    assert bad.returncode == 3
    assert re.fullmatch(r"\s*\d+ s  first\n", (tmp_path / "times").read_text()), "a failed step was timed"
    summary = _steps(tmp_path, "summary")
    assert summary.returncode == 0 and re.search(r"^\s*\d+ s  in all$", summary.stdout, flags=re.MULTILINE)


def test_steps_pytest_passes_no_tests_collected_and_fails_a_failure(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text("def test_fails():\n    assert False\n")
    none = _steps(tmp_path, "pytest", "-p", "no:cacheprovider", "test_one.py", "-k", "nothing_matches")
    assert none.returncode == 0 and "no tests collected" in none.stdout
    failed = _steps(tmp_path, "pytest", "-p", "no:cacheprovider", "test_one.py")
    assert failed.returncode == 1, failed.stdout[-1000:]


def test_steps_beside_site_fails_when_either_fails(tmp_path: Path) -> None:
    assert _steps(tmp_path, "beside_site", "true").returncode == 0
    assert _steps(tmp_path, "beside_site", "false").returncode != 0
    broken = _steps(tmp_path, "beside_site", "true", site="sh -c 'echo the build broke; exit 4'")
    assert broken.returncode != 0 and "the build broke" in broken.stdout and "exit 4" in broken.stdout
