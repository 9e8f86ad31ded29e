"""The errata rule: the verdicts, the causes, the keys of a row, and the rule's text (printed on the Errata page)."""

from __future__ import annotations

import re

VERDICTS = ("correct", "rounding", "carried", "wrong", "illustrative", "imprecise", "false claim")
#: the verdicts of rows that are errata of their own (``carried`` rows sit inside their erratum)
ERRATA_VERDICTS = ("rounding", "wrong", "illustrative", "imprecise", "false claim")
CAUSES = ("arithmetic slip", "rounded constant", "unseeded run", "made-up number", "false claim", "imprecise claim", "toy data")
REQUIRED = ("id", "document", "section", "quantity", "document_value", "verdict", "chapter", "label")
#: the keys that a consequence (a carried value inside its erratum) may leave out, since it inherits them
INHERITED = ("document", "section", "chapter", "label", "cause")
_RANK = {"correct": 0, "rounding": 1, "carried": 2, "wrong": 3}
_NUMBER = re.compile(r"-?\d+(?:\.(\d+))?")

RULE = (
    "1. **Judge the document's arithmetic on the document's own inputs.** A step is *wrong* only if it does not "
    "follow from the numbers the document itself feeds into it, at the precision it shows.",
    "2. **One slip is one erratum.** A value that differs only because an earlier erratum fed it is *carried*: it "
    "is listed inside that erratum as a consequence, with its corrected value, and is not counted again.",
    "3. **Rounding** is a value that follows from the document's own correctly rounded intermediates, or is off "
    "by at most one unit in its last printed digit. The entry names the intermediate and gives both the exact "
    "value and the value of the document's own route.",
    "4. **Illustrative** is a number or claim the document made up or did not derive (hand-picked, an unseeded "
    "run, or a claim that holds only for toy data). Checking it on our own toy data does not make it correct.",
    "5. A **false claim** is false as stated, for every reasonable reading. A statement that holds in the cases "
    "it describes and fails only at an edge is **imprecise**, and the entry shows that edge.",
    "6. Every verdict is computed by code (`attnbook.errata.judge`) from named inputs: the document's printed "
    "inputs, the value of the document's own route, and the exact value. The values are printed, none typed.",
)
