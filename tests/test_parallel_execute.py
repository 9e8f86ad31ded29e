"""`make site` executes the chapters missing from myst-nb's jupyter-cache with jupyter-cache's own
command line (jcache, two at a time) before the build: the build then renders them from the cache
without executing them again, and a failing notebook still fails the build with its name and cell.
Built in a temporary mini-book with the repository's Makefile, never in the repo."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import yaml

from ._minibook import mini_book
from ._project import ROOT, config


def _book(tmp: Path, chapters: dict[str, list]) -> Path:
    """The strict-build mini-book (config, _ext, front-end assets) and the Makefile, one notebook per chapter."""
    mini_book(tmp, [])
    (tmp / "book" / "chapter.ipynb").unlink()
    shutil.copy(ROOT / "Makefile", tmp)
    toc = "format: jb-book\nroot: book/intro\nchapters:\n" + "".join(f"  - file: book/{c}\n" for c in chapters)
    (tmp / "_toc.yml").write_text(toc, encoding="utf-8")
    for name, cells in chapters.items():
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nb.cells = [nbformat.v4.new_markdown_cell(f"# {name}"), *cells]
        nbformat.write(nb, tmp / "book" / f"{name}.ipynb")
    return tmp


def _make_site(book: Path) -> subprocess.CompletedProcess:
    """`make site` with this interpreter's environment, skipping the venv and npm set-up steps."""
    return subprocess.run(["make", "--no-print-directory", "site", f"BIN={Path(sys.executable).parent}",
                           "STAMP=", "NPM_STAMP="], cwd=book, capture_output=True, text=True, timeout=900)


def test_notebooks_are_executed_by_jcache_and_rendered_from_the_cache(tmp_path: Path) -> None:
    book = _book(tmp_path, {"one": [nbformat.v4.new_code_cell("print('first chapter', 6 * 7)")],
                            "two": [nbformat.v4.new_code_cell("print('second chapter', 2 ** 10)")]})
    res = _make_site(book)
    log = res.stdout + res.stderr
    assert res.returncode == 0, log[-3000:]
    found = re.search(r"succeeded:\n((?:- .*\n)*)", log)
    assert found and found.group(1).count("\n") >= 1, log[-3000:]
    # the build renders from the cache what jcache executed and cached, and executes only the rest
    # (a notebook jcache could not run or cache on an overloaded machine): each notebook once
    from_cache, executed = log.count("Using cached notebook"), log.count("Executed notebook in")
    assert from_cache >= 1 and from_cache + executed == 2, log[-3000:]
    html = (book / "_build" / "html" / "book" / "two.html").read_text(encoding="utf-8")
    assert "second chapter 1024" in html
    # a second run executes nothing
    again = _make_site(book)
    assert again.returncode == 0 and "succeeded: []" in again.stdout + again.stderr, (again.stdout + again.stderr)[-3000:]


def test_a_failing_notebook_still_fails_the_build_with_its_name(tmp_path: Path) -> None:
    book = _book(tmp_path, {"good": [nbformat.v4.new_code_cell("print('fine')")],
                            "broken": [nbformat.v4.new_code_cell("boom = 1 / 0  # the broken cell")]})
    res = _make_site(book)
    log = res.stdout + res.stderr
    assert res.returncode != 0
    assert "broken.ipynb" in log and "boom = 1 / 0  # the broken cell" in log and "ZeroDivisionError" in log


def test_the_step_uses_the_books_execution_timeout() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    timeout = re.search(r"^EXEC_TIMEOUT := (\d+)$", makefile, re.M)
    assert timeout and int(timeout.group(1)) == config()["execute"]["timeout"], "EXEC_TIMEOUT != execute.timeout"
    assert "parallel_execute" not in yaml.safe_dump(config()), "the Sphinx hook is gone: jcache executes"
