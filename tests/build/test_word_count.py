"""The word counter behind the course's budgets (tools/word_count.py)."""

from __future__ import annotations

from pathlib import Path

from tools.word_count import CHAPTER_LIMIT, Chapter, chapter_words, numbered_chapters, over_budget, words


def test_words_count_prose_formulas_and_folded_blocks_but_not_targets_or_bullets() -> None:
    assert words("(scores)=\n## Scores\n\nThe score is $q \\cdot k$.") == 7
    assert words(":::{dropdown} How we know\nTwo words\n:::") == 6
    assert words("- one\n- two\n\n---") == 2


def test_a_chapter_counts_markdown_cells_only(tmp_path: Path) -> None:
    nb = tmp_path / "01_x.ipynb"
    nb.write_text('{"cells": [{"cell_type": "markdown", "source": ["# Title\\n", "three more words"]},'
                  '{"cell_type": "code", "source": ["print(1, 2, 3)"], "outputs": []}]}', encoding="utf-8")
    assert chapter_words(nb) == 4


def _ch(n: int, part: str, w: int) -> Chapter:
    return Chapter(Path(f"{n:02d}_x.ipynb"), part, w)


def test_each_budget_fails_when_broken_and_holds_at_its_limit() -> None:
    at_limit = [_ch(i, "A" if i < 5 else "Implementation", 2000) for i in range(13)] + [_ch(14, "B", 1000)]
    assert over_budget(at_limit) == []
    assert over_budget([_ch(1, "A", CHAPTER_LIMIT + 1), _ch(2, "Implementation", 10)]) == [
        "01_x.ipynb: 2001 words (at most 2000)"]
    six_before = [_ch(i, "A", 1700) for i in range(6)] + [_ch(7, "Implementation", 10)]
    assert over_budget(six_before) == ["chapters before 'Implementation': 10200 words (at most 10000)"]
    many = [_ch(i, "A" if i < 5 else "Implementation", 1950) for i in range(15)]
    assert over_budget(many) == ["all numbered chapters: 29250 words (at most 28000)"]
    assert over_budget([_ch(1, "A", 10)]) == ["no part captioned 'Implementation' in _toc.yml"]


def test_the_book_keeps_its_word_budgets() -> None:
    """Issue 34's budgets on the real book: every markdown word a reader meets, folded blocks included."""
    chapters = numbered_chapters()
    assert len(chapters) >= 19, [c.path.name for c in chapters]
    assert over_budget(chapters) == []
