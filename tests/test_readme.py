"""The README's links follow the repository URL set once in _config.yml, and it explains the four
ways to read the book."""

from __future__ import annotations

import re

from attnbook.colab import requirement
from tests._project import ROOT, repository_url

README = (ROOT / "README.md").read_text(encoding="utf-8")


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


def _layout_block() -> str:
    start = README.index("## Layout")
    return README[start:README.index("```\n", README.index("```", start) + 3)]


def _named(name: str, block: str) -> bool:
    return re.search(rf"(?<![\w/.]){re.escape(name)}(?![\w])", block) is not None


def test_the_layout_names_every_top_level_folder_and_module() -> None:
    """Every top-level folder and file of the repository, and every module and sub-package of attnlib,
    attnbook, bookdev and tools, is named in the README's layout."""
    import subprocess

    block = _layout_block()
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    top = sorted({t.split("/")[0] for t in tracked})
    missing = [t for t in top if not _named(t.rstrip("/"), block)]
    for package in ("attnlib", "attnbook", "bookdev", "tools"):
        for path in sorted((ROOT / package).iterdir()):
            name = path.stem if path.suffix == ".py" else path.name
            if name in ("__init__", "__pycache__") or (path.is_file() and path.suffix != ".py"):
                continue
            if not _named(name, block):
                missing.append(f"{package}/{path.name}")
    assert not missing, f"the README's layout does not name: {missing}"


def test_the_layout_test_fails_on_a_missing_module() -> None:
    block = _layout_block().replace("lookup", "l00kup")
    assert not _named("lookup", block) and _named("decoding", block)
