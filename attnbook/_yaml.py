"""The book's YAML data files (exercises, errata, the documents' inventories), read as plain data.

The safe loader (no tags, nothing run), in libyaml's C build when PyYAML has it: the same data as
``yaml.safe_load`` gives, parsed about ten times faster (every chapter with exercises reads them all).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    """The data of the YAML file ``path``, as ``yaml.safe_load`` reads it."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)
