"""The reader's path (issue 16): every chapter names its source document in the bibliography,
every citation and glossary link has a target, the forensic share stays under its limit, and no
cell is too long to read."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from tests._project import ROOT, config, toc

sys.path.insert(0, str(ROOT / "tools"))
import forensic_share  # noqa: E402

BOOK = ROOT / "book"
CHAPTERS = sorted(BOOK.glob("[0-9][0-9]_*.ipynb"))
PAGES = CHAPTERS + sorted(BOOK.glob("*.md")) + sorted(p for p in BOOK.glob("*.ipynb") if p not in CHAPTERS)
MAX_CODE_LINES = 30
MAX_MARKDOWN_WORDS = 250

_CITE = re.compile(r"\{cite(?::[pt])?\}`([^`]+)`")
_TERM = re.compile(r"\{term\}`(?:[^`<]*<)?([^`<>]+?)>?`")


def _markdown(path: Path) -> list[tuple[str, str]]:
    """(cell id, text) of every markdown cell; a .md page is one cell."""
    if path.suffix == ".md":
        return [(path.name, path.read_text(encoding="utf-8"))]
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [(c.get("id", "?"), "".join(c["source"])) for c in nb["cells"] if c["cell_type"] == "markdown"]


def _bib_keys() -> set[str]:
    bib = (BOOK / "references.bib").read_text(encoding="utf-8")
    return set(re.findall(r"^@\w+\{([^,\s]+),", bib, flags=re.M))


def _glossary_terms() -> set[str]:
    text = (BOOK / "glossary.md").read_text(encoding="utf-8")
    block = text.split("```{glossary}", 1)[1].split("```", 1)[0]
    return {line.strip().lower() for line in block.splitlines() if line and not line.startswith((" ", "\t"))}


def test_config_names_the_bibliography_and_the_toc_lists_the_reference_pages() -> None:
    assert config()["bibtex_bibfiles"] == ["book/references.bib"]
    files = {c["file"] for part in toc()["parts"] for c in part["chapters"]}
    assert {"book/bibliography", "book/glossary", "book/notation"} <= files
    assert "{bibliography}" in (BOOK / "bibliography.md").read_text(encoding="utf-8")


def test_the_five_documents_have_entries() -> None:
    keys = _bib_keys()
    for n in ("000", "001", "002", "003", "004"):
        assert f"doc{n}" in keys, f"references.bib has no entry doc{n}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_reproduces_line_cites_every_document_it_names(path: Path) -> None:
    lines = [m.group(0) for _, text in _markdown(path) for m in re.finditer(r"\*\*Reproduces:\*\*[^\n]*", text)]
    assert len(lines) == 1, f"{path.name}: expected one **Reproduces:** line, found {len(lines)}"
    if lines[0].removeprefix("**Reproduces:**").strip().startswith("nothing from the documents"):
        return  # a chapter beyond the documents says so
    named = set(re.findall(r"document (00\d)", lines[0], flags=re.I))
    cited = {k for group in _CITE.findall(lines[0]) for k in group.split(",")}
    assert named, f"{path.name}: the Reproduces line names no document"
    missing = {f"doc{n}" for n in named} - cited
    assert not missing, f"{path.name}: the Reproduces line names documents it does not cite: {sorted(missing)}"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_every_citation_and_term_has_a_target(path: Path) -> None:
    keys, terms = _bib_keys(), _glossary_terms()
    for cid, text in _markdown(path):
        for group in _CITE.findall(text):
            for key in group.split(","):
                assert key.strip() in keys, f"{path.name} cell {cid}: unknown citation {key!r}"
        for term in _TERM.findall(text):
            assert term.strip().lower() in terms, f"{path.name} cell {cid}: {term!r} is not in the glossary"


def test_the_glossary_covers_the_terms_a_reader_meets() -> None:
    required = {"query", "key", "value", "score", "logit", "weight", "d_model", "d_k", "d_v", "head",
                "temperature", "entropy", "jacobian", "mask", "causal", "padding", "online softmax",
                "kv cache", "cross-attention", "grouped-query attention", "gradient", "training", "checkpoint"}
    assert required <= _glossary_terms(), sorted(required - _glossary_terms())


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_cells_are_short_enough_to_read(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    for c in nb["cells"]:
        text = "".join(c["source"])
        if c["cell_type"] == "code":
            n = len(text.rstrip("\n").splitlines())
            assert n <= MAX_CODE_LINES, f"{path.name} cell {c['id']}: {n} lines of code (limit {MAX_CODE_LINES})"
        elif c["cell_type"] == "markdown":
            n = len(text.split())
            assert n <= MAX_MARKDOWN_WORDS, f"{path.name} cell {c['id']}: {n} words (limit {MAX_MARKDOWN_WORDS})"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_forensic_share_is_at_most_10_percent(path: Path) -> None:
    s = forensic_share.measure(path)
    assert s.visible > 100, f"{path.name}: only {s.visible} visible words counted"
    assert s.share <= forensic_share.LIMIT, (
        f"{path.name}: {s.forensic} of {s.visible} visible words ({s.share:.0%}) are document forensics;"
        " move the working into a 'How we know' dropdown"
    )


def _nb(tmp_path: Path, *cells: str) -> Path:
    p = tmp_path / "01_x.ipynb"
    p.write_text(json.dumps({"cells": [{"cell_type": "markdown", "id": str(i), "metadata": {}, "source": s}
                                       for i, s in enumerate(cells)]}), encoding="utf-8")
    return p


def test_forensic_share_counts_visible_forensics_and_skips_dropdowns(tmp_path: Path) -> None:
    teaching = "Attention mixes the values with weights that sum to one. " * 4
    forensic = "Document 002 printed 0.29 here, a rounded value, and that is wrong by a slip. "
    visible = forensic_share.measure(_nb(tmp_path, teaching, forensic))
    assert visible.forensic == len(forensic.split()) and visible.share > 0.2
    hidden = forensic_share.measure(_nb(tmp_path, teaching, f":::{{dropdown}} How we know\n{forensic}\n:::"))
    assert hidden.forensic == 0 and hidden.visible == len(teaching.split())
    note = forensic_share.measure(_nb(tmp_path, teaching, ":::{admonition} Erratum: a slip\n:class: warning\nThe value is 0.30.\n:::"))
    assert note.forensic == 7  # the title (3 words) and the body (4)
    assert forensic_share.main([str(_nb(tmp_path, teaching, forensic))]) == 1


def test_every_link_to_the_repository_uses_the_configured_url() -> None:
    """The repository URL is set once, in _config.yml; every GitHub, Pages, Binder and Colab link
    in the README, the contributor notes, binder/ and the book's pages follows it."""
    from tests._project import repository_url

    url = repository_url().rstrip("/")
    owner, repo = url.removeprefix("https://github.com/").split("/")
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "binder").glob("*.md")), *PAGES]
    patterns = {
        r"https://github\.com/[\w.-]+/[\w.-]+": url,
        r"https://[\w-]+\.github\.io/[\w.-]+": f"https://{owner}.github.io/{repo}",
        r"https://mybinder\.org/v2/gh/[\w.-]+/[\w.-]+": f"https://mybinder.org/v2/gh/{owner}/{repo}",
        r"https://colab\.research\.google\.com/github/[\w.-]+/[\w.-]+": f"https://colab.research.google.com/github/{owner}/{repo}",
    }
    seen = 0
    for path in files:
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        for rx, expected in patterns.items():
            for link in re.findall(rx, text):
                if link.startswith("https://github.com/") and owner not in link and repo not in link:
                    continue  # a third-party repository (e.g. pytorch/pytorch)
                seen += 1
                assert link == expected, f"{path.name} links to {link}, not {expected} (from _config.yml)"
    assert seen >= 3, "expected the README and the chapters to link the repository"
