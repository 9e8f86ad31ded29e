"""The errata's rows and their verdicts, loaded and judged once per test process: test_errata.py and
test_typed_numbers.py both read them, and judging every row runs every derivation (about 2 s). The
rows parametrize tests, so every test process loads them when it collects; the verdicts are judged
when a test first asks for them, so only a process that runs such a test pays for them."""

from __future__ import annotations

import functools
from typing import Any

from attnbook import errata
from tests._project import ROOT


@functools.cache
def rows() -> tuple[dict[str, Any], ...]:
    """The rows of book/_data/errata. Shared: do not change them."""
    return tuple(errata.load_rows(ROOT / "book" / "_data" / "errata"))


@functools.cache
def verdicts() -> dict[str, errata.Judgement]:
    """The verdict of each row of :func:`rows`, by id. Shared: do not change them."""
    return errata.judge_all(list(rows()))
