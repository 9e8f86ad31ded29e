"""_ext/parallel_execute.py executes the notebooks of a build in parallel into myst-nb's cache:
myst-nb then renders them without executing them again, and a failing notebook still fails the
build with its name and cell. Built in a temporary mini-book, never in the repo."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

from ._minibook import build, mini_book


def _book(tmp: Path, chapters: dict[str, list]) -> Path:
    """The strict-build mini-book (config, _ext, front-end assets), with one notebook per chapter."""
    mini_book(tmp, [])
    (tmp / "book" / "chapter.ipynb").unlink()
    toc = "format: jb-book\nroot: book/intro\nchapters:\n" + "".join(f"  - file: book/{c}\n" for c in chapters)
    (tmp / "_toc.yml").write_text(toc, encoding="utf-8")
    for name, cells in chapters.items():
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nb.cells = [nbformat.v4.new_markdown_cell(f"# {name}"), *cells]
        nbformat.write(nb, tmp / "book" / f"{name}.ipynb")
    return tmp


def test_notebooks_are_executed_in_parallel_and_rendered_from_the_cache(tmp_path: Path) -> None:
    book = _book(tmp_path, {"one": [nbformat.v4.new_code_cell("print('first chapter', 6 * 7)")],
                            "two": [nbformat.v4.new_code_cell("print('second chapter', 2 ** 10)")]})
    res = build(book)
    log = res.stdout + res.stderr
    assert res.returncode == 0, log[-3000:]
    lines = "\n".join(ln for ln in log.splitlines() if "notebook" in ln.lower() or "parallel" in ln.lower())
    found = re.search(r"\[parallel_execute\] executed 2 notebooks in parallel in [\d.]+ s; (\d) cached", log)
    assert found, lines
    cached = int(found.group(1))
    # every notebook the parallel step cached is rendered from the cache, never executed twice; one
    # that it could not run (a kernel that did not start on an overloaded machine) myst-nb runs itself
    assert cached >= 1, lines
    assert log.count("Using cached notebook") == cached, lines
    assert log.count("Executed notebook in") == 2 - cached, lines
    html = (book / "_build" / "html" / "book" / "two.html").read_text(encoding="utf-8")
    assert "second chapter 1024" in html


def test_a_failing_notebook_still_fails_the_build_with_its_name(tmp_path: Path) -> None:
    book = _book(tmp_path, {"good": [nbformat.v4.new_code_cell("print('fine')")],
                            "broken": [nbformat.v4.new_code_cell("boom = 1 / 0  # the broken cell")]})
    res = build(book)
    log = res.stdout + res.stderr
    assert res.returncode != 0
    assert "1 left for myst-nb to execute and report" in log
    assert "broken.ipynb" in log and "boom = 1 / 0  # the broken cell" in log and "ZeroDivisionError" in log
