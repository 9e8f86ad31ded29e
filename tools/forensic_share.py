"""How much of each chapter's visible prose is spent on document forensics.

The book checks five source documents, and where one is wrong the page says so. The story of the
chapter must still come first: the visible erratum is a short note, and the working (how we know,
the other routes, the rounding archaeology) sits in a collapsed dropdown. This script measures that.

For every chapter (book/NN_*.ipynb) it splits the markdown cells into blocks (paragraphs, list
items, admonitions), drops what a reader does not see unless they open it (``{dropdown}`` blocks and
admonitions with ``:class: dropdown``), and counts the words of the remaining blocks. A block is
*forensic* when

- it is an admonition titled with a verdict ("Erratum ...", "Imprecise ...", "Rounding ...",
  "Illustrative ...") or "Document ..." (the visible note), or
- it names a document ("document 004", "the document", "the document's") and uses the vocabulary
  of disagreement (wrong, slip, rounded, illustrative, made up, differs, should be, ...).

The "Reproduces" line, headings and MyST targets are not counted at all. The share is forensic
words / visible words. Exit status 1 if any chapter is above the limit (default 10 %).

    python -m tools.forensic_share            # table, fails above 10 %
    python -m tools.forensic_share --limit 0.25 book/07_i_am_happy.ipynb
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 0.10

_FENCE = re.compile(r"^(?P<fence>:{3,}|`{3,})\s*(?:\{(?P<name>[\w:-]+)\})?\s*(?P<arg>.*)$")
_DOC = re.compile(r"\bdocuments?\s+00\d\b|\bthe documents?(?:'s?)?\b|\bdocument's\b|\bdocuments'\b", re.I)
_DISAGREE = re.compile(
    r"\b(?:wrong|(?<!standard )(?<!squared )errors?|errat(?:um|a)|slips?|typos?|misprint\w*|mistak\w*|incorrect\w*|rounded|rounding"
    r"|illustrative|made[ -]up|invent\w*|differs?\s+from|differen(?:t|ce)\s+from|disagree\w*|mismatch\w*|should\s+be"
    r"|cannot\s+be|could\s+not|not\s+both|inconsisten\w*|unseeded|does\s+not\s+(?:match|reproduce|follow)"
    r"|off\s+by|instead\s+of|false|truncat\w*)\b",
    re.I,
)
# The verdict titles of errata notes (issue 15: Erratum, Imprecise, Rounding, Illustrative, ...).
_FORENSIC_TITLE = re.compile(r"^\s*(?:erratum|errata|illustrative|imprecise|rounding|rounded|slip|wrong|document)\b", re.I)
_WORD = re.compile(r"[A-Za-z0-9][\w'’.-]*")


@dataclass
class Share:
    """Visible and forensic word counts of one chapter."""

    path: Path
    visible: int
    forensic: int

    @property
    def share(self) -> float:
        return self.forensic / self.visible if self.visible else 0.0


def _words(text: str) -> int:
    text = re.sub(r"\$\$.*?\$\$|\$[^$\n]*\$", " x ", text, flags=re.S)  # a formula counts as one word
    text = re.sub(r"\{[\w:-]+\}`([^`]*)`", r"\1", text)  # {term}`query` -> query
    return len(_WORD.findall(text))


def _blocks(markdown: str) -> list[tuple[str, str]]:
    """Split one markdown cell into (kind, text) blocks, with collapsed content removed.

    kind is "admonition:<title>", "paragraph" or "skip" (headings, targets, the Reproduces line).
    """
    out: list[tuple[str, str]] = []
    lines = markdown.splitlines()
    i = 0
    para: list[str] = []

    def flush() -> None:
        if para:
            text = "\n".join(para).strip()
            if text:
                out.append(("paragraph", text))
            para.clear()

    while i < len(lines):
        line = lines[i]
        m = _FENCE.match(line.strip())
        if m and m.group("name"):
            flush()
            fence, name, arg = m.group("fence"), m.group("name"), m.group("arg")
            body: list[str] = []
            i += 1
            depth = 0
            while i < len(lines):
                inner = _FENCE.match(lines[i].strip())
                if inner and inner.group("fence")[0] == fence[0]:
                    if inner.group("name"):
                        depth += 1
                    elif len(inner.group("fence")) >= len(fence) and depth == 0:
                        break
                    elif depth:
                        depth -= 1
                body.append(lines[i])
                i += 1
            i += 1  # the closing fence
            options = [b for b in body if b.strip().startswith(":") and not b.strip().startswith(":::")]
            collapsed = name == "dropdown" or any("dropdown" in o for o in options if o.strip().startswith(":class:"))
            if collapsed or name in {"code-cell", "raw"}:
                continue
            text = "\n".join([arg] + [b for b in body if b not in options])
            if name in {"admonition", "note", "warning", "important", "tip", "caution"}:
                out.append((f"admonition:{arg or name}", text))
            else:
                out.append(("paragraph", text))
            continue
        stripped = line.strip()
        if not stripped:
            flush()
        elif stripped.startswith("#") or re.match(r"^\(.+\)=$", stripped) or stripped.startswith("**Reproduces"):
            flush()
            if stripped.startswith("**Reproduces"):  # runs to the end of its paragraph
                while i + 1 < len(lines) and lines[i + 1].strip():
                    i += 1
        elif re.match(r"^(?:[-*+]|\d+\.)\s", stripped):
            flush()
            para.append(stripped)
        else:
            para.append(stripped)
        i += 1
    flush()
    return out


def measure(path: Path, show: bool = False) -> Share:
    """Visible and forensic words of the markdown cells of one notebook (``show``: print the forensic blocks)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    visible = forensic = 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for kind, text in _blocks("".join(cell["source"])):
            n = _words(text)
            visible += n
            if kind.startswith("admonition:"):
                counted = bool(_FORENSIC_TITLE.match(kind.split(":", 1)[1]))
            else:
                prose = re.sub(r"`[^`]*`", " ", text)  # code spans (`bias=False`) are not prose
                counted = bool(_DOC.search(prose) and _DISAGREE.search(prose))
            if counted:
                forensic += n
                if show:
                    print(f"  [{cell.get('id', '?')}] {n:4d} words: {' '.join(text.split())[:110]}")
    return Share(path, visible, forensic)


def chapters() -> list[Path]:
    """The numbered chapters of the book."""
    return sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--show", action="store_true", help="print every block counted as forensic")
    parser.add_argument("--limit", type=float, default=LIMIT, help="largest allowed share (default 0.10)")
    args = parser.parse_args(argv)
    paths = args.notebooks or chapters()
    worst = 0.0
    print(f"{'chapter':34s} {'visible':>8s} {'forensic':>9s} {'share':>6s}")
    for p in paths:
        s = measure(p, show=args.show)
        worst = max(worst, s.share)
        flag = "  > limit" if s.share > args.limit else ""
        print(f"{p.name:34s} {s.visible:8d} {s.forensic:9d} {s.share:6.1%}{flag}")
    if worst > args.limit:
        print(f"forensic share above {args.limit:.0%}: keep one line with a link to the errata page, the working in a 'How we know' dropdown")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
