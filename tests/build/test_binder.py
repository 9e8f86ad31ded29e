"""binder/ (what mybinder.org builds for the Binder and live-code buttons) stays in step with the
pinned environment: CPU torch from PyTorch's CPU index, the same pins, attnlib installed."""

from __future__ import annotations

import os
import re
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests._project import ROOT, pyproject

BINDER = ROOT / "binder"
CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def _requirements(path: Path) -> tuple[dict[str, Requirement], list[str]]:
    """Requirements by canonical name, and the option lines (``--extra-index-url ...``)."""
    reqs, options = {}, []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split(" #")[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("-"):
            options.append(line)
            continue
        req = Requirement(line)
        reqs[canonicalize_name(req.name)] = req
    return reqs, options


def _pin(req: Requirement) -> Version:
    specs = list(req.specifier)
    assert len(specs) == 1 and specs[0].operator == "==", f"{req} is not pinned with =="
    return Version(specs[0].version)


BINDER_REQS, BINDER_OPTIONS = _requirements(BINDER / "requirements.txt")
ROOT_REQS, _ = _requirements(ROOT / "requirements.txt")


def test_torch_is_the_cpu_build_from_the_cpu_index() -> None:
    assert f"--extra-index-url {CPU_INDEX}" in BINDER_OPTIONS or f"--index-url {CPU_INDEX}" in BINDER_OPTIONS
    torch = _pin(BINDER_REQS["torch"])
    assert torch.local == "cpu", f"binder pins torch {torch}; expected the +cpu build"
    assert torch.public == _pin(ROOT_REQS["torch"]).public, "binder and requirements.txt pin different torch"


def test_every_binder_pin_equals_the_root_pin() -> None:
    for name, req in BINDER_REQS.items():
        pin = _pin(req)
        if name in ROOT_REQS:
            assert pin.public == _pin(ROOT_REQS[name]).public, f"{name}: binder {pin}, requirements.txt {ROOT_REQS[name]}"


def test_attnlib_and_its_extras_dependencies_are_pinned() -> None:
    project = pyproject()
    needed = list(project["dependencies"])
    for extra in ("viz", "widgets"):
        needed += project["optional-dependencies"][extra]
    needed.append("pyyaml")  # attnbook.errata reads the errata YAML (the Errata page)
    missing = [n for n in needed if canonicalize_name(Requirement(n).name) not in BINDER_REQS]
    assert not missing, f"binder/requirements.txt lacks {missing}"


def test_postbuild_installs_attnlib_and_is_executable() -> None:
    post = BINDER / "postBuild"
    assert os.access(post, os.X_OK), "binder/postBuild must be executable (git update-index --chmod=+x)"
    text = post.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash") and "set -euo pipefail" in text
    assert re.search(r"pip install .*-e \.\s*$", text, re.M), "postBuild must pip install -e . (attnlib)"


def test_runtime_matches_ci_python() -> None:
    runtime = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    workflow = (ROOT / ".github" / "workflows" / "tests.yml").read_text(encoding="utf-8")
    version = re.search(r'python-version: "(\d+\.\d+)"', workflow).group(1)
    assert runtime == f"python-{version}", (runtime, version)
