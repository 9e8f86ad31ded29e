"""Every chapter runs where readers run it: on Binder and on Colab.

Each environment is made from its own files alone, in a fresh virtual environment, and cached under
``~/.cache/attnbook-envs/`` (or ``$ATTNBOOK_ENVS``) by the hash of those files:

- **Binder**: ``binder/requirements.txt`` (its CPU-index line dropped: pip's own configuration finds
  the CPU build of torch, the local wheel here, the CPU index in CI), then ``binder/postBuild`` as
  repo2docker runs it (``pip install --no-deps -e .``), plus ``ipykernel``, which repo2docker's base
  image provides. Every notebook of ``book/`` runs from ``book/``, as in a Binder session.
- **Colab-like**: a plain Python with what Colab preinstalls that the book uses (numpy, matplotlib,
  torch, at the root ``requirements.txt`` pins, and ``ipykernel``), then only what the install cell
  installs: ``attnlib[viz,widgets]`` (``attnbook.colab.requirement``) from this checkout instead of
  the git URL, not editable, as pip installs it from git. Every chapter (``book/NN_*.ipynb``) runs
  alone in an empty folder, as Colab opens one notebook without the repository around it.

Slow (two environments with torch, every chapter twice): ``make test-envs`` and its own job in
``.github/workflows/tests.yml``, not ``make test``. A failing cell fails its chapter's test.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from attnbook.colab import EXTRAS, PACKAGE
from tests._project import ROOT

CACHE = Path(os.environ.get("ATTNBOOK_ENVS", Path.home() / ".cache" / "attnbook-envs"))
NOTEBOOKS = sorted((ROOT / "book").glob("*.ipynb"))
CHAPTERS = [nb for nb in NOTEBOOKS if nb.name[:2].isdigit()]
COLAB_PREINSTALLED = ("numpy", "matplotlib", "torch")
KERNEL = "ipykernel"  # Binder's and Colab's Jupyter runs the notebooks on it
CELL_TIMEOUT = 600


def _digest(files: list[Path], extra: str = "") -> str:
    h = hashlib.sha256(extra.encode())
    for path in files:
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _pip(env: Path, *args: str, cwd: Path = ROOT) -> None:
    subprocess.run([str(env / "bin" / "python"), "-m", "pip", "install", "--progress-bar", "off", "-q", *args],
                   cwd=cwd, check=True, timeout=1800)


def _fresh_env(name: str, files: list[Path], build) -> Path:  # noqa: ANN001
    """The environment ``name`` for this hash of ``files``: made by ``build(path)`` in a fresh venv
    if it is not cached yet (a half-made one is never reused: it is renamed into place at the end)."""
    env = CACHE / f"{name}-{_digest(files)}"
    if (env / "bin" / "python").exists():
        return env
    tmp = CACHE / f".{env.name}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(tmp)], check=True)
    build(tmp)
    for stale in CACHE.glob(f"{name}-*"):  # older hashes of the same environment
        shutil.rmtree(stale, ignore_errors=True)
    tmp.rename(env)
    return env


def _binder_requirements(tmp: Path) -> Path:
    """binder/requirements.txt without its index option line."""
    lines = (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8").splitlines()
    kept = [ln for ln in lines if not ln.strip().startswith("--extra-index-url")]
    assert len(kept) == len(lines) - 1, "binder/requirements.txt should have exactly one index line"
    out = tmp / "binder-requirements.txt"
    out.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return out


def _source(tmp: Path) -> Path:
    """What ``pip install git+URL`` builds from: the package's files in a folder of their own (pip
    builds a local folder in place, and its build/ must not land in the repository)."""
    src = tmp / "attnlib-src"
    for name in ("pyproject.toml", "README.md"):
        src.mkdir(exist_ok=True)
        shutil.copy(ROOT / name, src / name)
    for package in ("attnlib", "attnbook"):
        shutil.copytree(ROOT / package, src / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return src


def _root_pin(name: str) -> str:
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line.split("==")[0].strip().lower() == name:
            return line.strip()
    raise AssertionError(f"{name} is not pinned in requirements.txt")


@pytest.fixture(scope="session")
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = [ROOT / "binder" / f for f in ("requirements.txt", "postBuild", "runtime.txt")] + [ROOT / "pyproject.toml"]

    def build(env: Path) -> None:
        _pip(env, "-r", str(_binder_requirements(tmp_path_factory.mktemp("binder"))), KERNEL)

    env = _fresh_env("binder", files, build)
    # postBuild, as repo2docker runs it: from the repository root, with the environment's python first.
    # Every session, not only when the environment is made: its editable install points the cached
    # environment at this checkout (another checkout may have made the cache and pointed it there).
    path = f"{env / 'bin'}{os.pathsep}{os.environ['PATH']}"
    subprocess.run(["bash", str(ROOT / "binder" / "postBuild")], cwd=ROOT, check=True, timeout=600,
                   env={**os.environ, "PATH": path, "VIRTUAL_ENV": str(env)})
    return env


@pytest.fixture(scope="session")
def colab_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = [ROOT / "requirements.txt", ROOT / "pyproject.toml", ROOT / "attnbook" / "colab.py"]

    def build(env: Path) -> None:
        _pip(env, *(_root_pin(n) for n in COLAB_PREINSTALLED), KERNEL)
        src = _source(tmp_path_factory.mktemp("colab-deps"))
        _pip(env, f"{src}[{','.join(EXTRAS)}]")  # the install cell's requirement, with its dependencies

    env = _fresh_env("colab", files, build)
    # attnlib itself as it is now, not editable (as pip installs it from git): a fresh copy every session
    _pip(env, "--no-deps", "--force-reinstall", str(_source(tmp_path_factory.mktemp("colab-install"))))
    return env


def _run(nb_path: Path, env: Path, cwd: Path, kernels: Path) -> None:
    """Execute ``nb_path`` in ``cwd`` on a kernel started by the environment's own python."""
    spec = kernels / "kernels" / env.name
    spec.mkdir(parents=True, exist_ok=True)
    kernel = {"argv": [str(env / "bin" / "python"), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
              "display_name": env.name, "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel), encoding="utf-8")
    nb = nbformat.read(nb_path, as_version=4)
    client = NotebookClient(nb, kernel_name=env.name, timeout=CELL_TIMEOUT, resources={"metadata": {"path": str(cwd)}})
    client.execute()  # raises CellExecutionError naming the cell and the error


def _imports_outside(env: Path, package: str) -> str:
    code = f"import {package}, pathlib; print(pathlib.Path({package}.__file__).resolve())"
    return subprocess.run([str(env / "bin" / "python"), "-c", code], cwd="/", capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.fixture()
def kernels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    return tmp_path


def test_binder_env_uses_the_checkout_and_colab_env_an_installed_copy(binder_env: Path, colab_env: Path) -> None:
    # Binder: postBuild's editable install points at the repository; Colab: a copy in site-packages
    assert _imports_outside(binder_env, PACKAGE).startswith(str(ROOT))
    assert "site-packages" in _imports_outside(colab_env, PACKAGE)
    assert "site-packages" in _imports_outside(colab_env, "attnbook")


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_on_binder(binder_env: Path, kernels: Path, nb_path: Path) -> None:
    _run(nb_path, binder_env, nb_path.parent, kernels)


@pytest.mark.parametrize("nb_path", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_runs_on_colab(colab_env: Path, kernels: Path, tmp_path: Path, nb_path: Path) -> None:
    alone = tmp_path / "content"  # the notebook alone, without the repository around it
    alone.mkdir()
    shutil.copy(nb_path, alone / nb_path.name)
    _run(alone / nb_path.name, colab_env, alone, kernels)
