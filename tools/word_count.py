"""Words a reader meets in each numbered chapter, against the course's budgets.

Every word of every markdown cell counts, dropdowns and admonitions included (a folded block is
still on the page). Code, its output, headings' ``#`` marks and MyST targets such as
``(label)=`` do not. A word is a run of characters between spaces that holds a letter or a digit,
so a formula such as ``$\\sqrt{d_k}$`` is one word and a lone dash or bullet is none.

Budgets (issue 34): no chapter above 2,000 words; the chapters before the part captioned
"Implementation" at most 10,000 together; all numbered chapters at most 28,000 together. The parts
and their order come from ``_toc.yml``.

    python -m tools.word_count          # table and totals; exit status 1 above a budget
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CHAPTER_LIMIT = 2000
BEFORE_IMPLEMENTATION_LIMIT = 10_000
TOTAL_LIMIT = 28_000
IMPLEMENTATION = "Implementation"

_WORD = re.compile(r"\S*[^\W_]\S*")
_TARGET = re.compile(r"^\s*\([\w-]+\)=\s*$", re.M)


def words(markdown: str) -> int:
    """Words in one markdown cell: MyST target lines dropped, then every spaced run with a letter or digit."""
    return len(_WORD.findall(_TARGET.sub("", markdown)))


def chapter_words(path: Path) -> int:
    """Every markdown word of one notebook, folded blocks included."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return sum(words("".join(c["source"])) for c in cells if c["cell_type"] == "markdown")


@dataclass(frozen=True)
class Chapter:
    """One numbered chapter of the table of contents, its part and its word count."""

    path: Path
    part: str
    words: int


def numbered_chapters(root: Path = ROOT) -> list[Chapter]:
    """The numbered chapters (``book/NN_*``) in reading order, from ``_toc.yml``."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    found = []
    for part in toc["parts"]:
        for entry in part.get("chapters", []):
            name = Path(entry["file"]).name
            if re.match(r"\d\d_", name):
                path = root / f"{entry['file']}.ipynb"
                found.append(Chapter(path, part["caption"], chapter_words(path)))
    return found


def words_before_implementation(chapters: list[Chapter]) -> int | None:
    """The words of the chapters before the first one of the Implementation part; ``None`` without it."""
    captions = [c.part for c in chapters]
    if IMPLEMENTATION not in captions:
        return None
    return sum(c.words for c in chapters[:captions.index(IMPLEMENTATION)])


def over_budget(chapters: list[Chapter]) -> list[str]:
    """Each budget the chapters break, as a sentence; empty when all hold."""
    problems = [f"{c.path.name}: {c.words} words (at most {CHAPTER_LIMIT})" for c in chapters
                if c.words > CHAPTER_LIMIT]
    before = words_before_implementation(chapters)
    if before is None:
        problems.append(f"no part captioned {IMPLEMENTATION!r} in _toc.yml")
        return problems
    if before > BEFORE_IMPLEMENTATION_LIMIT:
        problems.append(f"chapters before {IMPLEMENTATION!r}: {before} words (at most {BEFORE_IMPLEMENTATION_LIMIT})")
    total = sum(c.words for c in chapters)
    if total > TOTAL_LIMIT:
        problems.append(f"all numbered chapters: {total} words (at most {TOTAL_LIMIT})")
    return problems


def main() -> int:
    chapters = numbered_chapters()
    for c in chapters:
        flag = "  over" if c.words > CHAPTER_LIMIT else ""
        print(f"{c.path.name:36} {c.words:6}{flag}")
    print(f"{'before ' + IMPLEMENTATION:36} {words_before_implementation(chapters) or 0:6}  (at most {BEFORE_IMPLEMENTATION_LIMIT})")
    print(f"{'all numbered chapters':36} {sum(c.words for c in chapters):6}  (at most {TOTAL_LIMIT})")
    problems = over_budget(chapters)
    for p in problems:
        print(f"over budget: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
