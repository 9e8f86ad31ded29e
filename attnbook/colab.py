"""The first code cell of every chapter: install attnlib where it is missing (Google Colab).

Colab opens one notebook, without the repository around it, so ``import attnlib`` would fail
there. Every chapter therefore starts with the same tiny cell, whose text is generated here by
:func:`install_cell` from the repository URL set once in ``_config.yml`` (``repository.url``).
The cell asks the import system whether attnlib can be found and only then runs ``%pip install``,
so on Binder, in a local clone (``pip install -e .``) and in the test suite it does nothing.

The cell cannot call a function of attnlib — attnlib is exactly what may be missing — so the
behaviour lives in the generated text itself. ``tests/build/test_colab.py`` executes that text with
attnlib present and absent and checks that every chapter's first code cell is exactly
``install_cell(<repository.url>)``; ``tools/colab_cell.py`` inserts or updates it.

Used in: every chapter (its first code cell).
"""

from __future__ import annotations

import re

PACKAGE = "attnlib"
#: The optional dependency groups (``pyproject.toml``) a chapter may need: plots and sliders.
EXTRAS: tuple[str, ...] = ("viz", "widgets")
_URL = re.compile(r"https://[A-Za-z0-9.-]+(?:/[A-Za-z0-9._~-]+)+")


def requirement(repo_url: str, extras: tuple[str, ...] = EXTRAS) -> str:
    """The pip requirement that installs attnlib (with ``extras``) from the git repository.

    ``requirement("https://github.com/o/r")`` is ``"attnlib[viz,widgets] @ git+https://github.com/o/r"``
    (a PEP 508 direct reference). A trailing slash is dropped. Raises ``TypeError`` if
    ``repo_url`` is not a string and ``ValueError`` if it is not a plain ``https://host/path`` URL
    (no query, fragment, quotes or spaces: it is pasted into a shell-like ``%pip`` line).
    """
    if not isinstance(repo_url, str):
        raise TypeError(f"repo_url must be a str, got {type(repo_url).__name__}")
    url = repo_url.rstrip("/")
    if not _URL.fullmatch(url):
        raise ValueError(f"repo_url must look like https://host/owner/name, got {repo_url!r}")
    for extra in extras:
        if not re.fullmatch(r"[a-z][a-z0-9-]*", extra):
            raise ValueError(f"extras must be lower-case names like 'viz', got {extra!r}")
    suffix = f"[{','.join(extras)}]" if extras else ""
    return f"{PACKAGE}{suffix} @ git+{url}"


def install_cell(repo_url: str) -> str:
    """The exact source of every chapter's first code cell, for the repository at ``repo_url``.

    Three lines: a comment saying why the cell is there, a check that attnlib cannot be found,
    and ``%pip install`` of :func:`requirement` under that check.
    """
    return (
        "import importlib.util  # in Colab, install the book's package first\n"
        f'if importlib.util.find_spec("{PACKAGE}") is None:\n'
        f'    %pip install --quiet "{requirement(repo_url)}"'
    )
