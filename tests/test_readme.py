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
