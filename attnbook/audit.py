"""The number audit: every numeric token of the five source documents, accounted for.

The inventory lives as YAML in ``book/_data/audit/<document>.yml``, one file per document, with
these keys:

=============  ==========================================================================================
key            meaning
=============  ==========================================================================================
``document``   "000" … "004"
``file``       the document's file name (in the folder ATTN_SEEDS_DIR names: CONTRIBUTING.md)
``sha256``     the hash of that file when the inventory was made
``tokens``     line number -> the distinct numeric tokens on that line, as ``document_tokens``
               extracts them (committed, so the coverage check runs without the documents)
``entries``    a list; each entry names a ``section`` and ``lines`` (line numbers) and accounts for
               the tokens of those lines (all of them, or only those listed under ``tokens``)
=============  ==========================================================================================

Each entry accounts for its tokens in exactly one of these ways:

- ``rows``: ids of errata/audit rows (``book/_data/errata/*.yml``) that reproduce the quantity;
  every covered token must appear as a number in the ``quantity`` or ``document_value`` of one
  of those rows;
- ``skip``: a reason from ``SKIP_REASONS``, the token is not a quantity;
- ``pending``: the chapter (``book/NN_name``) that will reproduce it, allowed only while that
  chapter is not in the book yet.

An entry with ``rows`` may also carry a ``claim``: a claim without numbers, such as "the ratio
stays the same". ``coverage_problems`` lists everything that is not accounted for; the test suite
asserts the list is empty. Used in: "Number audit".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ._yaml import read_yaml
from .errata import Judgement, format_value, markdown_cell

# A number not glued to a preceding letter, digit or dot ("W_q", "L02" and "x1" are names).
TOKEN = re.compile(r"(?<![A-Za-z_\d.])\d+(?:\.\d+)?")

SKIP_REASONS = {
    "fact": "a fact about hardware or production settings (GPU speed, batch and model sizes) that attnlib cannot compute",
    "numbering": "a heading, list, step or code-line number",
    "code-syntax": "an index, axis or exponent in code (dim=-1, transpose(-2, -1), ** 0.5), not a quantity",
    "metadata": "a date, a reading time, an image or lecture number",
    "garbled": "a garbled plain-text copy of a formula whose numbers are audited on the same line",
    "prose": "a number in passing prose, not a worked quantity ('multiply each value by 2', 'the 1st thing', 'fewer than 20 lines')",
}


def document_tokens(text: str) -> dict[int, list[str]]:
    """Line number (1-based) -> the distinct numeric tokens on that line, in order of appearance."""
    out: dict[int, list[str]] = {}
    for i, line in enumerate(text.split("\n"), 1):
        found: list[str] = []
        for tok in TOKEN.findall(line):
            if tok not in found:
                found.append(tok)
        if found:
            out[i] = found
    return out


def numbers_in(text: str) -> set[float]:
    """The numbers written in ``text`` (unsigned), as floats, for comparing with document tokens."""
    return {float(t) for t in TOKEN.findall(str(text))}


def load_inventory(folder: str | Path) -> list[dict[str, Any]]:
    """Every document's inventory under ``folder`` (``*.yml``), sorted by document."""
    docs = []
    for path in sorted(Path(folder).glob("*.yml")):
        data = read_yaml(path)
        if not isinstance(data, dict) or not {"document", "tokens", "entries"} <= set(data):
            raise ValueError(f"{path}: expected a mapping with document, tokens and entries")
        data["tokens"] = {int(k): [str(t) for t in v] for k, v in (data["tokens"] or {}).items()}
        docs.append(data)
    return sorted(docs, key=lambda d: str(d["document"]))


def _entry_tokens(entry: dict[str, Any], tokens: dict[int, list[str]]) -> list[tuple[int, str]]:
    only = entry.get("tokens")
    return [(line, t) for line in entry["lines"] for t in tokens.get(line, []) if only is None or t in map(str, only)]


def coverage_problems(
    doc: dict[str, Any], rows: Iterable[dict[str, Any]], chapter_exists: Any
) -> list[str]:
    """Everything in one document's inventory that is not accounted for (empty when complete).

    ``rows`` are all errata/audit rows; ``chapter_exists(chapter)`` says whether a chapter is in
    the book (a pending entry is allowed only for a chapter that is not).
    """
    by_id = {r["id"]: r for r in rows}
    tokens = doc["tokens"]
    problems: list[str] = []
    covered: set[tuple[int, str]] = set()
    name = f"document {doc['document']}"
    for entry in doc["entries"]:
        where = f"{name}, lines {entry.get('lines')} ({entry.get('section', '?')})"
        kinds = [k for k in ("rows", "skip", "pending") if entry.get(k)]
        if len(kinds) != 1:
            problems.append(f"{where}: needs exactly one of rows / skip / pending, has {kinds}")
            continue
        mine = _entry_tokens(entry, tokens)
        if entry.get("tokens") is not None:
            missing = [t for t in map(str, entry["tokens"]) if all(t not in tokens.get(line, []) for line in entry["lines"])]
            if missing:
                problems.append(f"{where}: lists tokens {missing} that are not on those lines")
        if not mine and not entry.get("claim"):
            problems.append(f"{where}: covers no token and states no claim")
        if entry.get("skip") and entry["skip"] not in SKIP_REASONS:
            problems.append(f"{where}: unknown skip reason {entry['skip']!r} (allowed: {sorted(SKIP_REASONS)})")
        if entry.get("pending") and chapter_exists(entry["pending"]):
            problems.append(f"{where}: pending on {entry['pending']}, which is in the book now: add its rows")
        if entry.get("rows"):
            unknown = [r for r in entry["rows"] if r not in by_id]
            if unknown:
                problems.append(f"{where}: unknown row ids {unknown}")
                continue
            other = [r for r in entry["rows"] if str(by_id[r]["document"]) != str(doc["document"])]
            if other:
                problems.append(f"{where}: rows {other} belong to another document")
            said: set[float] = set()
            for r in entry["rows"]:
                said |= numbers_in(by_id[r]["quantity"]) | numbers_in(by_id[r]["document_value"])
            unsaid = sorted({t for _, t in mine if float(t) not in said}, key=float)
            if unsaid:
                problems.append(f"{where}: tokens {unsaid} appear in none of the rows {entry['rows']}")
        covered.update(mine)
    for line, toks in sorted(tokens.items()):
        left = [t for t in toks if (line, t) not in covered]
        if left:
            problems.append(f"{name}, line {line}: tokens {left} are not accounted for")
    return problems


def tally(doc: dict[str, Any]) -> dict[str, int]:
    """How many of a document's (line, token) pairs are reproduced, skipped (by reason) or pending."""
    counts: dict[str, int] = {"tokens": sum(len(v) for v in doc["tokens"].values()), "reproduced": 0, "pending": 0}
    seen: set[tuple[int, str]] = set()
    for entry in doc["entries"]:
        for pair in _entry_tokens(entry, doc["tokens"]):
            if pair in seen:
                continue
            seen.add(pair)
            if entry.get("rows"):
                counts["reproduced"] += 1
            elif entry.get("pending"):
                counts["pending"] += 1
            else:
                key = f"skipped ({entry['skip']})"
                counts[key] = counts.get(key, 0) + 1
    counts["claims"] = sum(1 for e in doc["entries"] if e.get("claim"))
    return counts


# --- rendering (Markdown strings for the "Errata" and "Number audit" pages) -------------------

#: Each document's one title, the same as in the bibliography (book/references.bib); a document with
#: no title of its own is described in square brackets.
DOCUMENT_TITLES = {
    "000": "The Engine of Transformers: Building Scaled Dot-Product Attention",
    "001": "[Untitled tutorial: from words as numbers to self-attention and its scaling factor]",
    "002": "[Untitled notes: the 'I am happy' worked example and multi-head attention]",
    "003": "Deep Dive: The Scaled Dot-Product Self-Attention Mechanism (Code Analysis)",
    "004": "L03 - Self-Attention: The Search Engine of Language",
}


def _link(row: dict[str, Any]) -> str:
    return f"{{ref}}`check <{row['label']}>`"


def book_value(row: dict[str, Any], j: Judgement) -> str:
    """How a row's computed value reads on the audit page: the exact value of a numeric row, or
    "holds" / the verdict of a claim or made-up value."""
    if j.exact is not None:
        return format_value(j.exact, row.get("decimals"))
    return "holds" if j.verdict == "correct" else j.verdict


def row_order(docs: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Row id -> the first document line an inventory entry maps to it (for listing in reading order)."""
    first: dict[str, int] = {}
    for d in docs:
        for e in d["entries"]:
            for r in e.get("rows") or []:
                first[r] = min(first.get(r, 10**9), min(e["lines"]))
    return first


def render_audit(docs: Iterable[dict[str, Any]], rows: Iterable[dict[str, Any]], judgements: dict[str, Judgement]) -> str:
    """The Number audit page body: per document, a coverage line and one table per section, each row
    with its computed value and the verdict :func:`attnbook.errata.judge` gives it."""
    by_id = {r["id"]: r for r in rows}
    out: list[str] = []
    for doc in docs:
        t = tally(doc)
        skipped = ", ".join(f"{v} {k}" for k, v in t.items() if k.startswith("skipped"))
        out.append(f"## Document {doc['document']}: {DOCUMENT_TITLES.get(str(doc['document']), '')}\n")
        out.append(
            f"{t['tokens']} numbers on {len(doc['tokens'])} lines: {t['reproduced']} reproduced by a row,"
            f" {t['pending']} waiting for a chapter, {skipped or 'none skipped'}; {t['claims']} claims without numbers.\n"
        )
        sections: dict[str, tuple[list[str], set[str]]] = {}
        shown_ids: set[str] = set()
        for e in doc["entries"]:
            if not (e.get("rows") or e.get("pending")):
                continue
            ids, waits = sections.setdefault(e["section"], ([], set()))
            for r in e.get("rows") or []:
                if r not in shown_ids:
                    shown_ids.add(r)
                    ids.append(r)
            if e.get("pending"):
                waits.add(e["pending"])
        for section, (ids, waits) in sections.items():
            if not ids and not waits:
                continue
            out.append(f"### {section}\n")
            if ids:
                out.append("| quantity | document | book (computed now) | verdict |\n|---|---|---|---|")
                for rid in ids:
                    r = by_id[rid]
                    j = judgements[rid]
                    verdict = "reproduced" if j.verdict == "correct" else j.verdict
                    out.append(
                        f"| {markdown_cell(r['quantity'])} | `{markdown_cell(r['document_value'])}` | `{markdown_cell(book_value(r, j))}` |"
                        f" {verdict} ({_link(r)}) |"
                    )
                out.append("")
            if waits:
                out.append(f"**Not audited yet:** waits for {', '.join(sorted(waits))}.\n")
        unreproduced = [e for e in doc["entries"] if e.get("skip") in ("fact", "prose")]
        if unreproduced:
            out.append("### Numbers stated but not computed\n")
            for e in unreproduced:
                toks = [t for _, t in _entry_tokens(e, doc["tokens"])]
                out.append(f"- {markdown_cell(e['section'])}, line {', '.join(map(str, e['lines']))}: {', '.join(toks)}"
                           f" ({e['skip']}: {SKIP_REASONS[e['skip']]})")
            out.append("")
    return "\n".join(out)
