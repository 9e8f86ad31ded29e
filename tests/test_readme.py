"""The docs tell the truth: the README's links follow the repository URL set once in _config.yml and
it explains the ways to read the book; ARCHITECTURE.md's layout names every folder, module and
sub-package; every make target, `python -m` command and repository path that README.md,
CONTRIBUTING.md or ARCHITECTURE.md gives exists."""

from __future__ import annotations

import re
import subprocess

import pytest

from attnbook.colab import requirement
from tests._project import ROOT, repository_url

README = (ROOT / "README.md").read_text(encoding="utf-8")
ARCHITECTURE = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
DOCS = {name: (ROOT / name).read_text(encoding="utf-8") for name in ("README.md", "CONTRIBUTING.md", "ARCHITECTURE.md")}
PACKAGES = ("attnlib", "attnbook", "bookdev", "tools")


def test_github_links_point_at_the_configured_repository() -> None:
    url = repository_url().rstrip("/")
    owner, repo = url.removeprefix("https://github.com/").split("/")
    for link in re.findall(r"https://github\.com/[^\s)>\"`]+", README):
        assert link.rstrip("/") == url or link.startswith(url + "/"), f"README links to {link}, not {url}"
    pages = re.findall(r"https://[\w-]+\.github\.io/[^\s)>]*", README)
    assert pages and all(p.rstrip("/") == f"https://{owner}.github.io/{repo}" for p in pages), pages


def test_readme_shows_the_colab_install_requirement() -> None:
    assert requirement(repository_url()) in README


def test_readme_explains_reading_online_binder_colab_and_locally() -> None:
    for heading in ("**Online.**", "**Binder**", "**Colab**", "**Live Code**", "**Locally.**"):
        assert heading in README, heading


def test_readme_says_which_chapters_have_exercises_as_the_data_does() -> None:
    from attnbook.exercises import chapters_with_exercises

    assert f"Chapters {chapters_with_exercises()} end with a few exercises" in README.replace("\n  ", " ")


def _layout_block(text: str = ARCHITECTURE) -> str:
    start = text.index("## Layout")
    return text[start:text.index("```\n", text.index("```", start) + 3)]


def _named(name: str, block: str) -> bool:
    return re.search(rf"(?<![\w/.]){re.escape(name)}(?![\w])", block) is not None


def _modules_and_subpackages(package: str) -> list[str]:
    """Every module and sub-package of ``package``, sub-packages' own modules included (chapter
    modules named by a slug, ``NN_name.py``, are covered by ``<slug>.py``)."""
    out = []
    for path in sorted((ROOT / package).rglob("*")):
        rel = path.relative_to(ROOT)
        if "__pycache__" in rel.parts or "data" in rel.parts or "vendor" in rel.parts:
            continue
        if path.is_dir() or path.suffix == ".py":
            name = path.stem
            if name == "__init__" or re.fullmatch(r"\d\d_\w+|audit_\d+", name):
                continue
            out.append(str(rel))
    return out


def test_the_layout_names_every_top_level_folder_module_and_sub_package() -> None:
    """Every top-level folder and file of the repository, and every module and sub-package of attnlib,
    attnbook, bookdev and tools (their sub-packages' modules too), is named in ARCHITECTURE.md's layout."""
    block = _layout_block()
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    missing = [t for t in sorted({t.split("/")[0] for t in tracked}) if not _named(t.rstrip("/"), block)]
    for package in PACKAGES:
        missing += [rel for rel in _modules_and_subpackages(package) if not _named(rel.rsplit("/", 1)[-1].removesuffix(".py"), block)]
    assert not missing, f"ARCHITECTURE.md's layout does not name: {missing}"


def test_the_layout_test_fails_on_a_missing_module() -> None:
    block = _layout_block().replace("lookup", "l00kup")
    assert not _named("lookup", block) and _named("decoding", block)


def _make_targets() -> set[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*):", makefile, flags=re.MULTILINE))


def _commands(text: str) -> tuple[set[str], set[str]]:
    """The make targets and the ``python -m`` modules a doc tells its reader to run."""
    targets = set(re.findall(r"`make ([a-z][\w-]*)", text)) | set(re.findall(r"^make ([a-z][\w-]*)", text, re.MULTILINE))
    modules = {m for m in re.findall(r"python -m ([\w.]+)", text) if not m.endswith(".")}  # tools.<name>: a pattern
    return targets, modules


@pytest.mark.parametrize("doc", sorted(DOCS))
def test_every_make_target_and_command_a_doc_gives_exists(doc: str) -> None:
    targets, modules = _commands(DOCS[doc])
    missing = sorted(t for t in targets if t not in _make_targets())
    for module in modules:
        if module.startswith(("tools.", "benchmarks.")) and "<" not in module:
            if not (ROOT / (module.replace(".", "/") + ".py")).exists():
                missing.append(f"python -m {module}")
    assert not missing, f"{doc} names commands that do not exist: {missing}"


def _paths(text: str) -> set[str]:
    """Repository paths a doc names in backticks or links (a placeholder such as <slug> is skipped)."""
    found = set(re.findall(r"`((?:attnlib|attnbook|bookdev|tools|tests|book|docs|benchmarks|_ext|binder)/[^`\s*<>]*)`", text))
    found |= set(re.findall(r"\]\(((?:docs|book|benchmarks)/[^)#\s]+)\)", text))
    return {p.rstrip("/.,") for p in found}


@pytest.mark.parametrize("doc", sorted(DOCS))
def test_every_path_a_doc_names_exists(doc: str) -> None:
    missing = sorted(p for p in _paths(DOCS[doc]) if not (ROOT / p).exists())
    assert not missing, f"{doc} names paths that do not exist: {missing}"


def test_the_docs_checks_find_a_stale_command_and_path() -> None:
    stale = "Run `make bench-build`, then `python -m tools.site_size`; see `attnbook/errata.py`."
    targets, modules = _commands(stale)
    assert "bench-build" in targets and "bench-build" not in _make_targets()
    assert not (ROOT / "tools" / "site_size.py").exists() and "tools.site_size" in modules
    assert "attnbook/errata.py" in _paths(stale) and not (ROOT / "attnbook/errata.py").exists()
