"""Run chapters from a clean kernel, in order, and store their outputs (``make execute``).

    .venv/bin/python -m tools.execute book/05_softmax.ipynb [...]

Like ``jupyter execute --inplace``, with the chapter's folder as the working directory and the
widgets' state stored, but without the per-cell timestamps that nbclient records by default: they
change on every run, so two people who re-run one chapter would conflict on every cell.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def execute(path: Path, timeout: int = 600) -> None:
    """Execute the notebook at ``path`` in place (its cells' old timing metadata is dropped)."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    nbformat.write(nb, path)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    for name in argv:
        path = Path(name)
        if path.suffix != ".ipynb" or not path.is_file():
            print(f"not a notebook: {name}", file=sys.stderr)
            return 2
        t0 = time.perf_counter()
        print(f"==> executing {path}", flush=True)
        execute(path)
        print(f"    {path.name}: {time.perf_counter() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
