"""Page weight: the bytes a reader's browser transfers on a first visit to each page of the built site.

    .venv/bin/python -m tools.page_weight [_build/html] [--out benchmarks/PAGE_WEIGHT_TABLE.md]   (make page-weight)
    .venv/bin/python -m tools.page_weight --disk [_build/html]   (what the site takes on disk)
    .venv/bin/python -m tools.page_weight --page book/05_softmax.html   (those pages only; repeatable)

Each page is opened in Debian's Chromium (Playwright, headless) in a fresh browser context (empty
cache: a first visit), served from ``_build/html`` on 127.0.0.1 with every other host blocked, and
left until the network is idle and MathJax has typeset the page. Every file the page requested
from the site is counted at the size a static host sends it with gzip: text types (HTML, CSS, JS,
JSON, SVG, TXT) gzip-compressed at level 6, as GitHub Pages, nginx and the like do; fonts (woff,
woff2) and images as they are, since those formats are already compressed and hosts send them
unchanged. HTTP headers are not counted.

Budgets (issue 19): at most ``BUDGET["chapter"]`` for an ordinary chapter and
``BUDGET["sliders"]`` for a chapter with sliders; ``BUDGET["model"]`` (issue 50) for a chapter whose
widget carries a trained model of a hundred thousand weights (``MODEL_WIDGETS``: chapter 21's, about
420 kB of them gzipped). ``tests/browser/test_pages.py`` enforces
them in ``make test``; this script prints the table (and writes it with ``--out``) and exits 1 if a
chapter is over its budget.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from bookdev import browser as bb
from bookdev.site import STATE_MIME, load, pages_of

KB = 1000
BUDGET = {"chapter": 600 * KB, "sliders": 1200 * KB, "model": 1500 * KB}  # gzip-transferred bytes, first visit
#: The widgets whose state holds a trained model big enough for the "model" budget (their class, as the
#: page's widget state names it).
MODEL_WIDGETS = ("attnlib.widgets.continue_text.ContinueText",)
COMPRESSED_BY_HOST = {".html", ".css", ".js", ".mjs", ".json", ".svg", ".txt", ".xml", ".map"}


@functools.cache
def transfer_bytes(path: Path) -> int:
    """Bytes a static host sends for ``path``: gzip level 6 for text types, the file as is otherwise."""
    data = path.read_bytes()
    if path.suffix.lower() in COMPRESSED_BY_HOST:
        return len(gzip.compress(data, compresslevel=6, mtime=0))
    return len(data)


def page_kind(site: Path, page: str) -> str:
    """``"model"`` for a chapter whose widgets include one of ``MODEL_WIDGETS``, ``"sliders"`` for another
    chapter that embeds widget state, ``"chapter"`` for another chapter, ``"other"`` for the remaining
    pages (intro, reference pages, search, indexes)."""
    name = page.split("/")[-1]
    if not (page.startswith("book/") and name[:2].isdigit()):
        return "other"
    html = (site / page).read_text(encoding="utf-8", errors="ignore")
    if STATE_MIME not in html:
        return "chapter"
    return "model" if any(f'"{w}"' in html for w in MODEL_WIDGETS) else "sliders"


@dataclass
class Weight:
    """What one first visit of ``page`` transferred: ``files`` maps each site path to its bytes."""

    page: str
    kind: str
    files: dict[str, int] = field(default_factory=dict)
    external: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.files.values())

    @property
    def budget(self) -> int | None:
        return BUDGET.get(self.kind)

    def by_group(self) -> dict[str, int]:
        """Bytes per group of files (the page itself, MathJax, widgets, theme, fonts, search...)."""
        groups: dict[str, int] = {}
        for path, size in self.files.items():
            groups[group_of(path)] = groups.get(group_of(path), 0) + size
        return dict(sorted(groups.items(), key=lambda kv: -kv[1]))


def group_of(path: str) -> str:
    """A short name for the kind of asset at site path ``path``."""
    p = path.lower()
    for key, name in (("/mathjax/", "MathJax"), ("html-manager", "widget manager"), ("anywidget", "widget manager"),
                      ("requirejs", "widget manager"), ("widgets-loader", "widget manager"), ("thebe", "thebe"),
                      ("searchindex", "search index"), ("fontawesome", "icons"), ("webfonts", "icons"),
                      ("_images/", "images"), ("_static/", "theme and extensions")):
        if key in p:
            return name
    return "the page (HTML)" if p.endswith(".html") else "other"


def weight_of(site: Path, site_url: str, page: str, fetched: Iterable[str]) -> Weight:
    """The :class:`Weight` of a first visit of ``page`` that fetched the URLs ``fetched`` from the
    site served at ``site_url`` (files the site does not hold, e.g. a 404, count nothing)."""
    weight = Weight(page=page, kind=page_kind(site, page))
    host = urlparse(site_url).netloc
    for url in fetched:
        parsed = urlparse(url)
        if parsed.netloc != host:
            continue
        rel = unquote(parsed.path).lstrip("/")
        path = site / rel
        if path.is_dir() or rel == "":
            path = path / "index.html"
            rel = path.relative_to(site).as_posix()
        if path.is_file():
            weight.files[rel] = transfer_bytes(path)
    return weight


def measure(browser, site_url: str, site: Path, page: str) -> Weight:  # noqa: ANN001
    """Open ``page`` in a fresh context (empty cache: a first visit) with every other host blocked,
    wait until it is ready and the network is idle, and count what it fetched from the site."""
    with bb.offline_page(browser, site_url) as (pg, log):
        load(pg, f"{site_url}/{page}")
        pg.wait_for_load_state("networkidle")  # what MathJax fetched while it typeset
        weight = weight_of(site, site_url, page, log.fetched)
        weight.external = list(log.external)
    return weight


def human(n: int) -> str:
    """``n`` bytes as the tables show them (``815 KB``, KB = 1024 bytes)."""
    return f"{n / KB:,.0f} KB"


def disk_sizes(site: Path) -> tuple[dict[Path, int], Counter[Path]]:
    """File sizes on disk, and the total under every folder one or two levels deep, relative to ``site``."""
    files = {p.relative_to(site): p.stat().st_size for p in site.rglob("*") if p.is_file()}
    folders: Counter[Path] = Counter()
    for rel, size in files.items():
        for parent in rel.parents:
            if parent != Path(".") and len(parent.parts) <= 2:
                folders[parent] += size
    return files, folders


def disk_report(site: Path, top: int = 10) -> str:
    """What the built site takes on disk: total, the biggest folders and files, any source maps left."""
    files, folders = disk_sizes(site)
    total = sum(files.values())
    lines = [f"site {site}: {human(total)} in {len(files)} files", "", "biggest folders (one or two levels deep):"]
    lines += [f"  {human(size):>9}  {100 * size / total:5.1f}%  {rel}/" for rel, size in folders.most_common(top)]
    lines += ["", "biggest files:"]
    lines += [f"  {human(size):>9}  {100 * size / total:5.1f}%  {rel}"
              for rel, size in sorted(files.items(), key=lambda kv: -kv[1])[:top]]
    maps = [rel for rel in files if rel.suffix == ".map"]
    if maps:
        lines += ["", f"source maps left in the site: {len(maps)} ({human(sum(files[m] for m in maps))})"]
    return "\n".join(lines)


def human_groups(weight: Weight, top: int = 4) -> str:
    """The biggest groups of files of one visit, as text."""
    return ", ".join(f"{g} {human(b)}" for g, b in list(weight.by_group().items())[:top])


def table(weights: Iterable[Weight]) -> str:
    """A Markdown table: page, kind, transferred bytes, budget, the three biggest groups."""
    rows = ["| page | kind | transferred (gzip) | budget | biggest parts |", "|---|---|---:|---:|---|"]
    for w in weights:
        parts = human_groups(w)
        budget = human(w.budget) if w.budget else "–"
        flag = " **over**" if w.budget and w.total > w.budget else ""
        rows.append(f"| {w.page} | {w.kind} | {human(w.total)}{flag} | {budget} | {parts} |")
    return "\n".join(rows)


def summary(weights: list[Weight]) -> str:
    """Largest and median transfer per kind of page."""
    lines = ["| kind of page | pages | median | largest | budget |", "|---|---:|---:|---:|---:|"]
    for kind in ("chapter", "sliders", "model", "other"):
        totals = sorted(w.total for w in weights if w.kind == kind)
        if totals:
            budget = human(BUDGET[kind]) if kind in BUDGET else "–"
            lines.append(f"| {kind} | {len(totals)} | {human(totals[len(totals) // 2])} | {human(totals[-1])} | {budget} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", default=bb.SITE, type=Path)
    parser.add_argument("--out", type=Path, help="write the tables to this Markdown file")
    parser.add_argument("--disk", action="store_true",
                        help="print what the site takes on disk (biggest folders and files) instead")
    parser.add_argument("--top", type=int, default=10, help="with --disk: how many folders and files")
    parser.add_argument("--page", action="append",
                        help="measure this page of the site only (a path in it, e.g. book/05_softmax.html; repeatable)")
    args = parser.parse_args()
    site = args.site.resolve()
    if not (site / "index.html").is_file():
        raise SystemExit(f"no built site at {site}: run 'make book' first")
    if args.disk:
        print(disk_report(site, args.top))
        return 0
    pages = args.page or pages_of(site)
    missing = [page for page in pages if not (site / page).is_file()]
    if missing:
        raise SystemExit(f"no such page in {site}: {', '.join(missing)}")
    with bb.serve(site) as url, bb.chromium() as browser:
        weights = [measure(browser, url, site, page) for page in pages]
    text = f"{summary(weights)}\n\n{table(weights)}\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    over = [w.page for w in weights if w.budget and w.total > w.budget]
    if over:
        print(f"over budget: {over}", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
