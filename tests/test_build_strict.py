"""Strict builds: a notebook that raises fails the build and the message names the notebook and the
cell; a Sphinx warning fails it too (-W). Built in a temporary mini-book, never in the repo."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
JB = Path(sys.executable).with_name("jupyter-book")


def _mini_book(tmp: Path, cells: list) -> Path:
    (tmp / "book").mkdir()
    shutil.copy(ROOT / "_config.yml", tmp)
    shutil.copy(ROOT / "book" / "references.bib", tmp / "book")  # _config.yml names it (bibtex_bibfiles)
    shutil.copytree(ROOT / "_ext", tmp / "_ext")
    (tmp / "node_modules").symlink_to(ROOT / "node_modules")  # the front-end assets the site serves
    (tmp / "book" / "intro.md").write_text("# Mini book\n", encoding="utf-8")
    (tmp / "_toc.yml").write_text("format: jb-book\nroot: book/intro\nchapters:\n  - file: book/chapter\n")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = cells
    nbformat.write(nb, tmp / "book" / "chapter.ipynb")
    return tmp


def _build(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(JB), "build", "-W", "-n", "--keep-going", str(path)],
                          capture_output=True, text=True, timeout=600)


def test_a_raising_cell_fails_the_build_and_is_named(tmp_path: Path) -> None:
    book = _mini_book(tmp_path, [nbformat.v4.new_markdown_cell("# Chapter"),
                                 nbformat.v4.new_code_cell("ok = 1"),
                                 nbformat.v4.new_code_cell("boom = 1 / 0  # the broken cell")])
    res = _build(book)
    log = res.stdout + res.stderr
    assert res.returncode != 0, "a notebook that raises must fail the build"
    assert "chapter.ipynb" in log, "the message must name the notebook"
    assert "boom = 1 / 0  # the broken cell" in log, "the message must show the failing cell"
    assert "ZeroDivisionError" in log


def test_a_warning_fails_the_build(tmp_path: Path) -> None:
    book = _mini_book(tmp_path, [nbformat.v4.new_markdown_cell("# Chapter\n\nSee {ref}`no-such-label`."),
                                 nbformat.v4.new_code_cell("print(1)")])
    res = _build(book)
    assert res.returncode != 0, "-W must turn the missing reference into a failure"
    assert "no-such-label" in res.stdout + res.stderr


def test_a_clean_mini_book_builds(tmp_path: Path) -> None:
    book = _mini_book(tmp_path, [nbformat.v4.new_markdown_cell("# Chapter"), nbformat.v4.new_code_cell("print(1)")])
    res = _build(book)
    assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]
    assert (book / "_build" / "html" / "book" / "chapter.html").exists()
