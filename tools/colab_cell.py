"""Insert (or update) the Colab install cell as the first code cell of chapters.

    .venv/bin/python -m tools.colab_cell book/05_softmax.ipynb [...]     (then: make execute NB=...)

The cell's text comes from ``attnbook.colab.install_cell`` with ``repository.url`` of _config.yml.
A first code cell that already checks ``find_spec("attnlib")`` is replaced; otherwise the cell is
inserted before the first code cell. Re-run the chapter afterwards (``make execute NB=...``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import yaml

from attnbook.colab import PACKAGE, install_cell

ROOT = Path(__file__).resolve().parents[1]


def repository_url() -> str:
    """``repository.url`` of _config.yml: the one place the URL is set."""
    return yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"]["url"]


def add_cell(path: Path, source: str) -> str:
    """Make ``source`` the first code cell of the notebook at ``path``; return what was done."""
    nb = nbformat.read(path, as_version=4)
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    if code and nb.cells[code[0]].source == source:
        return "already there"
    cell = nbformat.v4.new_code_cell(source)  # a fresh random cell id (nbformat >= 4.5)
    if (nb.nbformat, nb.nbformat_minor) < (4, 5):
        cell.pop("id", None)
    if code and f'find_spec("{PACKAGE}")' in nb.cells[code[0]].source:
        nb.cells[code[0]] = cell
        action = "updated"
    else:
        nb.cells.insert(code[0] if code else len(nb.cells), cell)
        action = "inserted"
    nbformat.validator.normalize(nb)
    nbformat.write(nb, path)
    return action


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    source = install_cell(repository_url())
    for name in argv:
        print(f"{name}: {add_cell(Path(name), source)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
