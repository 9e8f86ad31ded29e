"""The Colab install cell: what it does with attnlib present and absent, that it installs from the
repository set in _config.yml, and that every chapter starts with exactly that cell."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from IPython.core.inputtransformer2 import TransformerManager
from packaging.requirements import Requirement

from attnbook import colab
from tests._project import ROOT, pyproject, repository_url

CHAPTERS = sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))
REPO_URL = repository_url()
CELL = colab.install_cell(REPO_URL)

# Stands in for IPython in the executed cell: records every line magic instead of running it.
_FAKE_IPYTHON = """
calls = []
class _Shell:
    def run_line_magic(self, name, line):
        calls.append([name, line])
def get_ipython():
    return _Shell()
"""


def _run_cell(*, attnlib_importable: bool, tmp_path: Path) -> list[list[str]]:
    """Execute the cell's Python form (as IPython would run it) in a fresh interpreter and return
    the magics it ran. ``-S`` (no site-packages, so no editable attnlib) makes attnlib unfindable;
    otherwise the interpreter is the one that has attnlib installed."""
    code = _FAKE_IPYTHON + TransformerManager().transform_cell(CELL) + "\nimport json; print(json.dumps(calls))\n"
    flags = ["-S"] if not attnlib_importable else []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, *flags, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                         text=True, check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_cell_does_nothing_where_attnlib_is_installed(tmp_path: Path) -> None:
    assert _run_cell(attnlib_importable=True, tmp_path=tmp_path) == []


def test_cell_installs_attnlib_from_the_repository_where_it_is_missing(tmp_path: Path) -> None:
    calls = _run_cell(attnlib_importable=False, tmp_path=tmp_path)
    assert len(calls) == 1, calls
    magic, line = calls[0]
    assert magic == "pip"
    args = shlex.split(line)  # %pip hands its line to a shell: the requirement must be one argument
    assert args[0] == "install" and len([a for a in args if not a.startswith("-")]) == 2, args
    req = Requirement(args[-1])
    assert req.name == "attnlib"
    assert req.url == f"git+{REPO_URL.rstrip('/')}"
    assert req.extras == set(colab.EXTRAS)


def test_extras_exist_in_pyproject() -> None:
    extras = pyproject()["optional-dependencies"]
    assert set(colab.EXTRAS) <= set(extras), f"colab.EXTRAS {colab.EXTRAS} not all in pyproject extras {sorted(extras)}"


def test_cell_is_tiny() -> None:
    assert len(CELL.splitlines()) == 3, CELL


def test_repository_url_is_set_once_in_config() -> None:
    config_text = (ROOT / "_config.yml").read_text(encoding="utf-8")
    assert REPO_URL.startswith("https://github.com/"), REPO_URL
    assert config_text.count(REPO_URL) == 1, "the repository URL must appear once in _config.yml"
    assert REPO_URL in CELL


@pytest.mark.parametrize(
    ("url", "error"),
    [(None, TypeError), ("http://github.com/o/r", ValueError), ("https://github.com/o/r?x=1", ValueError),
     ('https://github.com/o/r" && rm -rf ~', ValueError), ("https://github.com", ValueError), ("", ValueError)],
)
def test_requirement_rejects_bad_urls(url: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="repo_url"):
        colab.requirement(url)  # type: ignore[arg-type]


def test_requirement_drops_a_trailing_slash_and_names_extras() -> None:
    assert colab.requirement("https://github.com/o/r/") == "attnlib[viz,widgets] @ git+https://github.com/o/r"
    assert colab.requirement("https://github.com/o/r", extras=()) == "attnlib @ git+https://github.com/o/r"
    with pytest.raises(ValueError, match="extras"):
        colab.requirement("https://github.com/o/r", extras=("Viz!",))


def test_there_are_chapters() -> None:
    assert CHAPTERS, "no book/NN_*.ipynb chapters found"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_every_chapter_starts_with_the_install_cell(path: Path) -> None:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    assert code and code[0] == CELL, (
        f"{path.name}: the first code cell must be exactly the Colab install cell "
        f"(attnbook.colab.install_cell). Add it and re-run the chapter: 'python -m tools.colab_cell book/{path.name}', then 'make execute NB=book/{path.name}'."
    )
