"""Loading the errata rows from ``book/_data/errata`` and checking their keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._yaml import read_yaml
from ._rule import ERRATA_VERDICTS, INHERITED, REQUIRED, VERDICTS


def load_rows(folder: str | Path) -> list[dict[str, Any]]:
    """All errata rows under ``folder`` (``*.yml``), sorted by document then file order.

    A row's ``consequences`` (carried values, rule 2) are returned as rows of their own, right
    after it, with ``carried_from`` set to its id and the keys of ``INHERITED`` taken from it."""
    rows: list[dict[str, Any]] = []
    for path in sorted(Path(folder).glob("*.yml")):
        data = read_yaml(path) or []
        if not isinstance(data, list):
            raise ValueError(f"{path}: expected a YAML list of rows, got {type(data).__name__}")
        for row in data:
            _require(path, row)
            rows.append({**{k: v for k, v in row.items() if k != "consequences"}, "source_file": path.name})
            for sub in row.get("consequences") or []:
                full = {**{k: row[k] for k in INHERITED if k in row}, **sub}
                _require(path, full)
                if full["verdict"] != "carried":
                    raise ValueError(f"{path}: consequence {full['id']!r} of {row['id']!r} must have verdict 'carried'")
                rows.append({**full, "carried_from": row["id"], "source_file": path.name})
    return sorted(rows, key=lambda r: str(r["document"]))


def _require(path: Path, row: dict[str, Any]) -> None:
    missing = [k for k in REQUIRED if k not in row]
    if missing:
        raise ValueError(f"{path}: row {row.get('id', '?')!r} lacks keys {missing}")
    if row["verdict"] not in VERDICTS:
        raise ValueError(f"{path}: row {row['id']!r} has verdict {row['verdict']!r}, not one of {VERDICTS}")
    if row["verdict"] in ERRATA_VERDICTS and not row.get("why"):
        raise ValueError(f"{path}: row {row['id']!r} is an erratum but has no 'why'")
