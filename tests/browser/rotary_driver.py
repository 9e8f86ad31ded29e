"""The positions chapter's rotary widget, read on the page and compared with attnlib: shared by
test_widgets.py (the generic checks) and test_rotary_widget.py (its buttons)."""

from __future__ import annotations

from attnlib.widgets.rotary import rotary_numbers
from bookdev import widgets as wd

TOL = 0.5e-3 + 1e-9  # a number printed with 3 decimals is within half a unit of the last decimal


def _close(shown: str, expected: float, what: str) -> None:
    value = wd.number(shown)
    assert abs(value - expected) <= TOL, f"{what}: page shows {shown!r}, attnlib computes {expected:.6f}"


def check_rotary_numbers(w: wd.Widget) -> None:
    """What the rotary widget shows now is what ``rotary_numbers`` computes with attnlib.positions."""
    t = w.texts()
    m, n, pair = int(t["query_position"]), int(t["key_position"]), int(t["pair"])
    exp = rotary_numbers(w.state["query_vector"], w.state["key_vector"], m, n, pair, sinusoidal=t["sinusoidal"] == "true")
    _close(t["score"], exp["score"], f"score at m={m}, n={n}")
    assert wd.number(t["offset"]) == exp["offset"], (t["offset"], exp["offset"])
    _close(t["turn"], round(exp["turn"], 2), f"turn of pair {pair}")
    for name, key in (("query-pair", "query_pair"), ("key-pair", "key_pair")):
        for shown, value in zip(wd.numbers(t[name]), exp[key], strict=True):
            assert abs(shown - value) <= TOL, f"{name} at m={m}, n={n}, pair {pair}: page {t[name]!r}, attnlib {exp[key]}"
    text = w.all_text()
    for bad in ("NaN", "Infinity", "undefined"):
        assert bad not in text, f"the rotary widget shows {bad!r}: {text[:300]}"
