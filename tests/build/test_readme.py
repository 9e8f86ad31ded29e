"""The docs tell the truth: the README's links follow the repository URL set once in _config.yml and
it explains the ways to read the book; ARCHITECTURE.md's layout names every folder, module and
sub-package; every make target, `python -m` command, repository path and relative link that the docs
give exists (README.md, CONTRIBUTING.md, ARCHITECTURE.md, binder/README.md, docs/notes/*.md,
benchmarks/*.md and the Makefile's comments), and every command they give is one the repository or
its requirements provide."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from attnbook.colab import requirement
from tests._project import ROOT, repository_url

README = (ROOT / "README.md").read_text(encoding="utf-8")
ARCHITECTURE = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
DOCS = {name: (ROOT / name).read_text(encoding="utf-8") for name in ("README.md", "CONTRIBUTING.md", "ARCHITECTURE.md")}
_MAKEFILE_COMMENTS = "\n".join(ln.lstrip("# ") for ln in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
                               if ln.startswith("#"))
ALL_DOCS = {**DOCS, "Makefile (comments)": _MAKEFILE_COMMENTS,
            **{p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
               for p in [ROOT / "binder" / "README.md", *sorted((ROOT / "docs" / "notes").glob("*.md")),
                         *sorted((ROOT / "benchmarks").glob("*.md"))]}}
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


@pytest.mark.parametrize("doc", sorted(ALL_DOCS))
def test_every_make_target_and_command_a_doc_gives_exists(doc: str) -> None:
    targets, modules = _commands(ALL_DOCS[doc])
    missing = sorted(t for t in targets if t not in _make_targets())
    for module in modules:
        if module.startswith(("tools.", "benchmarks.")) and "<" not in module:
            if not (ROOT / (module.replace(".", "/") + ".py")).exists():
                missing.append(f"python -m {module}")
    assert not missing, f"{doc} names commands that do not exist: {missing}"


_TRACKED = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
#: Every top-level folder of the repository: a path a doc names that starts with one must exist.
TOP = sorted({t.split("/")[0] for t in _TRACKED if "/" in t})
#: What the build, npm and make setup write (not in a clone): a path in one is not checked.
GENERATED = ("_build", "node_modules", ".venv", "__pycache__")
_PLACEHOLDER = re.compile(r"[<>*{}…]|\bNNN?\b|NN_")


def _code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)


def _paths(text: str) -> set[str]:
    """Repository paths a doc names in backticks: every token with a folder in it, whatever its first
    folder (a placeholder such as <slug> is skipped, and so is a test id's ``::name``)."""
    found = {tok.split("::")[0].rstrip("/.,:;") for span in _code_spans(text) for tok in span.split()
             if re.match(r"^\.?[\w@-]+/", tok) and not _PLACEHOLDER.search(tok) and "://" not in tok}
    return {p for p in found if p and not p.startswith(GENERATED)}


def _exists(path: str) -> bool:
    """A path under a top-level folder of the repository exists there (or git ignores it: written by a
    run, such as a failed test's screenshots). Any other path is one the doc's sentence places: it
    must end a path of the repository (``errata/`` in ``attnbook/errata/``) or be a file of a pinned
    front-end package (``dist/embed-amd.js`` of ``@jupyter-widgets/html-manager``)."""
    if path.split("/")[0] in TOP:
        ignored = subprocess.run(["git", "check-ignore", "-q", path + "/"], cwd=ROOT, check=False).returncode == 0
        return (ROOT / path).exists() or ignored
    if any(t == path or t.startswith(path + "/") or f"/{path}/" in f"/{t}" or t.endswith("/" + path) for t in _TRACKED):
        return True
    modules = ROOT / "node_modules"
    if path.startswith("@"):  # an npm package (@scope/name)
        return (modules / path).is_dir()
    return any(modules.glob(f"*/{path}*")) or any(modules.glob(f"@*/*/{path}*"))


@pytest.mark.parametrize("doc", sorted(ALL_DOCS))
def test_every_path_a_doc_names_exists(doc: str) -> None:
    missing = sorted(p for p in _paths(ALL_DOCS[doc]) if not _exists(p))
    assert not missing, f"{doc} names paths that do not exist: {missing}"


@pytest.mark.parametrize("doc", sorted(p for p in ALL_DOCS if p.endswith(".md")))
def test_every_relative_link_of_a_doc_resolves_from_its_folder(doc: str) -> None:
    """As GitHub resolves them: a link in docs/notes/X.md to `benchmarks/RESULTS.md` would be broken."""
    text = re.sub(r"`[^`\n]+`", "", ALL_DOCS[doc])  # a link shown as code is an example, not a link
    links = [t.split("#")[0] for t in re.findall(r"\]\(([^)\s]+)\)", text) if not re.match(r"\w+:|#", t)]
    missing = sorted(t for t in links if not (ROOT / doc).parent.joinpath(t).exists())
    assert not missing, f"{doc} links to {missing}, which do not exist beside it"


#: What a doc may tell its reader to run: the venv's programs (the requirements' console scripts),
#: the repository's own scripts, and the standard tools the README asks for (make, git, npm, apt-get).
_STANDARD = {"make", "git", "cd", "npm", "node", "sudo", "apt-get", "python", "python3", "bash", "sh", "env",
             "export", "awk", "cat", "time", "/usr/bin/time", "grep", "pip", "chromium", "chromium-headless-shell",
             "repo2docker"}  # repo2docker: binder/README.md has it installed first (pip install jupyter-repo2docker)


def _runnable() -> set[str]:
    venv = Path(sys.executable).parent
    own = {f"./{t}" for t in _TRACKED if (ROOT / t).stat().st_mode & 0o111} | {t for t in _TRACKED if (ROOT / t).stat().st_mode & 0o111}
    return _STANDARD | {p.name for p in venv.iterdir()} | {f".venv/bin/{p.name}" for p in venv.iterdir()} | own


def _commands_run(text: str) -> set[str]:
    """The programs a doc runs: the first word of each line of a shell block, and of each code span
    that reads as a command (a word followed by an option, or a hyphenated program name and its subcommand)."""
    words = set()
    for block in re.findall(r"```(?:bash|sh|console|shell)\n(.*?)```", text, flags=re.DOTALL):
        lines = block.splitlines()
        words |= {ln.split()[0] for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")
                  and not (i and lines[i - 1].rstrip().endswith("\\"))}  # not a continued line
    for span in _code_spans(text):
        m = re.match(r"^([A-Za-z./][\w./-]*) (?:-{1,2}[\w-]|[a-z][\w-]*\b)", span)
        if m and (span.split()[1].startswith("-") or ("-" in m.group(1) and "/" not in m.group(1))):
            words.add(m.group(1))
    return {w for w in words if not re.fullmatch(r"[A-Z_]+=\S*", w)}


#: Tools of the machines this book was written on, which neither the repository nor its requirements
#: provide: a doc that names one tells a newcomer to run what they do not have.
_NOT_PROVIDED = re.compile(r"farm-\w+|`duplicates`|`issues`|\.library\b|shared/seeds/")


@pytest.mark.parametrize("doc", sorted(ALL_DOCS))
def test_every_command_a_doc_runs_is_provided(doc: str) -> None:
    unknown = sorted(w for w in _commands_run(ALL_DOCS[doc]) if w not in _runnable())
    assert not unknown, f"{doc} runs commands that neither the repository nor its requirements provide: {unknown}"
    assert not _NOT_PROVIDED.search(ALL_DOCS[doc]), _NOT_PROVIDED.search(ALL_DOCS[doc])


def test_the_command_check_finds_a_missing_tool() -> None:
    text = "Measured with `farm-bench -n 2`; then\n```bash\nmake test\nfoo-tool look\n```\n"
    assert _commands_run(text) >= {"farm-bench", "make", "foo-tool"}
    assert {"make"} <= _runnable() and not {"farm-bench", "foo-tool"} & _runnable()
    assert not _exists("shared/seeds") and _exists("errata") and _exists("tests/browser/artifacts")


def test_the_docs_checks_find_a_stale_command_and_path() -> None:
    stale = "Run `make bench-build`, then `python -m tools.site_size`; see `attnbook/errata.py`."
    targets, modules = _commands(stale)
    assert "bench-build" in targets and "bench-build" not in _make_targets()
    assert not (ROOT / "tools" / "site_size.py").exists() and "tools.site_size" in modules
    assert "attnbook/errata.py" in _paths(stale) and not (ROOT / "attnbook/errata.py").exists()
