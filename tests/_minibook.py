"""A throwaway mini-book built with the repository's configuration (tests/build/test_build_strict.py):
never in the repo."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

from ._project import ROOT

JB = Path(sys.executable).with_name("jupyter-book")


def mini_book(tmp: Path, cells: list) -> Path:
    """A one-chapter book in ``tmp`` with the repository's _config.yml, _ext and front-end assets;
    the chapter is a notebook of ``cells``."""
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


def build(path: Path) -> subprocess.CompletedProcess:
    """``jupyter-book build -W -n --keep-going path``, as ``make site`` runs it."""
    return subprocess.run([str(JB), "build", "-W", "-n", "--keep-going", str(path)],
                          capture_output=True, text=True, timeout=600)
