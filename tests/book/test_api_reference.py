"""The API reference (book/api.md) covers every public module of attnlib and attnbook, is in the toc, and the
nitpicky build ignores only third-party references, never attnlib's own."""

from __future__ import annotations

import pkgutil
import re

import attnbook
import attnlib
from tests._project import ROOT, config, toc

API = ROOT / "book" / "api.md"
CONFIG = config()


def _public_modules() -> list[str]:
    names = [m.name for pkg in (attnlib, attnbook) for m in pkgutil.walk_packages(pkg.__path__, prefix=f"{pkg.__name__}.")]
    # a chapter's own modules (attnbook.exercises.07_i_am_happy, attnbook.derivations.audit_004) are its data, not API
    return sorted(n for n in names if not any(part.startswith("_") for part in n.split("."))
                  and not re.match(r"(\d\d_|audit_)", n.rpartition(".")[2]))


def test_every_public_module_has_an_automodule_block() -> None:
    documented = set(re.findall(r"^\.\. automodule:: (\S+)\s*$", API.read_text(encoding="utf-8"), re.M))
    missing = [m for m in _public_modules() if m not in documented]
    assert not missing, f"add these modules to book/api.md (an eval-rst automodule block each): {missing}"
    unknown = documented - set(_public_modules())
    assert not unknown, f"book/api.md documents modules that do not exist: {sorted(unknown)}"


def test_api_page_is_in_the_toc_under_reference() -> None:
    reference = [p for p in toc()["parts"] if p.get("caption") == "Reference"]
    assert reference and {"file": "book/api"} in reference[0]["chapters"], reference


def test_autodoc_and_napoleon_are_enabled() -> None:
    assert {"sphinx.ext.autodoc", "sphinx.ext.napoleon"} <= set(CONFIG["sphinx"]["extra_extensions"])


def test_nitpick_ignores_never_cover_attnlib() -> None:
    ignores = CONFIG["sphinx"]["config"].get("nitpick_ignore_regex", [])
    assert ignores, "expected nitpick_ignore_regex for third-party types"
    ours = ["attnlib", "attnlib.softmax.ArrayT", "attnlib.attention.scaled_dot_product_attention",
            "attnlib.modules.MultiHeadAttention", "ArrayT", "MultiHeadAttention"]
    for kind, pattern in ignores:
        for target in ours:
            assert not re.fullmatch(pattern, target), f"nitpick_ignore_regex ({kind}, {pattern!r}) hides {target}"
    # plain nitpick_ignore would not work from YAML: Sphinx looks tuples up in it, YAML gives lists
    assert "nitpick_ignore" not in CONFIG["sphinx"]["config"], "use nitpick_ignore_regex in _config.yml"
    # and they really cover the third-party names the signatures use
    third_party = ["torch.Tensor", "numpy.ndarray", "np.ndarray", "matplotlib.axes.Axes", "collections.abc.Sequence"]
    for target in third_party:
        assert any(re.fullmatch(p, target) for _, p in ignores), target
