"""The exercises as data (attnbook/exercises/data/chNN.yml) and their computations (chNN.py): a name
in the YAML with no function fails, a registered function or value no exercise uses fails, a field
with no value fails, a number typed into the text fails, and nothing in the YAML is run (issue 13)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import yaml

from attnbook.exercises import EXERCISES, _catalog, _load
from attnbook.exercises._registry import ChapterCode, Numbers
from tests._project import ROOT, pyproject_toml

DATA_MODULES = _catalog._MODULES
CHAPTERS = [m.code.chapter for m in DATA_MODULES]


def _data(module: object) -> dict:
    return _load.read(_load.path_of(module.code))


def test_every_data_file_has_its_module_and_back() -> None:
    files = sorted(p.stem for p in _load.DATA.glob("*.yml"))
    assert files == [m.code.slug for m in DATA_MODULES]
    assert len(DATA_MODULES) >= 17


def test_one_key_per_chapter_in_reading_order() -> None:
    """A chapter's notebook, exercise module and data, and errata rows share one slug, and the
    numbers follow the reading order of _toc.yml."""
    toc = [line.split("book/")[1].strip() for line in (ROOT / "_toc.yml").read_text().splitlines()
           if line.strip().startswith("- file: book/") and line.split("book/")[1][:2].isdigit()]
    assert toc == sorted(toc), toc
    assert [int(s[:2]) for s in toc] == list(range(1, len(toc) + 1))
    assert {m.code.slug for m in DATA_MODULES} <= set(toc)
    for m in DATA_MODULES:
        assert (ROOT / "book" / f"{m.code.slug}.ipynb").is_file()
        assert all(ex.id.startswith(m.code.chapter + ".") for ex in _load.exercises_of(m))
    errata = {p.stem for p in (ROOT / "book" / "_data" / "errata").glob("[0-9][0-9]_*.yml")}
    assert errata <= set(toc)
    rows = {p.stem for p in (ROOT / "attnbook" / "derivations").glob("[0-9][0-9]_*.py")}
    assert rows == errata


@pytest.mark.parametrize("module", DATA_MODULES, ids=CHAPTERS)
def test_yaml_names_registered_functions_and_no_function_is_left_over(module: object) -> None:
    named = _load.names(_data(module))
    registered = set(module.code.functions)
    assert not set(named) - registered, f"names with no function: {sorted(set(named) - registered)}"
    assert not registered - set(named), f"functions no exercise names: {sorted(registered - set(named))}"


@pytest.mark.parametrize("module", DATA_MODULES, ids=CHAPTERS)
def test_every_value_is_shown_and_every_field_has_a_value(module: object) -> None:
    used = {name for _, t in _load.templates(_data(module)) for name in _load.fields(t)}
    values = set(module.code.prompt_values)
    assert not used - values, f"fields with no value: {sorted(used - values)}"
    assert not values - used, f"values no text shows: {sorted(values - used)}"


# A number with decimals, or a square root of a number, typed into the text instead of a field.
_TYPED = re.compile(r"(?<![\w.{])\d+\.\d+|√\d")


def _typed(template: str) -> list[str]:
    """The numbers typed into ``template`` outside its fields (an exercise id such as 08.1 is no number)."""
    literal = re.sub(r"\{[^{}]*\}", " ", template.replace("{{", "").replace("}}", ""))
    literal = re.sub(r"\b\d\d\.\d+\b", lambda m: "" if m.group(0) in EXERCISES else m.group(0), literal)
    return [m.group(0) for m in _TYPED.finditer(literal)]


@pytest.mark.parametrize("module", DATA_MODULES, ids=CHAPTERS)
def test_no_number_is_typed_into_the_text(module: object) -> None:
    found = [(where, n) for where, template in _load.templates(_data(module)) for n in _typed(template)]
    assert not found, f"numbers typed into the text (compute them in Python and show a field): {found}"


def test_the_typed_number_check_catches_one() -> None:
    assert _typed("The divisor is √3 ≈ 1.732, not {d}; see 07.1, {{literal}} and {sqrt_d:.3f}.") == ["√3", "1.732"]


# --- the loader on small made-up chapters ----------------------------------------------------------

_ONE = {
    "chapter": "99_test", "sections": {"main": "Main"},
    "exercises": [{
        "id": "99.1", "kind": "compute", "skill": "a value", "section": "main",
        "prompt": "Given {x:.2f}, enter twice it.", "answer": {"type": "numeric", "value": "answer", "tol": 0.001, "expect": "one number"},
        "mistakes": [{"id": "same", "label": "the value itself", "hint": "Double it.", "value": "same"},
                     {"id": "half", "label": "halved", "hint": "Twice, not half.", "section": "main", "value": "half"}],
        "hint": "Multiply by 2.",
    }],
}


def _chapter() -> ChapterCode:
    code = ChapterCode("tests.99_test")
    code.values(x=Numbers(np.array([1.234, 5.0])))
    code.function(lambda: 2.468, name="answer")
    code.function(lambda: 1.234, name="same")
    code.function(lambda: 0.617, name="half")
    return code


def _write(tmp_path: Path, data: dict | str) -> Path:
    path = tmp_path / "99_test.yml"
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _changed(**edits: object) -> dict:
    data = yaml.safe_load(yaml.safe_dump(_ONE))
    data["exercises"][0].update(edits)
    return data


def test_a_made_up_chapter_loads(tmp_path: Path) -> None:
    (ex,) = _load.load(_chapter(), _write(tmp_path, _ONE))
    assert ex.prompt == "Given [1.23, 5.00], enter twice it." and float(ex.answer.value[0]) == 2.468
    assert [m.misconception.key for m in ex.mistakes] == ["same", "half"] and ex.link_of(ex.mistakes[0].misconception).title == "Main"


def test_a_name_with_no_function_fails(tmp_path: Path) -> None:
    data = _changed(answer={"type": "numeric", "value": "no_such_function", "tol": 0.001, "expect": "one number"})
    with pytest.raises(KeyError, match="no function 'no_such_function'"):
        _load.load(_chapter(), _write(tmp_path, data))


@pytest.mark.parametrize("answer_type", [None, "multiple", 3])
def test_an_answer_names_its_type(tmp_path: Path, answer_type: object) -> None:
    """The answer's type is read, never guessed from which keys are present."""
    answer = {"value": "answer", "tol": 0.001, "expect": "one number"}
    if answer_type is not None:
        answer["type"] = answer_type
    with pytest.raises(ValueError, match=f"the answer needs a type, one of .*; got {answer_type!r}"):
        _load.load(_chapter(), _write(tmp_path, _changed(answer=answer)))


def test_a_field_with_no_value_fails(tmp_path: Path) -> None:
    with pytest.raises(KeyError, match=r"field \{y\} has no value"):
        _load.load(_chapter(), _write(tmp_path, _changed(prompt="Given {y}, enter twice it.")))


@pytest.mark.parametrize("prompt", ["{x.value}", "{x[0]}", "{0}"])
def test_a_field_is_a_plain_name(tmp_path: Path, prompt: str) -> None:
    with pytest.raises((ValueError, KeyError), match="plain name|has no value"):
        _load.load(_chapter(), _write(tmp_path, _changed(prompt=prompt)))


def test_an_unknown_key_fails(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown keys"):
        _load.load(_chapter(), _write(tmp_path, _changed(hnit="a typo")))


def test_an_unknown_section_fails(tmp_path: Path) -> None:
    with pytest.raises(KeyError, match="no section 'elsewhere'"):
        _load.load(_chapter(), _write(tmp_path, _changed(section="elsewhere")))


def test_nothing_in_the_yaml_is_run(tmp_path: Path) -> None:
    text = yaml.safe_dump(_ONE).replace("prompt:", "prompt: !!python/object/apply:os.system ['true']\n  old_prompt:")
    with pytest.raises(yaml.YAMLError):
        _load.load(_chapter(), _write(tmp_path, text))


def test_two_functions_of_one_name_fail() -> None:
    code = _chapter()
    with pytest.raises(ValueError, match="two functions named 'answer'"):
        code.function(lambda: 0.0, name="answer")
    with pytest.raises(ValueError, match="two values named 'x'"):
        code.values(x=1)


def test_the_data_files_ship_with_the_package() -> None:
    """``pip install`` (the Colab cell) must install data/*.yml next to the modules that read them."""
    package_data = pyproject_toml()["tool"]["setuptools"]["package-data"]
    patterns = package_data["attnbook"]
    base = ROOT / "attnbook"
    shipped = {p for pattern in patterns for p in base.glob(pattern)}
    assert set(_load.DATA.glob("*.yml")) <= shipped, patterns
