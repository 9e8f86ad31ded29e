"""Project files the tests read: _config.yml, _toc.yml, pyproject.toml (one loader each)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest depends on tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


def config() -> dict[str, Any]:
    """_config.yml (Jupyter Book)."""
    return yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))


def toc() -> dict[str, Any]:
    """_toc.yml."""
    return yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))


def repository_url() -> str:
    """``repository.url`` of _config.yml: the one place the repository URL is set."""
    return config()["repository"]["url"]


def pyproject_toml() -> dict[str, Any]:
    """The whole of pyproject.toml."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def pyproject() -> dict[str, Any]:
    """The ``[project]`` table of pyproject.toml."""
    return pyproject_toml()["project"]
