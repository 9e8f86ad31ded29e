"""Exercises from data: ``data/<slug>.yml`` (the text) and ``<slug>.py`` (the computations) make the
:class:`~attnbook.exercises.Exercise` objects the checker, the page and the tests use.

A chapter's slug is its notebook's stem (``07_i_am_happy``); its file has ``chapter`` (that slug), ``sections`` (short key -> heading text) and
``exercises``, a list of records::

    id, kind, skill, section, prompt, hint, why (optional)
    answer:   its type, then that type's keys, one of
              {type: numeric, value: fn, tol, expect, units (optional)}   (a number, vector or shape)
              {type: choice, options: {a: text, ...}, correct: a | correct_from: fn}  (multiple choice)
              {type: find-error, steps: {a: text, ...}, wrong_step, value: fn, tol, expect, value_hint}
              {type: code, signature, returns, reference: fn, cases: fn, seed, rtol, atol (optional)}
              {type: trained, signature, returns, data: fn, threshold: fn, timeout (optional)}  (train a model)
    mistakes: a list of {id, label, hint, section (optional), and one of value: fn | option: key | impl: fn
              | outcome: one-class or memorised (a training exercise)}

Nothing in the file is evaluated. ``fn`` is the name of a function registered on the chapter's
:class:`~attnbook.exercises._registry.ChapterCode`; every text may show the chapter's registered
values through ``str.format`` fields, ``{name}`` or ``{name:.3f}`` (plain names only).

Used by: ``attnbook.exercises`` (the registry of every exercise).
"""

from __future__ import annotations

import importlib
import string
from pathlib import Path
from types import ModuleType
from typing import Any

from .._yaml import read_yaml
from ._registry import ChapterCode
from ._types import Choice, Code, Exercise, FindError, Misconception, Mistake, Numeric, Section, Trained

DATA = Path(__file__).resolve().parent / "data"
TEXT_KEYS = ("skill", "prompt", "hint", "why")
_ANSWER_KEYS = {
    "numeric": {"value", "tol", "expect", "units"},
    "choice": {"options", "correct", "correct_from"},
    "find-error": {"steps", "wrong_step", "value", "tol", "expect", "value_hint", "units"},
    "code": {"signature", "returns", "reference", "cases", "seed", "rtol", "atol"},
    "trained": {"signature", "returns", "data", "threshold", "timeout"},
}
_EXERCISE_KEYS = {"id", "kind", "skill", "section", "prompt", "answer", "mistakes", "hint", "why"}
_MISTAKE_KEYS = {"id", "label", "hint", "section", "value", "option", "impl", "outcome"}


def fields(template: str) -> list[str]:
    """The names of the ``{name}`` fields of ``template`` (``{{`` and ``}}`` are literal braces)."""
    return [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]


def text(template: Any, values: dict[str, Any], where: str) -> str:
    """``template`` with its fields filled from ``values``; a field with no value is an error."""
    if not isinstance(template, str):
        raise TypeError(f"{where}: expected text, got {type(template).__name__} {template!r}")
    for name in fields(template):
        if not name.isidentifier():
            raise ValueError(f"{where}: field {{{name}}} must be a plain name (no indexing, attributes or positions)")
        if name not in values:
            raise KeyError(f"{where}: field {{{name}}} has no value; register it with code.values({name}=...)")
    return template.format_map(values)


def path_of(code: ChapterCode) -> Path:
    return DATA / f"{code.slug}.yml"


def read(path: Path) -> dict[str, Any]:
    """A chapter's YAML, as plain data (the safe loader: no tags, nothing run)."""
    data = read_yaml(path)
    if not isinstance(data, dict) or set(data) != {"chapter", "sections", "exercises"}:
        raise ValueError(f"{path}: needs exactly the keys chapter, sections, exercises")
    return data


def _keys_known(record: dict[str, Any], allowed: set[str], where: str) -> None:
    if not isinstance(record, dict):
        raise TypeError(f"{where}: expected a mapping, got {type(record).__name__}")
    unknown = set(record) - allowed
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)} (allowed: {sorted(allowed)})")


def _options(items: Any, values: dict[str, Any], where: str) -> list[tuple[str, str]]:
    if not isinstance(items, dict) or not all(isinstance(k, str) for k in items):
        raise TypeError(f"{where}: expected a mapping of option letters to text, got {items!r}")
    return [(key, text(t, values, f"{where}.{key}")) for key, t in items.items()]


def _answer(spec: dict[str, Any], code: ChapterCode, values: dict[str, Any], where: str) -> Any:
    kind = spec.get("type") if isinstance(spec, dict) else None
    if kind not in _ANSWER_KEYS:
        raise ValueError(f"{where}: the answer needs a type, one of {sorted(_ANSWER_KEYS)}; got {kind!r}")
    _keys_known(spec, _ANSWER_KEYS[kind] | {"type"}, where)
    if kind == "trained":
        extra = {k: spec[k] for k in ("timeout",) if k in spec}
        return Trained(text(spec["signature"], values, f"{where}.signature"), text(spec["returns"], values, f"{where}.returns"),
                       code.named(spec["data"], f"{where}.data"), code.named(spec["threshold"], f"{where}.threshold")(),
                       **extra)
    if kind == "code":
        extra = {k: spec[k] for k in ("seed", "rtol", "atol") if k in spec}
        return Code(text(spec["signature"], values, f"{where}.signature"), text(spec["returns"], values, f"{where}.returns"),
                    code.named(spec["reference"], f"{where}.reference"), code.named(spec["cases"], f"{where}.cases"),
                    **extra)
    if kind == "choice":
        if ("correct" in spec) == ("correct_from" in spec):
            raise ValueError(f"{where}: give exactly one of correct, correct_from")
        correct = spec["correct"] if "correct" in spec else code.named(spec["correct_from"], f"{where}.correct_from")
        return Choice(_options(spec["options"], values, f"{where}.options"), correct)  # correct_from: run when asked
    numeric = Numeric(code.named(spec["value"], f"{where}.value"), tol=spec["tol"],
                      expect=text(spec["expect"], values, f"{where}.expect"), units=bool(spec.get("units", False)))
    if kind == "numeric":
        return numeric
    return FindError(_options(spec["steps"], values, f"{where}.steps"), spec["wrong_step"], numeric,
                     text(spec["value_hint"], values, f"{where}.value_hint"))


def _mistake(record: dict[str, Any], code: ChapterCode, values: dict[str, Any], sections: dict[str, Section],
             where: str) -> Mistake:
    _keys_known(record, _MISTAKE_KEYS, where)
    section = _section(record["section"], sections, where) if "section" in record else None
    misconception = Misconception(record["id"], text(record["label"], values, f"{where}.label"),
                                  text(record["hint"], values, f"{where}.hint"), section)
    if "value" in record:
        return Mistake(misconception, value=code.named(record["value"], f"{where}.value"))
    if "impl" in record:
        return Mistake(misconception, impl=code.named(record["impl"], f"{where}.impl"))
    if "outcome" in record:
        return Mistake(misconception, outcome=record["outcome"])
    return Mistake(misconception, option=record.get("option"))


def _section(key: Any, sections: dict[str, Section], where: str) -> Section:
    if key not in sections:
        raise KeyError(f"{where}: no section {key!r} in this chapter's sections ({', '.join(sections)})")
    return sections[key]


def load(code: ChapterCode, path: Path | None = None) -> list[Exercise]:
    """The exercises of ``code``'s chapter, from its YAML (``data/<slug>.yml`` unless ``path`` is
    given) and its registered functions and values."""
    path = path or path_of(code)
    data = read(path)
    if path == path_of(code) and data["chapter"] != code.slug:
        raise ValueError(f"{path}: chapter is {data['chapter']!r}, but the file is that of {code.slug!r}")
    sections = {key: Section(data["chapter"], title) for key, title in data["sections"].items()}
    values = code.prompt_values
    out = []
    for record in data["exercises"]:
        where = f"{path.name}: exercise {record.get('id')!r}"
        _keys_known(record, _EXERCISE_KEYS, where)
        out.append(Exercise(
            id=record["id"], kind=record["kind"], skill=text(record["skill"], values, f"{where}.skill"),
            prompt=text(record["prompt"], values, f"{where}.prompt"),
            answer=_answer(record["answer"], code, values, f"{where}.answer"),
            mistakes=[_mistake(m, code, values, sections, f"{where}.mistakes[{i}]")
                      for i, m in enumerate(record["mistakes"])],
            hint=text(record["hint"], values, f"{where}.hint"),
            section=_section(record["section"], sections, where),
            why=text(record.get("why", ""), values, f"{where}.why"),
        ))
        if out[-1].chapter != code.chapter:
            raise ValueError(f"{where}: the id's chapter is not {code.chapter}")
    return out


def names(data: dict[str, Any]) -> list[str]:
    """Every function name a chapter's YAML uses (answers, wrong answers, references, cases)."""
    found = []
    for record in data["exercises"]:
        answer = record["answer"]
        found += [answer[k] for k in ("value", "correct_from", "reference", "cases", "data", "threshold") if k in answer]
        found += [m[k] for m in record["mistakes"] for k in ("value", "impl") if k in m]
    return found


def templates(data: dict[str, Any]) -> list[tuple[str, str]]:
    """Every text of a chapter's YAML as (where, template): the fields where numbers go."""
    found = []
    for record in data["exercises"]:
        where = f"{record['id']}"
        found += [(f"{where}.{k}", record[k]) for k in TEXT_KEYS if k in record]
        answer = record["answer"]
        found += [(f"{where}.answer.{k}", answer[k]) for k in ("expect", "returns", "value_hint") if k in answer]
        for group in ("options", "steps"):
            found += [(f"{where}.{group}.{key}", t) for key, t in answer.get(group, {}).items()]
        for m in record["mistakes"]:
            found += [(f"{where}.{m['id']}.{k}", m[k]) for k in ("label", "hint")]
    return found


def exercises_of(module: ModuleType) -> list[Exercise]:
    """A chapter module's exercises: its YAML with the functions and values its ``code`` registers."""
    return load(module.code)


def chapter_modules() -> list[ModuleType]:
    """Every chapter module of this package (``07_i_am_happy.py``: two digits, then the notebook's
    name), imported, in reading order. A new chapter's module is found by its name alone."""
    package = __name__.rpartition(".")[0]
    stems = sorted(p.stem for p in Path(__file__).parent.glob("[0-9][0-9]_*.py"))
    return [importlib.import_module(f"{package}.{stem}") for stem in stems]
