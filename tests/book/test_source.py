"""attnbook.source shows the real code of a library function: the text comes from the library's one
copy, the markdown is a highlighted python block, and long or sourceless objects are refused."""

from __future__ import annotations

import inspect

import pytest

from attnbook.source import Source, show_source
from attnlib import decoding
from attnlib.companions import learning


def test_shows_the_library_source_as_markdown_and_plain_text() -> None:
    shown = show_source(decoding.teacher_forced_cached)
    code = inspect.getsource(decoding.teacher_forced_cached).rstrip("\n")
    md = shown._repr_markdown_()
    assert md.startswith("`attnlib.decoding.teacher_forced_cached`") and "```python\n" + code + "\n```" in md
    assert repr(shown) == "# attnlib.decoding.teacher_forced_cached\n" + code
    assert shown.lines == code.count("\n") + 1


def test_several_objects_and_no_docstring() -> None:
    shown = show_source(learning.adam_step, learning.SenseModel, docstring=False)
    assert [name for name, _ in shown.blocks] == ["attnlib.companions.learning.adam_step", "attnlib.companions.learning.SenseModel"]
    code = shown.blocks[0][1]
    assert learning.adam_step.__doc__.split()[0] not in code.split("\n")[2] and "def adam_step(" in code
    assert "ADAM_EPS" in code


def test_a_changed_function_changes_what_is_shown(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    (tmp_path / "demo_mod.py").write_text("def f(x):\n    return x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import demo_mod

    assert "x + 1" in repr(show_source(demo_mod.f))


@pytest.mark.parametrize("bad", [3, print, "decoding.teacher_forced_cached", learning.CUES])
def test_refuses_what_has_no_python_source(bad) -> None:  # noqa: ANN001
    with pytest.raises(TypeError, match="functions, methods and classes"):
        show_source(bad)


def test_refuses_a_wall_of_code() -> None:
    with pytest.raises(ValueError, match="more than max_lines=5"):
        show_source(learning.fit, max_lines=5)
    with pytest.raises(ValueError, match="at least one"):
        show_source()
    with pytest.raises(ValueError, match="max_lines"):
        show_source(learning.fit, max_lines=0)
    assert isinstance(show_source(learning.fit), Source)
