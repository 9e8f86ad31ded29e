"""Strict builds: a notebook that raises fails the build and the message names the notebook and the
cell; a Sphinx warning fails it too (-W). Built in a temporary mini-book, never in the repo."""

from __future__ import annotations

from pathlib import Path

import nbformat

from ._minibook import build, mini_book


def test_a_raising_cell_fails_the_build_and_is_named(tmp_path: Path) -> None:
    book = mini_book(tmp_path, [nbformat.v4.new_markdown_cell("# Chapter"),
                                 nbformat.v4.new_code_cell("ok = 1"),
                                 nbformat.v4.new_code_cell("boom = 1 / 0  # the broken cell")])
    res = build(book)
    log = res.stdout + res.stderr
    assert res.returncode != 0, "a notebook that raises must fail the build"
    assert "chapter.ipynb" in log, "the message must name the notebook"
    assert "boom = 1 / 0  # the broken cell" in log, "the message must show the failing cell"
    assert "ZeroDivisionError" in log


def test_a_warning_fails_thebuild(tmp_path: Path) -> None:
    book = mini_book(tmp_path, [nbformat.v4.new_markdown_cell("# Chapter\n\nSee {ref}`no-such-label`."),
                                 nbformat.v4.new_code_cell("print(1)")])
    res = build(book)
    assert res.returncode != 0, "-W must turn the missing reference into a failure"
    assert "no-such-label" in res.stdout + res.stderr


def test_a_clean_mini_book_builds(tmp_path: Path) -> None:
    book = mini_book(tmp_path, [nbformat.v4.new_markdown_cell("# Chapter"), nbformat.v4.new_code_cell("print(1)")])
    res = build(book)
    assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]
    assert (book / "_build" / "html" / "book" / "chapter.html").exists()
