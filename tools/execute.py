"""Run chapters from a clean kernel, in order, and store their outputs (``make execute``).

    .venv/bin/python -m tools.execute book/05_softmax.ipynb [...]
    .venv/bin/python -m tools.execute --tidy book/05_softmax.ipynb [...]   (no run: see below)

Like ``jupyter execute --inplace``, with the chapter's folder as the working directory and the
widgets' state stored, but without what would change on every run of an unchanged chapter, so that a
diff shows only what did change:

- the per-cell timestamps that nbclient records by default;
- a cell's printed text split into several outputs where the kernel happened to flush it in pieces:
  consecutive pieces of one stream are joined (``join_streams``; text printed after a figure stays
  after it);
- the widgets' model ids, which the kernel draws at random: they are renamed to ids derived from the
  chapter's file name and the order in which its outputs and widget state name them (``stable_ids``).

``--tidy`` applies those two to the stored outputs without running anything: what a run of the
unchanged chapter would store, for a notebook executed before (or by another tool).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

STATE_MIME = "application/vnd.jupyter.widget-state+json"
VIEW_MIME = "application/vnd.jupyter.widget-view+json"
_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def _model_order(nb: nbformat.NotebookNode, state: dict) -> list[str]:
    """The notebook's model ids in an order that does not depend on the ids themselves: the views in
    the outputs, cell by cell; then, breadth first, the models each of those refers to
    (``IPY_MODEL_<id>``, in the order of its state's sorted fields); then any model no view reaches,
    by its state with the references blanked out."""
    order: list[str] = []

    def add(mid: str) -> None:
        if mid in state and mid not in order:
            order.append(mid)

    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(VIEW_MIME)
            if isinstance(view, dict):
                add(view.get("model_id", ""))
    i = 0
    while i < len(order):
        for ref in _REF.findall(json.dumps(state[order[i]], sort_keys=True)):
            add(ref)
        i += 1
    rest = sorted(set(state) - set(order), key=lambda m: _REF.sub("IPY_MODEL_", json.dumps(state[m], sort_keys=True)))
    return order + rest


def join_streams(nb: nbformat.NotebookNode) -> None:
    """Join each run of consecutive stream outputs of one name (stdout, stderr) into one output."""
    for cell in nb.cells:
        outputs = cell.get("outputs")
        if not outputs:
            continue
        joined: list = []
        for out in outputs:
            prev = joined[-1] if joined else None
            if (out.get("output_type") == "stream" and prev is not None and prev.get("output_type") == "stream"
                    and prev.get("name") == out.get("name")):
                prev["text"] += out["text"]
            else:
                joined.append(out)
        cell.outputs = joined


def tidy(nb: nbformat.NotebookNode, key: str) -> None:
    """What varies between runs of an unchanged notebook, made the same: ``join_streams`` and ``stable_ids``."""
    join_streams(nb)
    stable_ids(nb, key)


def stable_ids(nb: nbformat.NotebookNode, key: str) -> dict[str, str]:
    """Rename the widget models of an executed notebook to ids derived from ``key`` (the chapter's
    file name) and their order (``_model_order``), in its outputs and its widget-state metadata
    alike; return the renaming (old id -> new id). The new ids keep the form of the kernel's
    (32 hex digits), and re-executing an unchanged chapter gives the same ones."""
    state = nb.metadata.get("widgets", {}).get(STATE_MIME, {}).get("state", {})
    if not state:
        return {}
    renamed = {old: hashlib.sha256(f"{key}:{i}".encode()).hexdigest()[:32]
               for i, old in enumerate(_model_order(nb, state))}
    pattern = re.compile("|".join(map(re.escape, renamed)))

    def rename(value: object) -> object:
        if isinstance(value, str):
            return pattern.sub(lambda m: renamed[m.group(0)], value)
        if isinstance(value, list):
            return [rename(v) for v in value]
        if isinstance(value, dict):
            return type(value)((rename(k), rename(v)) for k, v in value.items())
        return value

    for cell in nb.cells:
        if "outputs" in cell:
            cell.outputs = nbformat.from_dict(rename(cell.outputs))
    nb.metadata["widgets"][STATE_MIME]["state"] = nbformat.from_dict(rename(state))
    return renamed


def execute(path: Path, timeout: int = 600) -> None:
    """Execute the notebook at ``path`` in place (its cells' old timing metadata is dropped)."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    tidy(nb, path.name)
    nbformat.write(nb, path)


def main(argv: list[str]) -> int:
    tidy_only = "--tidy" in argv
    argv = [a for a in argv if a != "--tidy"]
    if not argv:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    for name in argv:
        path = Path(name)
        if path.suffix != ".ipynb" or not path.is_file():
            print(f"not a notebook: {name}", file=sys.stderr)
            return 2
        if tidy_only:
            nb = nbformat.read(path, as_version=4)
            tidy(nb, path.name)
            nbformat.write(nb, path)
            print(f"==> tidied {path} (not run)", flush=True)
            continue
        t0 = time.perf_counter()
        print(f"==> executing {path}", flush=True)
        execute(path)
        print(f"    {path.name}: {time.perf_counter() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
