"""Strict builds: a Sphinx warning fails the build (-W). The build renders the outputs committed with
each notebook and executes nothing (nbval, in the same `make test`, re-executes every chapter and
compares). Built in a temporary mini-book, never in the repo: one build (about 5 s), as `make site`
runs it, with ``--keep-going``, so that a build failed by a warning still writes every page."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

from tests._minibook import build, mini_book


def _chapter(heading: str) -> list:
    """A chapter: ``heading`` (markdown), a cell whose committed output differs from what running it
    would print, and a cell that would raise if it were executed."""
    cell = nbformat.v4.new_code_cell("print('fresh', 6 * 7)")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="committed 41\n")]
    cell.execution_count = 1
    broken = nbformat.v4.new_code_cell("boom = 1 / 0")
    broken.outputs, broken.execution_count = [], 2
    return [nbformat.v4.new_markdown_cell(heading), cell, broken]


def test_one_warning_fails_the_build_which_shows_the_committed_outputs_and_executes_nothing(tmp_path: Path) -> None:
    """A mini-book whose one fault is a broken reference: the build fails, and its only warning is
    that reference (so the failure is the warning's, nothing else's); the pages are still written,
    with the committed output, and no cell was executed."""
    book = mini_book(tmp_path, _chapter("# Chapter\n\nSee {ref}`no-such-label`."))
    res = build(book)
    log = res.stdout + res.stderr
    assert res.returncode != 0, "-W must turn the missing reference into a failure"
    warnings = re.findall(r"^.*WARNING: .*$", log, flags=re.MULTILINE)
    assert len(warnings) == 1 and "no-such-label" in warnings[0], log[-3000:]
    assert "Executed notebook" not in log and "ZeroDivisionError" not in log
    html = (book / "_build" / "html" / "book" / "chapter.html").read_text(encoding="utf-8")
    assert "committed 41" in html and "fresh 42" not in html
