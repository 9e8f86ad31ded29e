"""Strict builds: a Sphinx warning fails the build (-W). The build renders the outputs committed with
each notebook and executes nothing (nbval, in the same `make test`, re-executes every chapter and
compares). Built in a temporary mini-book, never in the repo."""

from __future__ import annotations

from pathlib import Path

import nbformat

from ._minibook import build, mini_book


def test_the_build_shows_the_committed_outputs_and_executes_nothing(tmp_path: Path) -> None:
    cell = nbformat.v4.new_code_cell("print('fresh', 6 * 7)")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="committed 41\n")]
    cell.execution_count = 1
    broken = nbformat.v4.new_code_cell("boom = 1 / 0")  # would fail the build if it were executed
    broken.outputs, broken.execution_count = [], 2
    book = mini_book(tmp_path, [nbformat.v4.new_markdown_cell("# Chapter"), cell, broken])
    res = build(book)
    log = res.stdout + res.stderr
    assert res.returncode == 0, log[-3000:]
    assert "Executed notebook" not in log and "ZeroDivisionError" not in log
    html = (book / "_build" / "html" / "book" / "chapter.html").read_text(encoding="utf-8")
    assert "committed 41" in html and "fresh 42" not in html


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
