"""Exercises on the page: the data ``exercise.js`` reads, and the HTML a chapter displays.

:func:`export` turns an :class:`~attnbook.exercises.Exercise` into plain data (JSON): the prompt,
the answer attnlib computed, the tolerance, and every misconception with the wrong answer it gives
(numbers computed here, never code). :func:`show` displays a chapter's exercises: in a kernel the
text tells how to call ``check``; in HTML (the static page, or a trusted notebook) ``exercise.js``
builds the input boxes and gives the same verdict as :func:`~attnbook.exercises.diagnose`.

Used in: the "Exercises" section of every chapter.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

from attnlib.widgets import dom_helpers_js

from ._catalog import EXERCISES, by_chapter
from ._diagnose import confusions
from ._types import (
    KIND_LABELS,
    REPOSITORY,
    TITLES,
    Choice,
    Code,
    Exercise,
    FindError,
    Mistake,
    Numeric,
    Trained,
)

_HERE = Path(__file__).resolve().parent


#: Significant digits of the numbers in a page's exercise data: far finer than any exercise's
#: tolerance, and coarser than the last digits that another CPU's float arithmetic may change.
PAGE_DIGITS = 10


def page_numbers(value: Any) -> Any:
    """``value`` (a number or nested lists of them) with every float rounded to ``PAGE_DIGITS``
    significant digits, so that the stored page data is the same on every CPU."""
    if isinstance(value, float):
        return float(f"{value:.{PAGE_DIGITS}g}")
    if isinstance(value, list):
        return [page_numbers(v) for v in value]
    return value


def _numeric(spec: Numeric, mistakes: list[Mistake]) -> dict[str, Any]:
    out: dict[str, Any] = {"value": page_numbers(spec.value.tolist()), "tol": spec.tol, "expect": spec.expect}
    if spec.units:
        out["units"] = True
    found = confusions(spec, mistakes)
    if found:
        out["confusions"] = [{"value": page_numbers(v.tolist()), "names": names} for v, names in found]
    return out


def export(ex: Exercise) -> dict[str, Any]:
    """The exercise as JSON-ready data for ``exercise.js`` (the same table :func:`diagnose` uses)."""
    spec = ex.answer
    answer: dict[str, Any]
    if isinstance(spec, Numeric):
        answer = {"type": "numeric", **_numeric(spec, ex.mistakes)}
    elif isinstance(spec, Choice):
        answer = {"type": "choice", "options": [list(o) for o in spec.options], "correct": spec.correct}
    elif isinstance(spec, FindError):
        answer = {"type": "find-error", "steps": [list(s) for s in spec.steps], "wrong": spec.wrong_step,
                  "value": _numeric(spec.value, [m for m in ex.mistakes if m.computed is not None]),
                  "valueHint": spec.value_hint}
    else:
        assert isinstance(spec, (Code, Trained))
        nb = f"book/{ex.section.chapter}.ipynb"
        answer = {"type": "code", "signature": spec.signature, "returns": spec.returns,
                  "colab": f"https://colab.research.google.com/github/{REPOSITORY}/blob/main/{nb}",
                  "binder": f"https://mybinder.org/v2/gh/{REPOSITORY}/main?urlpath=lab/tree/{nb}"}
    mistakes = []
    for m in ex.mistakes:
        c = m.misconception
        link = ex.link_of(c)
        item: dict[str, Any] = {"key": c.key, "name": c.name, "title": f"Not quite: {c.name}.", "hint": c.hint,
                                "href": link.href, "linkTitle": link.plain_title}
        if m.option is not None:
            item["option"] = m.option
        if m.computed is not None:
            item["value"] = page_numbers(m.computed.tolist())
        mistakes.append(item)
    return {
        "id": ex.id, "kind": ex.kind, "kindLabel": KIND_LABELS[ex.kind], "skill": ex.skill, "prompt": ex.prompt,
        "hint": ex.hint, "why": ex.why, "href": ex.section.href, "linkTitle": ex.section.plain_title,
        "titles": TITLES, "answer": answer, "mistakes": mistakes,
    }


def _json_for_html(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def _card(ex: Exercise) -> str:
    anchor = "exercise-" + ex.id.replace(".", "-")
    steps = ""
    if isinstance(ex.answer, FindError):
        items = "".join(f"<li><strong>{escape(k)}.</strong> {escape(t)}</li>" for k, t in ex.answer.steps)
        steps = f'<ul class="attnex-steps">{items}</ul>'
    example = {Code: "your_function", Trained: "train", Choice: '"a"', FindError: '("a", 1.234)'}.get(type(ex.answer), "your_answer")
    call = f'check("{ex.id}", {example})'
    return (
        f'<section class="attnex" id="{anchor}" data-exercise="{escape(ex.id)}" aria-labelledby="{anchor}-title">'
        f'<p class="attnex-title" id="{anchor}-title"><strong>Exercise {escape(ex.id)}</strong> · '
        f"{escape(KIND_LABELS[ex.kind])} · <span class=\"attnex-skill\">{escape(ex.skill)}</span></p>"
        f'<p class="attnex-prompt">{escape(ex.prompt)}</p>{steps}'
        f'<div class="attnex-form"></div>'
        f'<p class="attnex-kernel">In a live kernel: <code>{escape(call)}</code></p>'
        f'<div class="attnex-feedback" role="status" aria-live="polite"></div>'
        "</section>"
    )


class ExerciseSet:
    """A chapter's exercises, displayed: HTML with the data and ``exercise.js``; text in a terminal."""

    def __init__(self, exercises: list[Exercise]) -> None:
        self.exercises = exercises

    def __repr__(self) -> str:
        lines = [f"Exercise {ex.id} ({KIND_LABELS[ex.kind].lower()}): {ex.prompt}" for ex in self.exercises]
        lines.append('Answer with check("NN.N", your_answer); the solutions are in the cells below.')
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        css = (_HERE / "exercise.css").read_text(encoding="utf-8")
        js = dom_helpers_js() + "\n" + (_HERE / "exercise.js").read_text(encoding="utf-8")
        data = _json_for_html([export(ex) for ex in self.exercises])
        cards = "".join(_card(ex) for ex in self.exercises)
        return (f'<div class="attnex-set"><style>{css}</style>'
                f'<script type="application/json" class="attnex-data">{data}</script>{cards}'
                f'<script type="module">{js}</script></div>')


def show(chapter: str) -> ExerciseSet:
    """The exercises of ``chapter`` ("07") for display (the chapter's Exercises section)."""
    found = by_chapter(chapter)
    if not found:
        raise ValueError(f"no exercises for chapter {chapter!r}; chapters look like '07'")
    return ExerciseSet(found)


class Catalogue:
    """Every exercise by chapter: id (linked to the exercise in its chapter), kind, skill, and the
    misconceptions it diagnoses. Displayed on the "Exercises" page."""

    def __init__(self, exercises: list[Exercise]) -> None:
        self.exercises = exercises

    def _chapters(self) -> dict[str, list[Exercise]]:
        out: dict[str, list[Exercise]] = {}
        for ex in self.exercises:
            out.setdefault(ex.chapter, []).append(ex)
        return out

    def __repr__(self) -> str:
        lines = []
        for ex in self.exercises:
            names = "; ".join(m.misconception.name for m in ex.mistakes)
            lines.append(f"{ex.id} {KIND_LABELS[ex.kind].lower()}: {ex.skill} — diagnoses: {names}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        parts = []
        for chapter, items in self._chapters().items():
            page = items[0].section.chapter
            rows = "".join(
                f'<tr><td><a href="{escape(ex.section.chapter)}.html#exercise-{ex.id.replace(".", "-")}">'
                f"{escape(ex.id)}</a></td><td>{escape(KIND_LABELS[ex.kind])}</td><td>{escape(ex.skill)}</td>"
                f"<td>{escape('; '.join(m.misconception.name for m in ex.mistakes))}</td></tr>"
                for ex in items
            )
            parts.append(
                f'<table class="attnex-catalogue"><caption>Chapter {escape(chapter)} '
                f'(<a href="{escape(page)}.html#exercises">{escape(page)}</a>)</caption>'
                "<thead><tr><th scope=\"col\">Exercise</th><th scope=\"col\">Kind</th><th scope=\"col\">Skill</th>"
                f"<th scope=\"col\">Misconceptions it diagnoses</th></tr></thead><tbody>{rows}</tbody></table>"
            )
        return f"<div class=\"attnex-catalogue-set\"><style>{_CATALOGUE_CSS}</style>{''.join(parts)}</div>"


# An opaque card with dark ink, as the figures and widgets: readable in the light and the dark theme.
_CATALOGUE_CSS = (
    ".attnex-catalogue{background:#fff;color:#222;border-collapse:collapse;margin:0.8em 0;width:100%;"
    "overflow-wrap:anywhere}.attnex-catalogue caption{color:#222;background:#fff;font-weight:600;text-align:left;"
    "padding:0.3em 0.5em}.attnex-catalogue th,.attnex-catalogue td{color:#222;background:#fff;"
    "border:1px solid #b8b8b8;padding:0.25em 0.5em;vertical-align:top}.attnex-catalogue a{color:#0b57a4}"
)


def catalogue() -> Catalogue:
    """Every exercise of the book, by chapter (the "Exercises" page)."""
    return Catalogue(list(EXERCISES.values()))
