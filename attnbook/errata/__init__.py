"""The errata: every document value or claim the book checks, judged by one written rule.

Rows live as YAML in ``book/_data/errata/<file>.yml`` (each file a list of rows; a file is named after the
lesson whose subject its rows are, or ``audit_NNN`` for the rest of document NNN's numbers).
Each row has these keys:

==================  ======================================================================================
key                 meaning
==================  ======================================================================================
``id``              short unique slug; it also names the row's derivation in ``attnbook.derivations``
``document``        "000" … "004" (the source document; CONTRIBUTING.md, "The five source documents")
``section``         where in the document
``quantity``        what is printed or claimed
``document_value``  the document's value, as a string exactly as printed
``verdict``         one of ``VERDICTS``; the test suite asserts it equals the verdict :func:`judge`
                    computes (``correct`` rows are audit-only: a document value reproduced)
``why``             (errata only) one sentence on why the document differs; its numbers must be
                    the document's own or values the page prints (``tests/book/test_typed_numbers.py``)
``cause``           (errata only) one of ``CAUSES``
``chapter``         the page that shows the check: the document's own page, ``book/document_<document>``
``label``           the MyST target (``(label)=``) on that page, next to the example
``decimals``        (optional) how many decimals to show for the computed value
``consequences``    (optional) rows for values that carry this erratum into later steps (verdict
                    ``carried``); they inherit ``INHERITED`` keys and are not counted as errata
==================  ======================================================================================

There is no code in the YAML. Each row is checked by the function registered under its ``id`` in
``attnbook.derivations``; it returns the named values the verdict rests on (``attnbook.evidence``):
the exact value, the document's own route from its printed inputs, or a finding about a claim.
:func:`judge` applies the rule (``RULE``, written on the Errata page and in CONTRIBUTING) to them.
Used in: "Errata", "Number audit".
"""

from __future__ import annotations

from ._judge import (
    Judgement,
    claim_verdict,
    classify,
    counts,
    derive,
    evaluate,
    judge,
    judge_all,
    numeric_verdict,
    printed_numbers,
)
from ._load import load_rows
from ._render import SIGNIFICANT, format_value, markdown_cell, render_errata, render_value
from ._rule import CAUSES, ERRATA_VERDICTS, INHERITED, REQUIRED, RULE, VERDICTS

# documented here, where readers and chapters import them from (the API reference links to them)
for _f in (Judgement, claim_verdict, classify, counts, derive, evaluate, judge, judge_all, numeric_verdict,
           printed_numbers, load_rows, format_value, render_errata, render_value):
    _f.__module__ = __name__

__all__ = ["CAUSES", "ERRATA_VERDICTS", "INHERITED", "REQUIRED", "RULE", "SIGNIFICANT", "VERDICTS", "Judgement",
           "claim_verdict", "classify", "counts", "derive", "evaluate", "format_value", "judge", "judge_all",
           "load_rows", "markdown_cell", "numeric_verdict", "printed_numbers", "render_errata", "render_value"]
