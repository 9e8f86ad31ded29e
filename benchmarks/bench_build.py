"""How fast the book builds: a clean build, a no-op rebuild and a rebuild after one markdown edit.

A fourth build, clean again with ``jupyter-book build`` alone (no jcache step: myst-nb executes the
notebooks one after the other), shows what the Makefile's jcache step (executing the notebooks two at
a time before Sphinx reads them) saves, and gives per-notebook execution times measured one notebook
at a time.

Run with ``make bench-build`` (writes ``benchmarks/BUILD_RESULTS.md``) or
``python benchmarks/bench_build.py [--out FILE] [--keep]``.

Everything happens in a temporary copy of the repository (the files git tracks plus untracked,
not-ignored ones), so the working tree's ``_build`` is never read or written. Each build runs the
same commands as ``make site`` (it runs ``make site``): the jcache step, then
``jupyter-book build -W -n --keep-going``. Per-notebook execution
times come from the build's jupyter-cache, where myst-nb records each notebook's execution time.
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

from _common import publish, say

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = Path(sys.executable).with_name("jupyter-book")
TARGET_CLEAN_S = 90.0
TARGET_NOOP_FRACTION = 0.05
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
    """``make site`` in ``book`` with this interpreter's environment (no venv or npm set-up step):
    jcache executes the chapters missing from the cache, then ``jupyter-book build -W -n --keep-going``."""
    return ["make", "--no-print-directory", "-C", str(book), "site", f"BIN={JUPYTER_BOOK.parent}", "STAMP=", "NPM_STAMP="]


def jupyter_book_build(book: Path) -> list[str]:
    """The build alone, without the jcache step: myst-nb executes what the cache lacks, one at a time."""
    return [str(JUPYTER_BOOK), "build", "-W", "-n", "--keep-going", str(book)]


def build(book: Path, log_dir: Path, name: str, env: dict[str, str], command=make_site) -> dict:  # noqa: ANN001
    """Run one build; return its wall time, exit code and the notebooks it executed."""
    t0 = time.perf_counter()
    proc = subprocess.run(command(book), capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - t0
    log = proc.stdout + proc.stderr
    (log_dir / f"{name}.log").write_text(log, encoding="utf-8")
    executed = re.findall(r"([^\s:]+\.ipynb): Executed notebook in ([\d.]+) seconds", log)
    jcache = re.search(r"succeeded:\n((?:- .*\n)*)", log)
    return {"name": name, "seconds": seconds, "returncode": proc.returncode,
            "executed": [(Path(p).name, float(s)) for p, s in executed],
            "jcache": jcache.group(1).count("\n") if jcache else 0,
            "tail": log[-2500:]}


def cached_execution_times(book: Path) -> dict[str, float]:
    """Execution seconds of every notebook in the build's jupyter-cache (as myst-nb stored them)."""
    from jupyter_cache import get_cache

    cache = get_cache(book / "_build" / ".jupyter_cache")
    return {Path(rec.uri).name: float(rec.data.get("execution_seconds") or 0.0)
            for rec in cache.list_cache_records()}


def toc_notebooks(book: Path) -> list[Path]:
    """Notebooks listed (not commented out) in ``_toc.yml``, in order."""
    import yaml

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


def remove_build(book: Path) -> str:
    """Delete the copy's ``_build`` (site and jupyter-cache) for another clean build."""
    shutil.rmtree(book / "_build")
    return "_build removed"


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


def kernel_seconds(book: Path, env: dict[str, str]) -> float:
    """Execution time, measured as myst-nb measures a chapter, of a one-cell notebook that only
    imports what the chapters import: the fixed cost every executed notebook pays."""
    code = (
        "import time, nbformat\n"
        "from jupyter_cache.executors.utils import single_nb_execution\n"
        "nb = nbformat.v4.new_notebook()\n"
        "nb.metadata['kernelspec'] = {'name': 'python3', 'display_name': 'Python 3', 'language': 'python'}\n"
        "nb.cells = [nbformat.v4.new_code_cell('import matplotlib.pyplot as plt\\nimport numpy as np\\n"
        "import torch\\nimport attnlib\\nfrom attnlib import plots')]\n"
        f"r = single_nb_execution(nb, cwd={str(book / 'book')!r}, timeout=600, allow_errors=False)\n"
        "assert r.err is None, r.exc_string\n"
        "print(r.time)\n"
    )
    times = []
    for _ in range(2):  # the shorter of two runs: the one least slowed down by other work on the machine
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        times.append(float(proc.stdout.strip().splitlines()[-1]))
    return min(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="also write the report (Markdown) to this file")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copy and its logs")
    args = ap.parse_args(argv)


    tmp = Path(tempfile.mkdtemp(prefix="bench-build-"))
    book = tmp / "repo"
    logs = tmp / "logs"
    logs.mkdir()
    load_start = os.getloadavg()
    t_start = time.perf_counter()
    try:
        n_files = copy_repo(book)
        notebooks = toc_notebooks(book)
        # the chapters import the copy's attnlib, not the editable install of the working tree
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(book), os.environ.get("PYTHONPATH")]))}
        say(f"# book build benchmark: temporary copy of {n_files} files in {book}")
        say(f"# {len(notebooks)} notebooks in the toc; {os.cpu_count()} cores; load average {load_start[0]:.1f}")
        runs = []
        plan = [("clean build", None, {}, make_site),
                ("no-op rebuild", None, {}, make_site),
                ("one markdown cell edited", lambda: edit_one_markdown_cell(notebooks[0]), {}, make_site),
                ("clean build, serial execution", lambda: remove_build(book), {}, jupyter_book_build)]
        for name, prepare, extra_env, command in plan:
            what = prepare() if prepare else ""
            say(f"  {name}{' (' + what + ')' if what else ''} ...")
            run = build(book, logs, name.replace(" ", "_").replace(",", ""), {**env, **extra_env}, command)
            run["detail"] = what
            runs.append(run)
            say(f"  {name}: {run['seconds']:.1f} s, exit {run['returncode']}, notebooks executed: "
                f"{run['jcache']} by jcache, {len(run['executed'])} by myst-nb   "
                f"[{time.perf_counter() - t_start:.0f} s elapsed]")
            if run["returncode"] != 0:
                say(run["tail"])
                say(f"the build failed: logs in {logs}")
                args.keep = True
                return 1
        exec_times = cached_execution_times(book)  # from the serial build: one notebook at a time
        say("  measuring the fixed costs (Sphinx start-up, one kernel with the chapters' imports) ...")
        startup = startup_seconds()
        kernel = kernel_seconds(book, env)
        publish(render(runs, exec_times, notebooks, startup, kernel, load_start, time.perf_counter() - t_start),
                args.out)
        return 0
    finally:
        if args.keep:
            say(f"(kept {tmp})")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def render(runs: list[dict], exec_times: dict[str, float], notebooks: list[Path], startup: float,
           kernel: float, load_start: tuple[float, ...], total: float) -> str:
    clean, noop, edit, serial = runs
    exec_total = sum(exec_times.values())
    noop_fraction = noop["seconds"] / clean["seconds"]

    def executed(run: dict) -> str:
        parts = [f"{run['jcache']} by jcache, 2 at a time"] if run["jcache"] else []
        if run["executed"] or not parts:
            parts.append(f"{len(run['executed'])} by myst-nb")
        return ", ".join(parts)

    out = ["# Book build benchmark", ""]
    out += [f"{os.cpu_count()} cores; load average {load_start[0]:.1f} at the start and "
            f"{os.getloadavg()[0]:.1f} at the end (the machine is shared). {len(notebooks)} notebooks in the "
            f"toc. Command: `make site` (the jcache step, then `jupyter-book build -W -n --keep-going`) on a temporary copy of "
            f"the repository. Total run time {total:.0f} s.", ""]
    out += ["| build | wall time (s) | notebooks executed | target | result |", "|---|---:|---|---|---|"]
    out += [f"| clean (no `_build`) | {clean['seconds']:.1f} | {executed(clean)} | ≤ {TARGET_CLEAN_S:.0f} s | "
            f"**{'PASS' if clean['seconds'] <= TARGET_CLEAN_S else 'MISS'}** |"]
    out += [f"| no-op rebuild | {noop['seconds']:.1f} | {executed(noop)} | ≤ {100 * TARGET_NOOP_FRACTION:.0f} % "
            f"of clean ({TARGET_NOOP_FRACTION * clean['seconds']:.1f} s) | "
            f"**{'PASS' if noop_fraction <= TARGET_NOOP_FRACTION else 'MISS'}** ({100 * noop_fraction:.1f} %) |"]
    out += [f"| one markdown cell edited ({edit['detail']}) | {edit['seconds']:.1f} | {executed(edit)} | "
            f"informational: {100 * edit['seconds'] / clean['seconds']:.1f} % of clean | |"]
    out += [f"| clean, serial execution (`jupyter-book build` alone, no jcache step) | {serial['seconds']:.1f} | "
            f"{executed(serial)} | informational: what the jcache step saves | |", ""]
    out += ["The clean build executes the notebooks 2 at a time (the Makefile's jcache step fills myst-nb's "
            "jupyter-cache with jupyter-cache's parallel executor before Sphinx reads the pages); the "
            f"serial build, run right after it, leaves execution to myst-nb, one notebook after the other: "
            f"{serial['seconds'] / clean['seconds']:.2f}× the time of the parallel one here.", ""]
    out += ["## Where the time goes", ""]
    out += [f"Serial build: executing notebooks {exec_total:.1f} s of {serial['seconds']:.1f} s "
            f"({100 * exec_total / serial['seconds']:.0f} %); the rest, {serial['seconds'] - exec_total:.1f} s, is "
            "Sphinx (reading, resolving references, writing HTML, copying assets).",
            f"Fixed costs, measured after the builds: importing Sphinx, myst-nb and the theme takes "
            f"{startup:.1f} s; executing a notebook that only starts a kernel and imports torch, matplotlib and "
            f"attnlib takes {kernel:.1f} s (timed as myst-nb times a chapter), paid by every executed notebook: "
            f"{len(exec_times)} × {kernel:.1f} s ≈ {len(exec_times) * kernel:.0f} s of the {exec_total:.0f} s. "
            "'Own work' below is a chapter's execution time in the serial build minus that fixed cost "
            "(negative: the machine was less busy during the chapter than during the measurement).", ""]
    out += ["| notebook | execution (s) | own work (s) | share of execution |", "|---|---:|---:|---:|"]
    for name, secs in sorted(exec_times.items(), key=lambda kv: -kv[1]):
        out += [f"| {name} | {secs:.1f} | {secs - kernel:.1f} | {100 * secs / exec_total:.0f} % |"]
    out += [""]
    slow = sorted(name for name, secs in exec_times.items() if secs - kernel > SLOW_OWN_WORK_S)
    out += [(f"Slow chapters (more than {SLOW_OWN_WORK_S:.0f} s of own work): " + ", ".join(slow) + ".") if slow
            else f"No chapter does more than {SLOW_OWN_WORK_S:.0f} s of own work.", ""]
    explanations = []
    if clean["seconds"] > TARGET_CLEAN_S:
        explanations.append(
            f"Clean build MISS: {len(exec_times)} notebooks to execute ({exec_total:.0f} s one at a time, of which "
            f"≈ {len(exec_times) * kernel:.0f} s is kernel start-up and imports), {os.cpu_count()} at a time on "
            f"{os.cpu_count()} shared cores, plus Sphinx.")
    if noop_fraction > TARGET_NOOP_FRACTION:
        explanations.append(
            f"No-op MISS: nothing is executed and no page is rewritten, but every build starts Python, imports "
            f"Sphinx, myst-nb and the theme ({startup:.1f} s), loads the pickled environment and checks every "
            f"source; {noop['seconds']:.1f} s is over the {TARGET_NOOP_FRACTION * clean['seconds']:.1f} s budget.")
    if edit["executed"] or edit["jcache"]:
        explanations.append("The markdown edit re-executed a notebook: jupyter-cache should key notebooks on "
                            "their code cells only.")
    if explanations:
        out += ["## Targets not met", ""] + [f"- {e}" for e in explanations] + [""]
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
