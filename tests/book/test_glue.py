"""attnbook.glue works with myst-nb (the book's build) and without it (Binder, Colab)."""

from __future__ import annotations

import pytest

from attnbook import glue as glue_mod


def test_without_myst_nb_the_value_is_displayed(monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[object] = []
    monkeypatch.setattr(glue_mod, "_myst_glue", None)
    monkeypatch.setattr(glue_mod, "_display", shown.append)
    glue_mod.glue("x", 0.25)
    glue_mod.glue("y", 0.5, display=False)
    assert shown == [0.25]


def test_with_myst_nb_the_value_is_handed_over(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple] = []
    monkeypatch.setattr(glue_mod, "_myst_glue", lambda name, value, display: calls.append((name, value, display)))
    glue_mod.glue("w", 1.5, display=False)
    assert calls == [("w", 1.5, False)]


@pytest.mark.parametrize("name", ["", None, 3])
def test_bad_name(name: object) -> None:
    with pytest.raises(TypeError, match="glue name"):
        glue_mod.glue(name, 1.0)  # type: ignore[arg-type]
