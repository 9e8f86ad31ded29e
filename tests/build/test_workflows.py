"""The GitHub Actions workflows: tests.yml runs `make test`, book.yml builds and deploys the site;
both with least-privilege permissions, actions pinned to commit SHAs, path filters and
concurrency that cancels superseded runs."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests._project import ROOT

WORKFLOWS = ROOT / ".github" / "workflows"
FILES = sorted(WORKFLOWS.glob("*.yml"))
READ_ONLY = {"contents": "read"}
PAGES = {"pages": "write", "id-token": "write"}


def _load(name: str) -> dict[str, Any]:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as True
    return data


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """GitHub's path-filter glob: ``**`` crosses folders, ``*`` and ``?`` do not."""
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out)


def _triggers(event: dict[str, Any] | None, changed: list[str]) -> bool:
    """Would a push/pull_request ``event`` with these ``changed`` files start the workflow?"""
    event = event or {}
    if "paths" in event:
        return any(_glob_regex(p).fullmatch(f) for p in event["paths"] for f in changed)
    ignore = event.get("paths-ignore", [])
    return any(not any(_glob_regex(p).fullmatch(f) for p in ignore) for f in changed)


def _steps(workflow: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for job in workflow["jobs"].values() for s in job.get("steps", [])]


def test_the_two_workflows_exist() -> None:
    assert {p.name for p in FILES} >= {"tests.yml", "book.yml"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_sha_with_its_release_named(path: Path) -> None:
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if re.match(r"\s*-?\s*uses:", ln)]
    assert lines, f"{path.name} uses no actions?"
    for line in lines:
        m = re.fullmatch(r"-?\s*uses:\s*([\w.-]+/[\w./-]+)@(\S+)\s*(#\s*(v\d+\.\d+\.\d+))?", line)
        assert m, f"{path.name}: cannot parse {line!r}"
        assert re.fullmatch(r"[0-9a-f]{40}", m.group(2)), f"{path.name}: {m.group(1)} is not pinned to a SHA: {line}"
        assert m.group(4), f"{path.name}: name the release after the SHA (`# vX.Y.Z`): {line}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_least_privilege_permissions(path: Path) -> None:
    wf = _load(path.name)
    assert wf.get("permissions") == READ_ONLY, f"{path.name}: top-level permissions must be {READ_ONLY}"
    for name, job in wf["jobs"].items():
        perms = job.get("permissions", READ_ONLY)
        assert isinstance(perms, dict), f"{path.name}/{name}: permissions must be an explicit mapping"
        writes = {k for k, v in perms.items() if v == "write"}
        if writes:
            assert path.name == "book.yml" and name == "deploy" and perms == PAGES, (
                f"{path.name}/{name} asks for write access {perms}: only book.yml's deploy job may, "
                f"and only {PAGES}"
            )


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_concurrency_cancels_superseded_runs(path: Path) -> None:
    wf = _load(path.name)
    conc = wf.get("concurrency")
    assert isinstance(conc, dict) and conc.get("cancel-in-progress") is True, f"{path.name}: {conc}"
    assert "github.workflow" in conc["group"] and "github.ref" in conc["group"], conc["group"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_jobs_have_timeouts(path: Path) -> None:
    for name, job in _load(path.name)["jobs"].items():
        assert isinstance(job.get("timeout-minutes"), int), f"{path.name}/{name} has no timeout-minutes"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_checkout_does_not_keep_credentials(path: Path) -> None:
    for step in _steps(_load(path.name)):
        if step.get("uses", "").startswith("actions/checkout@"):
            assert step.get("with", {}).get("persist-credentials") is False, f"{path.name}: {step}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_path_filters_skip_prose_only_changes_but_not_code(path: Path) -> None:
    on = _load(path.name)["on"]
    events = [e for e in ("push", "pull_request") if e in on]
    assert events, f"{path.name} runs on neither push nor pull_request"
    for event in events:
        cfg = on[event] or {}
        assert "paths" in cfg or "paths-ignore" in cfg, f"{path.name}: {event} has no path filter"
        assert not _triggers(cfg, ["README.md"]), f"{path.name}: a README-only change should not run it"
        for changed in ("attnlib/softmax.py", "book/04_magnitude.ipynb", "_config.yml", "_toc.yml",
                        "book/intro.md", "Makefile", "requirements.txt", "package-lock.json", "_ext/site_assets/vendor.py"):
            assert _triggers(cfg, [changed]), f"{path.name}: a change to {changed} must run it ({event})"


def test_glob_matching_follows_github() -> None:
    assert _glob_regex("binder/**").fullmatch("binder/x/y.txt")
    assert not _glob_regex("*.md").fullmatch("book/intro.md")
    assert _glob_regex("**.md").fullmatch("book/intro.md")


def test_tests_workflow_runs_make_test_on_pushes_to_main_and_pull_requests() -> None:
    wf = _load("tests.yml")
    assert wf["on"]["push"]["branches"] == ["main"] and "pull_request" in wf["on"]
    runs = " ".join(s.get("run", "") for s in _steps(wf))
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in runs or (".ci/run" in runs and re.search(r"^make test$", ci_run, re.M)), runs
    uses = [s.get("uses", "") for s in _steps(wf)]
    assert any(u.startswith("actions/setup-python@") for u in uses)


def test_book_workflow_builds_uploads_and_deploys_pages_from_main() -> None:
    wf = _load("book.yml")
    assert wf["on"]["push"]["branches"] == ["main"] and "pull_request" not in wf["on"]
    build, deploy = wf["jobs"]["build"], wf["jobs"]["deploy"]
    runs = " ".join(s.get("run", "") for s in build["steps"])
    assert "make site" in runs or "make book" in runs, runs
    pages = [s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@")]
    assert pages and pages[0]["with"]["path"] == "_build/html"
    reports = [s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert reports and reports[0].get("if") == "failure()", "upload the build reports when the build fails"
    assert "_build/html/reports" in reports[0]["with"]["path"]
    assert deploy["needs"] == "build" and "refs/heads/main" in deploy["if"]
    assert deploy["environment"]["name"] == "github-pages"
    assert [s["uses"].split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]


def test_a_benchmark_never_writes_what_the_book_prints() -> None:
    """make bench writes its results beside itself; the chapters print only committed snapshots, so a
    benchmark run cannot change what nbval compares."""
    source = (ROOT / "benchmarks" / "bench_attention.py").read_text(encoding="utf-8")
    tile_out = re.search(r"^TILE_OUT = (.+)$", source, re.M)
    assert tile_out and '"book"' not in tile_out.group(1) and '"results"' in tile_out.group(1), tile_out
    writes = re.findall(r"(\w+(?:\.\w+)*)\.write_text\(", source)
    assert writes and not any("BOOK" in w or "book" in w for w in writes), writes


def test_the_tests_workflow_gives_the_browser_tests_the_runners_chrome_and_make_installs_none(tmp_path: Path) -> None:
    """tests.yml points $CHROMIUM at the runner's Chrome before `make test`, and with $CHROMIUM set
    `make browser-deps` (a prerequisite of make test) installs nothing, even with CI=true: an apt-get
    or sudo it ran would be the fakes put first on its PATH here, which record the call."""
    runs = [s.get("run", "") for s in _steps(_load("tests.yml"))]
    chrome = [i for i, r in enumerate(runs) if re.search(r"CHROMIUM=\$\(command -v google-chrome\)\S*\s*>>\s*\"?\$GITHUB_ENV", r)]
    test = [i for i, r in enumerate(runs) if ".ci/run" in r or "make test" in r]
    assert chrome and test and chrome[0] < test[0], runs
    calls = tmp_path / "calls"
    for fake in ("apt-get", "sudo"):
        (tmp_path / fake).write_text(f'#!/bin/sh\necho "{fake} $*" >> {calls}\n')
        (tmp_path / fake).chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}", "CI": "true", "CHROMIUM": "/opt/google/chrome/chrome"}
    proc = subprocess.run(["make", "--no-print-directory", "browser-deps"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0 and not calls.exists(), proc.stdout + proc.stderr
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "installed with apt in CI" not in makefile and "runner's Google Chrome" in makefile
