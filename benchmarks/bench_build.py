"""How fast the book builds: a clean build, a no-op rebuild and a rebuild after one markdown edit,
and how long every chapter takes to execute.

The site is built from the notebooks' committed outputs (``execute_notebooks: "off"``): ``make test``
re-executes every chapter with nbval and compares it with those outputs, so the build does not execute
them a second time. The chapters' execution is still measured here, one notebook at a time from a
clean kernel, as ``make execute`` and nbval run them: it is what an author waits for after a change,
and it shows that chapter 17's training stays within its budget.

Run from the repository root: ``python -m benchmarks.bench_build [--out FILE] [--keep]`` (the
committed report is ``benchmarks/BUILD_RESULTS.md``). ``--quick`` builds once (clean) and executes once,
on a book of two small pages made for it (a page and a one-cell notebook, with the repository's configuration):
``make test`` runs it so that the benchmark cannot break unseen; its numbers mean nothing.

Everything happens in a temporary copy of the repository (the files git tracks plus untracked,
not-ignored ones), so the working tree's ``_build`` is never read or written. Each build runs
``make site`` (``jupyter-book build -W -n --keep-going``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import yaml

from benchmarks._common import publish, say

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = Path(sys.executable).with_name("jupyter-book")
TARGET_CLEAN_S = 75.0  # issues 13, 16 and 18: the clean build on 2 cores
TARGET_NOOP_S = 5.0
TARGET_TRAINING_S = 30.0  # issue 18: chapter 17 trains its models within 30 s of execution
TRAINING_CHAPTER = "17_learning.ipynb"
SLOW_OWN_WORK_S = 5.0
EDIT_MARK = "(This sentence was added by benchmarks/bench_build.py to time a one-cell rebuild.)"


def copy_repo(dest: Path) -> int:
    """Copy the files git knows about (tracked, and untracked but not ignored) into ``dest``."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    count = 0
    for rel in filter(None, listed):
        src = ROOT / rel
        if not src.is_file():  # deleted in the working tree but still tracked
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
        count += 1
    if (ROOT / "node_modules").is_dir():  # pinned front-end assets, read only: link, do not copy
        (dest / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    return count


def make_site(book: Path) -> list[str]:
    """``make site`` in ``book`` with this interpreter's environment (no venv or npm set-up step)."""
    return ["make", "--no-print-directory", "-C", str(book), "site", f"BIN={JUPYTER_BOOK.parent}", "STAMP=", "NPM_STAMP="]


def build(book: Path, log_dir: Path, name: str, env: dict[str, str]) -> dict:
    """Run one build; return its wall time, exit code and the notebooks it executed (none expected)."""
    t0 = time.perf_counter()
    proc = subprocess.run(make_site(book), capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - t0
    log = proc.stdout + proc.stderr
    (log_dir / f"{name}.log").write_text(log, encoding="utf-8")
    executed = re.findall(r"([^\s:]+\.ipynb): Executed notebook in ([\d.]+) seconds", log)
    return {"name": name, "seconds": seconds, "returncode": proc.returncode,
            "executed": [(Path(p).name, float(s)) for p, s in executed], "tail": log[-2500:]}


_EXECUTE_ONE = (
    "import sys, nbformat\n"
    "from jupyter_cache.executors.utils import single_nb_execution\n"
    "nb = nbformat.read(sys.argv[1], as_version=4)\n"
    "r = single_nb_execution(nb, cwd=sys.argv[2], timeout=600, allow_errors=False)\n"
    "assert r.err is None, r.exc_string\n"
    "print(r.time)\n"
)


def execute_seconds(nb: Path, env: dict[str, str], cwd: Path | None = None) -> float:
    """Seconds notebook ``nb`` takes to execute from a clean kernel, in a fresh process (as myst-nb and
    jupyter-cache time a notebook: from the kernel's start to its last cell), run from ``cwd``
    (default: the notebook's folder)."""
    proc = subprocess.run([sys.executable, "-c", _EXECUTE_ONE, str(nb), str(cwd or nb.parent)],
                          capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{nb.name} failed to execute:\n{proc.stderr[-2000:]}")
    return float(proc.stdout.strip().splitlines()[-1])


def execution_times(notebooks: list[Path], env: dict[str, str]) -> dict[str, float]:
    """Seconds each notebook takes to execute from a clean kernel, one at a time."""
    times = {}
    for nb in notebooks:
        times[nb.name] = execute_seconds(nb, env)
        say(f"    {nb.name}: {times[nb.name]:.1f} s")
    return times


def toc_notebooks(book: Path) -> list[Path]:
    """Notebooks listed (not commented out) in ``_toc.yml``, in order."""
    toc = yaml.safe_load((book / "_toc.yml").read_text(encoding="utf-8"))
    files: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if "file" in node:
                files.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc)
    return [book / f"{f}.ipynb" for f in files if (book / f"{f}.ipynb").exists()]


def quick_toc(book: Path) -> None:
    """Replace the copy's book with two small pages (``--quick``): a root page and a notebook with a
    title, a paragraph and one code cell, listed in its ``_toc.yml``."""
    (book / "book" / "quick.md").write_text("# A quick book\n\nIts one chapter follows.\n", encoding="utf-8")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# A chapter"), nbformat.v4.new_markdown_cell("One cell runs."),
                nbformat.v4.new_code_cell("import attnlib\nprint(attnlib.__name__)")]
    nbformat.write(nb, book / "book" / "quick_chapter.ipynb")
    toc = {"format": "jb-book", "root": "book/quick", "chapters": [{"file": "book/quick_chapter"}]}
    (book / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False), encoding="utf-8")


def edit_one_markdown_cell(nb_path: Path) -> str:
    """Append a sentence to the first markdown cell after the title cell; return where."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    md = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown"]
    i = md[1] if len(md) > 1 else md[0]
    src = "".join(nb["cells"][i]["source"])
    nb["cells"][i]["source"] = src.rstrip("\n") + "\n\n" + EDIT_MARK + "\n"
    nb_path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return f"{nb_path.name}, markdown cell {i}"


def startup_seconds() -> float:
    """Wall time of importing what every build loads before it does any work (Sphinx, myst-nb, the theme)."""
    code = "import jupyter_book.cli.main, sphinx.application, myst_nb, sphinx_book_theme"
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - t0


def kernel_seconds(book: Path, env: dict[str, str], runs: int = 2) -> float:
    """Execution time, measured as a chapter's is, of a one-cell notebook that only imports what the
    chapters import: the fixed cost every executed notebook pays."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("import matplotlib.pyplot as plt\nimport numpy as np\nimport torch\n"
                                          "import attnlib\nfrom attnlib import plots")]
    path = book / "_build" / "imports_only.ipynb"
    nbformat.write(nb, path)
    # the shorter of two runs: the one least slowed down by other work on the machine
    return min(execute_seconds(path, env, cwd=book / "book") for _ in range(runs))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="also write the report (Markdown) to this file")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copy and its logs")
    ap.add_argument("--quick", action="store_true",
                    help="one clean build and one execution, on a book of two small pages (a check that it "
                         "runs; the numbers mean nothing)")
    args = ap.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="bench-build-"))
    book = tmp / "repo"
    logs = tmp / "logs"
    logs.mkdir()
    load_start = os.getloadavg()
    t_start = time.perf_counter()
    try:
        n_files = copy_repo(book)
        if args.quick:
            quick_toc(book)
        notebooks = toc_notebooks(book)
        # the chapters import the copy's attnlib, not the editable install of the working tree
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(book), os.environ.get("PYTHONPATH")]))}
        say(f"# book build benchmark: temporary copy of {n_files} files in {book}")
        say(f"# {len(notebooks)} notebooks in the toc; {os.cpu_count()} cores; load average {load_start[0]:.1f}")
        runs = []
        plan = [("clean build", None), ("no-op rebuild", None),
                ("one markdown cell edited", lambda: edit_one_markdown_cell(notebooks[0]))]
        if args.quick:
            plan = plan[:1]
        for name, prepare in plan:
            what = prepare() if prepare else ""
            say(f"  {name}{' (' + what + ')' if what else ''} ...")
            run = build(book, logs, name.replace(" ", "_"), env)
            run["detail"] = what
            runs.append(run)
            say(f"  {name}: {run['seconds']:.1f} s, exit {run['returncode']}, notebooks executed: "
                f"{len(run['executed'])}   [{time.perf_counter() - t_start:.0f} s elapsed]")
            if run["returncode"] != 0:
                say(run["tail"])
                say(f"the build failed: logs in {logs}")
                args.keep = True
                return 1
        say("  executing every chapter from a clean kernel, one at a time (as make execute and nbval do) ...")
        exec_times = execution_times(notebooks, env)
        say("  measuring the fixed costs (Sphinx start-up, one kernel with the chapters' imports) ...")
        startup = startup_seconds()
        kernel = kernel_seconds(book, env, runs=1 if args.quick else 2)
        publish(render(runs, exec_times, notebooks, startup, kernel, load_start, time.perf_counter() - t_start),
                args.out)
        return 0
    finally:
        if args.keep:
            say(f"(kept {tmp})")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def _verdict(ok: bool) -> str:
    return "**PASS**" if ok else "**MISS**"


def render(runs: list[dict], exec_times: dict[str, float], notebooks: list[Path], startup: float,
           kernel: float, load_start: tuple[float, ...], total: float) -> str:
    clean, noop, edit = (runs + [None, None])[:3]
    exec_total = sum(exec_times.values())
    training = exec_times.get(TRAINING_CHAPTER)
    out = ["# Book build benchmark", ""]
    out += [f"{os.cpu_count()} cores; load average {load_start[0]:.1f} at the start and "
            f"{os.getloadavg()[0]:.1f} at the end (the machine is shared). {len(notebooks)} notebooks in the "
            "toc. Command: `make site` (`jupyter-book build -W -n --keep-going`, rendering the notebooks' "
            f"committed outputs) on a temporary copy of the repository. Total run time {total:.0f} s.", ""]
    out += ["| build | wall time (s) | notebooks executed | target | result |", "|---|---:|---:|---|---|"]
    out += [f"| clean (no `_build`) | {clean['seconds']:.1f} | {len(clean['executed'])} | ≤ {TARGET_CLEAN_S:.0f} s | "
            f"{_verdict(clean['seconds'] <= TARGET_CLEAN_S)} |"]
    if noop:
        out += [f"| no-op rebuild | {noop['seconds']:.1f} | {len(noop['executed'])} | ≤ {TARGET_NOOP_S:.0f} s | "
                f"{_verdict(noop['seconds'] <= TARGET_NOOP_S)} |"]
    if edit:
        out += [f"| one markdown cell edited ({edit['detail']}) | {edit['seconds']:.1f} | {len(edit['executed'])} | "
                "informational | |"]
    out += [""]
    out += ["The build renders the outputs committed with each notebook and executes nothing: `make test` runs "
            "every chapter again with nbval and fails if an output differs, a figure changed or a stored widget "
            "state is stale (`tests/nbval_report.py`).", ""]
    out += ["## Executing the chapters", ""]
    out += [f"Every chapter executed from a clean kernel, one at a time, as `make execute` and nbval run them: "
            f"{exec_total:.1f} s in all. Fixed costs: importing Sphinx, myst-nb and the theme takes {startup:.1f} s; "
            f"a notebook that only starts a kernel and imports torch, matplotlib and attnlib takes {kernel:.1f} s, "
            f"paid by every chapter: {len(exec_times)} × {kernel:.1f} s ≈ {len(exec_times) * kernel:.0f} s of the "
            f"{exec_total:.0f} s. 'Own work' is a chapter's time minus that fixed cost (negative: the machine was "
            "less busy during the chapter than during the measurement).", ""]
    if training is not None:
        out += [f"Chapter 17 (it trains its models) executes in {training:.1f} s: target ≤ "
                f"{TARGET_TRAINING_S:.0f} s, {_verdict(training <= TARGET_TRAINING_S)}.", ""]
    out += ["| notebook | execution (s) | own work (s) | share of execution |", "|---|---:|---:|---:|"]
    for name, secs in sorted(exec_times.items(), key=lambda kv: -kv[1]):
        out += [f"| {name} | {secs:.1f} | {secs - kernel:.1f} | {100 * secs / exec_total:.0f} % |"]
    out += [""]
    slow = sorted(name for name, secs in exec_times.items() if secs - kernel > SLOW_OWN_WORK_S)
    out += [(f"Slow chapters (more than {SLOW_OWN_WORK_S:.0f} s of own work): " + ", ".join(slow) + ".") if slow
            else f"No chapter does more than {SLOW_OWN_WORK_S:.0f} s of own work.", ""]
    if any(run["executed"] for run in runs):
        out += ["A build executed a notebook: `execute_notebooks` in `_config.yml` should be `\"off\"`.", ""]
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
