"""One reading order: every chapter's "What's next" links first to the page that comes next in
_toc.yml, so that renumbering or moving a chapter cannot leave a stale pointer behind."""

from __future__ import annotations

import json
import re

import pytest

from tests._project import ROOT, toc

ORDER = [toc()["root"]] + [c["file"] for part in toc()["parts"] for c in part["chapters"]]
CHAPTERS = [f for f in ORDER if re.fullmatch(r"book/\d\d_\w+", f)]
LINK = re.compile(r"\{doc\}`(?:[^`<]*<)?([\w./]+?)>?`|\]\(([\w./]+?)\.(?:ipynb|md)(?:#[\w-]*)?\)")


def _whats_next(path) -> str:  # noqa: ANN001
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = next("".join(c["source"]) for c in cells if c["cell_type"] == "markdown" and "## What's next" in "".join(c["source"]))
    return text.split("## What's next", 1)[1]


@pytest.mark.parametrize("page", CHAPTERS)
def test_whats_next_points_to_the_next_page_of_the_toc(page: str) -> None:
    following = ORDER[ORDER.index(page) + 1]
    links = [a or b for a, b in LINK.findall(_whats_next(ROOT / f"{page}.ipynb"))]
    assert links, f"{page}: its What's next links to no page; the next page is {following}"
    assert "book/" + links[0].removeprefix("book/") == following, (page, links, following)


def test_the_rule_finds_a_stale_pointer() -> None:
    assert [a or b for a, b in LINK.findall("Next: {doc}`11_pytorch`, then [x](12_numpy_scratch.ipynb).")] == [
        "11_pytorch", "12_numpy_scratch"]
