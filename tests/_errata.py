"""The errata's rows and their verdicts, loaded and judged once per test process: test_errata.py and
test_typed_numbers.py both read them, and judging every row runs every derivation (about 2 s)."""

from __future__ import annotations

import functools
from typing import Any

from attnbook import errata
from tests._project import ROOT


@functools.cache
def rows_and_verdicts() -> tuple[tuple[dict[str, Any], ...], dict[str, errata.Judgement]]:
    """``(rows, verdict of each row by id)`` of book/_data/errata. Shared: do not change them."""
    rows = tuple(errata.load_rows(ROOT / "book" / "_data" / "errata"))
    return rows, errata.judge_all(list(rows))
