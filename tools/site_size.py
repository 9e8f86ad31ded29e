"""Print the size of the built site: total, the biggest folders and the biggest files.

    .venv/bin/python tools/site_size.py [_build/html] [--top N]      (or: make site-size)
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path


def human(n: int) -> str:
    """``n`` bytes as a short human-readable string (``1.5 MB``)."""
    size = float(n)
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    raise AssertionError("unreachable")


def sizes(site: Path) -> tuple[dict[Path, int], Counter[Path]]:
    """File sizes, and the total size under every folder one or two levels deep (recursive),
    relative to ``site``."""
    files = {p.relative_to(site): p.stat().st_size for p in site.rglob("*") if p.is_file()}
    folders: Counter[Path] = Counter()
    for rel, size in files.items():
        for parent in rel.parents:
            if parent != Path(".") and len(parent.parts) <= 2:
                folders[parent] += size
    return files, folders


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", default="_build/html", type=Path)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    if not (args.site / "index.html").exists():
        parser.error(f"no built site at {args.site}: run 'make book' first")
    files, folders = sizes(args.site)
    total = sum(files.values())
    print(f"site {args.site}: {human(total)} in {len(files)} files")
    print("\nbiggest folders (one or two levels deep):")
    for rel, size in folders.most_common(args.top):
        print(f"  {human(size):>9}  {100 * size / total:5.1f}%  {rel}/")
    print("\nbiggest files:")
    for rel, size in sorted(files.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"  {human(size):>9}  {100 * size / total:5.1f}%  {rel}")
    maps = [rel for rel in files if rel.suffix == ".map"]
    if maps:
        print(f"\nsource maps left in the site: {len(maps)} ({human(sum(files[m] for m in maps))})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
