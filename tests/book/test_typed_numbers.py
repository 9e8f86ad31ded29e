"""No computed number is typed into prose: every number in a chapter's markdown or in an erratum's
``why`` is printed or asserted by code, glued, quoted from a document, or on a short reviewed
allow-list (issue 15)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from attnbook import audit, errata
from tests._errata import rows, verdicts

ROOT = Path(__file__).resolve().parents[2]
NUMBER = re.compile(r"(?<![\w.\-])-?\d+(?:[.,]\d+)*(?![\w])")
# Reviewed exceptions: small counts and constants of the mathematics (0, 1, 2, ½ as "1/2", 10 as a base),
# the constant of the sinusoidal encoding (10000), and the year of the Transformer paper. Section numbers are skipped by context ("§4.3", "Part 4",
# "Step 3", "chapter 10"), and so are numbers inside links, MyST targets and roles.
ALLOWED = {"0", "1", "2", "10", "10000", "2017"}
CONTEXT = re.compile(r"(§|Part |Step |step |[Cc]hapter |section |Section |Listing |Appendix |line |Table )$")
STRIP = [re.compile(p) for p in (r"\]\([^)]*\)", r"\(\S+\)=", r"\{(?:glue|glue:text|ref|numref|doc)\}`[^`]*`",
                                  r"https?://\S+", r"\bfig-\S+", r"\b[A-Za-z_]+\d+\w*", r"_\{[^}]*\}", r"#\d+")]


def _numbers(text: str) -> list[tuple[str, str]]:
    for pattern in STRIP:
        text = pattern.sub(" ", text)
    return [(m.group(0), text[max(0, m.start() - 12):m.start()]) for m in NUMBER.finditer(text)]


def _canonical(token: str) -> set[str]:
    raw = token.lstrip("-").replace(",", "")
    out = {raw}
    try:
        x = float(raw)
    except ValueError:
        return out
    out |= {repr(x), f"{x:g}"}
    if x == int(x):
        out.add(str(int(x)))
    return out


def _computed(cells: list[dict]) -> set[str]:
    found: set[str] = set()
    for c in cells:
        if c["cell_type"] != "code":
            continue
        texts = ["".join(c["source"])]
        for o in c.get("outputs", []):
            texts.append("".join(o.get("text", "")))
            for kind in ("text/plain", "text/markdown", "text/html"):
                texts.append("".join(o.get("data", {}).get(kind, "")))
        for t in texts:
            for m in NUMBER.finditer(t):
                found |= _canonical(m.group(0))
    return found


DOCUMENT_TOKENS = {c for d in audit.load_inventory(ROOT / "book" / "_data" / "audit")
                   for toks in d["tokens"].values() for t in toks for c in _canonical(t)}


def _untraced(text: str, known: set[str]) -> list[str]:
    bad = []
    for token, before in _numbers(text):
        forms = _canonical(token)
        if forms & (known | ALLOWED) or CONTEXT.search(before):
            continue
        bad.append(token)
    return bad


CHAPTERS = sorted((ROOT / "book").glob("*.ipynb"))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_markdown_numbers_are_computed_glued_or_quoted(path: Path) -> None:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    known = _computed(cells) | DOCUMENT_TOKENS
    problems = {}
    for c in cells:
        if c["cell_type"] == "markdown":
            bad = _untraced("".join(c["source"]), known)
            if bad:
                problems[c["id"]] = bad
    assert not problems, f"{path.name}: numbers typed into prose that no cell prints or asserts: {problems}"


ROWS = rows()
BY_ID = {r["id"]: r for r in ROWS}


def _printed_for(row: dict) -> set[str]:
    """Numbers the Errata page prints for a row: its texts, its route inputs and its computed values."""
    j = verdicts()[row["id"]]
    texts = [str(row.get(k, "")) for k in ("quantity", "document_value", "section")]
    texts += [str(BY_ID[i]["document_value"]) for i in j.inputs]
    if row.get("carried_from"):
        texts.append(str(BY_ID[row["carried_from"]]["document_value"]))
    for value in (j.exact, j.route):
        if value is not None:
            texts.append(errata.render_value(value, row.get("decimals")))
    texts += [f"{k} {errata.render_value(v)}" for k, v in j.shown.items()]
    return {f for t in texts for m in NUMBER.finditer(t) for f in _canonical(m.group(0))}


@pytest.mark.parametrize("row", [r for r in ROWS if r.get("why")], ids=lambda r: r["id"])
def test_why_numbers_are_the_documents_or_printed(row: dict) -> None:
    bad = _untraced(row["why"], _printed_for(row))
    assert not bad, f"{row['id']}: its why types {bad}, which the Errata page does not print for this row"


def test_the_scan_finds_a_typed_number_and_skips_the_allowed() -> None:
    text = "The weight is 0.2264 (§4.3, Step 3), see [x](https://a.b/9.9), $w_{21}$, {glue:text}`w:.4f`, 1 and 2017."
    assert _untraced(text, set()) == ["0.2264"]
    assert _untraced(text, {"0.2264"}) == []
