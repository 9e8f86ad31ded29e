"""The exercises and their checker (attnbook.exercises): for every exercise, the right answer and the
chapter's solution pass; each misconception gives its own diagnosis; an unrelated wrong answer gives
"not yet"; bad input gets a clear message, never an exception or a hang. Plus the counts the issue
asks for, the links, the page data and the Exercises sections of the chapters.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections import Counter

import numpy as np
import pytest
import torch
from docutils.nodes import make_id

from attnbook import exercises
from attnbook.exercises import EXERCISES, Choice, Code, FindError, Numeric, diagnose, export
from attnbook.exercises._types import Trained, slug
from tests._project import ROOT

IDS = sorted(EXERCISES)
CODE_IDS = [i for i in IDS if isinstance(EXERCISES[i].answer, Code)]
NUMERIC_IDS = [i for i in IDS if isinstance(EXERCISES[i].answer, Numeric)]
CHOICE_IDS = [i for i in IDS if isinstance(EXERCISES[i].answer, Choice)]
FIND_IDS = [i for i in IDS if isinstance(EXERCISES[i].answer, FindError)]
TRAINED_IDS = [i for i in IDS if isinstance(EXERCISES[i].answer, Trained)]
CHAPTERS = [m.code.chapter for m in exercises._catalog._MODULES]  # every chapter with exercises


# --- the counts -----------------------------------------------------------------------------------

def test_enough_exercises_of_each_kind() -> None:
    kinds = Counter(ex.kind for ex in EXERCISES.values())
    per_chapter = Counter(ex.chapter for ex in EXERCISES.values())
    assert len(EXERCISES) >= 45, len(EXERCISES)
    assert kinds["code"] >= 15 and kinds["find-error"] >= 6, kinds
    assert all(per_chapter[c] >= 3 for c in CHAPTERS), per_chapter


@pytest.mark.parametrize("eid", NUMERIC_IDS + CODE_IDS + FIND_IDS)
def test_numeric_and_code_exercises_name_two_misconceptions(eid: str) -> None:
    assert len(EXERCISES[eid].mistakes) >= 2


# --- numeric ---------------------------------------------------------------------------------------

def _unrelated(value: np.ndarray) -> list[float]:
    return (value * 1.7 + 0.311 * np.arange(1, value.size + 1) + 13.0).tolist()


@pytest.mark.parametrize("eid", NUMERIC_IDS)
def test_numeric_exercise(eid: str) -> None:
    ex = EXERCISES[eid]
    spec = ex.answer
    assert diagnose(eid, spec.value.tolist()).status == "correct"
    assert diagnose(eid, ", ".join(f"{v:.6f}" for v in spec.value)).status == "correct"  # as typed on the page
    for m in ex.mistakes:
        v = diagnose(eid, m.computed.tolist())
        assert (v.status, v.misconception) == ("misconception", m.misconception.key), (m.misconception.key, v)
        assert v.link is not None and v.message == m.misconception.hint
    v = diagnose(eid, _unrelated(spec.value))
    assert v.status == "not-yet" and v.message == ex.hint


@pytest.mark.parametrize("eid", NUMERIC_IDS)
def test_numeric_bad_input(eid: str) -> None:
    size = EXERCISES[eid].answer.value.size
    cases = {
        "": "Empty answer", None: "Empty answer", "abc": "is not a number", "nan": "NaN or infinity",
        "[]": "Empty answer",
    }
    for answer, text in cases.items():
        v = diagnose(eid, answer)
        assert v.status == "invalid" and text in v.message, (answer, v)
    assert "NaN or infinity" in diagnose(eid, [float("nan")] * size).message
    assert "got a dict" in diagnose(eid, {"a": 1}).message
    assert "got a function" in diagnose(eid, print).message or "builtin" in diagnose(eid, print).message
    v = diagnose(eid, [1.0] * (size + 1))
    assert v.status == "invalid" and f"got {size + 1} numbers" in v.message


# --- choice ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("eid", CHOICE_IDS)
def test_choice_exercise(eid: str) -> None:
    ex = EXERCISES[eid]
    spec = ex.answer
    assert diagnose(eid, spec.correct).status == "correct"
    assert diagnose(eid, f" ({spec.correct.upper()}) ").status == "correct"
    mapped = {m.option for m in ex.mistakes}
    for m in ex.mistakes:
        v = diagnose(eid, m.option)
        assert v.misconception == m.misconception.key
    free = [k for k in spec.keys if k != spec.correct and k not in mapped]
    assert free, f"{eid}: every wrong option names a misconception, so 'not yet' is unreachable"
    assert diagnose(eid, free[0]).status == "not-yet"
    for answer, text in (("", "Empty answer"), (None, "Empty answer"), ("z", "is not one of them"),
                         (1, "the letter, as text")):
        v = diagnose(eid, answer)
        assert v.status == "invalid" and text in v.message, (answer, v)


# --- find the error --------------------------------------------------------------------------------

@pytest.mark.parametrize("eid", FIND_IDS)
def test_find_error_exercise(eid: str) -> None:
    ex = EXERCISES[eid]
    spec = ex.answer
    right = float(spec.value.value[0])
    assert diagnose(eid, (spec.wrong_step, right)).status == "correct"
    assert diagnose(eid, [spec.wrong_step.upper(), f"{right:.4f}"]).status == "correct"
    for m in ex.mistakes:
        answer = (m.option, right) if m.option is not None else (spec.wrong_step, m.computed.tolist())
        v = diagnose(eid, answer)
        assert v.misconception == m.misconception.key, (m.misconception.key, v)
    assert sum(m.option is not None for m in ex.mistakes) >= 1 and sum(m.value is not None for m in ex.mistakes) >= 1
    v = diagnose(eid, (spec.wrong_step, right * 1.7 + 13.3))
    assert v.status == "not-yet" and v.message == spec.value_hint
    free = [k for k in spec.keys if k != spec.wrong_step and k not in {m.option for m in ex.mistakes}]
    if free:
        assert diagnose(eid, (free[0], right)).status == "not-yet"
    for answer, text in (((), "Empty answer"), (None, "Empty answer"), ((spec.wrong_step,), "Give two things"),
                         ((spec.wrong_step, "x"), "is not a number"), ((spec.wrong_step, float("nan")), "NaN"),
                         ((None, right), "Empty answer"), (("zz", right), "is not one of them"),
                         ((spec.wrong_step, [1, 2]), "got 2 numbers")):
        v = diagnose(eid, answer)
        assert v.status == "invalid" and text in v.message, (answer, v)


# --- code ----------------------------------------------------------------------------------------

def _shifted(fn):  # noqa: ANN001, ANN202
    """A function that is wrong in no named way: the reference's result plus 0.37."""
    def wrong(*args):  # noqa: ANN002, ANN202
        out = fn(*args)
        if isinstance(out, tuple):
            return tuple(torch.as_tensor(o).double() + 0.37 for o in out)
        return torch.as_tensor(np.asarray(out, dtype=np.float64) if not isinstance(out, torch.Tensor) else out).double() + 0.37
    return wrong


@pytest.mark.parametrize("eid", CODE_IDS)
def test_code_exercise(eid: str) -> None:
    ex = EXERCISES[eid]
    assert diagnose(eid, ex.answer.reference).status == "correct"
    for m in ex.mistakes:
        v = diagnose(eid, m.impl)
        assert v.misconception == m.misconception.key, (m.misconception.key, v)
    v = diagnose(eid, _shifted(ex.answer.reference))
    assert v.status == "not-yet" and "First failing case: case 1" in v.detail and "expected" in v.detail


def _as_lists(x):  # noqa: ANN001, ANN202
    """``x`` with every tensor or array in it as nested Python lists (booleans stay booleans)."""
    if isinstance(x, (torch.Tensor, np.ndarray)):
        return x.tolist()
    if isinstance(x, (tuple, list)):
        return [_as_lists(v) for v in x]
    return x


def _as_tuples(x):  # noqa: ANN001, ANN202
    """``x`` with every vector in it as a tuple of Python numbers (a reader's ``tuple(counts)``)."""
    if isinstance(x, (torch.Tensor, np.ndarray)) and x.ndim == 1:
        return tuple(x.tolist())
    if isinstance(x, (tuple, list)):
        return [_as_tuples(v) for v in x] if isinstance(x, list) else tuple(_as_tuples(v) for v in x)
    return x


@pytest.mark.parametrize("repack", [_as_lists, _as_tuples], ids=["lists", "tuples"])
@pytest.mark.parametrize("eid", CODE_IDS)
def test_the_right_result_in_any_sequence_is_right(eid: str, repack) -> None:  # noqa: ANN001
    """[k, v] where (k, v) is asked, a tuple of counts for a vector, nested lists of booleans for a
    mask: the same contents are the same answer."""
    reference = EXERCISES[eid].answer.reference
    v = diagnose(eid, lambda *args: repack(reference(*args)))
    assert v.status == "correct", v.text()


def test_a_list_of_floats_for_a_boolean_mask_is_named_for_what_it_is() -> None:
    reference = EXERCISES["11.2"].answer.reference
    v = diagnose("11.2", lambda *args: reference(*args).float().tolist())
    assert v.status == "not-yet" and "not a list of numbers" in v.message, v.text()


@pytest.mark.parametrize("eid", CODE_IDS)
def test_code_bad_input(eid: str) -> None:
    def raises(*args):  # noqa: ANN002, ANN202
        raise RuntimeError("boom")

    def returns_none(*args):  # noqa: ANN002, ANN202
        return None

    def returns_text(*args):  # noqa: ANN002, ANN202
        return "weights"

    def wrong_shape(*args):  # noqa: ANN002, ANN202
        return torch.zeros(7, 1, 3)

    def nan(*args):  # noqa: ANN002, ANN202
        out = EXERCISES[eid].answer.reference(*args)
        if isinstance(out, tuple):
            return tuple(torch.as_tensor(o).double() * float("nan") for o in out)
        return torch.as_tensor(np.asarray(out, dtype=np.float64)) * float("nan")

    for fn, status, text in ((None, "invalid", "Empty answer"), ("x", "invalid", "Pass your function"),
                             (raises, "invalid", "raised RuntimeError: boom"), (returns_none, "invalid", "forget 'return'"),
                             (returns_text, "invalid", "returned a str"), (nan, "invalid", "NaN")):
        v = diagnose(eid, fn)
        assert v.status == status and text in v.message, (fn, v)
    v = diagnose(eid, wrong_shape)
    if isinstance(EXERCISES[eid].answer.reference(*EXERCISES[eid].answer.make_cases()[0]), tuple):
        assert v.status == "invalid" and "expected a tuple" in v.message
    else:
        assert v.status == "not-yet" and "expected shape" in v.detail and "got (7, 1, 3)" in v.detail


@pytest.mark.parametrize("eid", ["04.4", "16.2"])
def test_code_that_never_returns_is_stopped(eid: str) -> None:
    def forever(*args):  # noqa: ANN002, ANN202
        while True:
            pass

    start = time.perf_counter()
    v = diagnose(eid, forever, timeout=0.5)
    assert time.perf_counter() - start < 3.0
    assert v.status == "invalid" and "did not return within 0.5 s" in v.message


def test_code_mutating_its_inputs_does_not_change_the_cases() -> None:
    def mutating(q, k):  # noqa: ANN001, ANN202
        out = q @ k.T / math.sqrt(q.shape[-1])
        q.zero_()
        return out

    assert diagnose("04.4", mutating).status == "correct"


# --- links, page data, chapters ------------------------------------------------------------------

def _headings(chapter: str) -> set[str]:
    nb = json.loads((ROOT / "book" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    found = set()
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("#"):
                    found.add(line.lstrip("#").strip())
    return found


def test_every_link_names_a_heading_of_its_chapter() -> None:
    for ex in EXERCISES.values():
        sections = [ex.section] + [ex.link_of(m.misconception) for m in ex.mistakes]
        for s in sections:
            assert s.chapter.startswith(ex.chapter), (ex.id, s)
            assert s.title in _headings(s.chapter), f"{ex.id}: no heading {s.title!r} in {s.chapter}"


def test_slug_is_docutils_make_id() -> None:
    for title in ("Step 5: softmax, row by row", 'The "average meaning" problem', "Batches: [B, S, D]",
                  "Cancelling the growth: c = 1/√d_k"):
        assert slug(title) == make_id(title)


@pytest.mark.parametrize("eid", IDS)
def test_page_data_is_plain_json_with_every_answer(eid: str) -> None:
    data = json.loads(json.dumps(export(EXERCISES[eid])))
    assert data["id"] == eid and len(data["mistakes"]) == len(EXERCISES[eid].mistakes)
    for m in data["mistakes"]:
        assert ("value" in m) or ("option" in m) or data["answer"]["type"] == "code"
        assert m["title"] == f"Not quite: {m['name']}."


def _exercise_cells(chapter_file: str) -> tuple[list[dict], list[str]]:
    nb = json.loads(chapter_file.read_text(encoding="utf-8"))
    cells = nb["cells"]
    sources = ["".join(c["source"]) for c in cells]
    return cells, sources


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_has_exercises_before_summary_and_solutions_pass(chapter: str) -> None:
    path = next((ROOT / "book").glob(f"{chapter}_*.ipynb"))
    cells, sources = _exercise_cells(path)
    heads = [i for i, s in enumerate(sources) if s.startswith("## Exercises")]
    summary = [i for i, s in enumerate(sources) if s.lstrip().startswith("## Summary")]
    assert len(heads) == 1 and summary and heads[0] < summary[0], f"{path.name}: Exercises section before Summary"
    solved: dict[str, str] = {}
    for cell, src in zip(cells[heads[0]:summary[0]], sources[heads[0]:summary[0]]):
        if cell["cell_type"] != "code" or not src.startswith("# Solution"):
            continue
        assert "hide-input" in cell.get("metadata", {}).get("tags", []), f"{path.name}: solution not collapsed"
        outputs = "".join("".join(o.get("text", "")) for o in cell.get("outputs", []))
        for eid in re.findall(r"check\(\"(\d\d\.\d+)\"", src):
            solved[eid] = outputs
    expected = {ex.id for ex in EXERCISES.values() if ex.chapter == chapter}
    assert set(solved) == expected, f"{path.name}: solutions for {sorted(solved)}, exercises {sorted(expected)}"
    for eid, text in solved.items():
        assert f"{eid} — Correct." in text, f"{path.name}: the stored solution of {eid} does not pass: {text!r}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_solutions_pass_their_checker_when_run(chapter: str) -> None:
    """Run each solution cell's code with ``check`` recording the verdicts (the build runs them too)."""
    path = next((ROOT / "book").glob(f"{chapter}_*.ipynb"))
    _, sources = _exercise_cells(path)
    verdicts = []
    setup = next(s for s in sources if s.startswith("# Exercises setup"))
    for src in sources:
        if src.startswith("# Solution"):
            namespace: dict = {}
            exec(compile(setup, f"{path.name}:setup", "exec"), namespace)  # noqa: S102 - the chapter's own cell
            namespace["check"] = lambda eid, answer: verdicts.append(diagnose(eid, answer))
            exec(compile(src, f"{path.name}:solution", "exec"), namespace)  # noqa: S102
    assert verdicts and all(v.status == "correct" for v in verdicts), [v.text() for v in verdicts if v.status != "correct"]


def test_exercises_page_lists_every_exercise() -> None:
    page = (ROOT / "book" / "exercises.ipynb").read_text(encoding="utf-8")
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    assert "book/exercises" in toc
    assert all(eid in page for eid in IDS)


def test_page_data_holds_no_digit_another_cpu_may_change() -> None:
    """Exported numbers keep 10 significant digits: a last-digit change of float64 arithmetic (as
    another CPU's kernels make) does not change the page, while any answer's value is kept."""
    from attnbook.exercises._page import PAGE_DIGITS, page_numbers

    def floats(x):  # noqa: ANN001, ANN202
        return [x] if isinstance(x, float) else [y for v in x for y in floats(v)] if isinstance(x, list) else []

    found = 0
    for ex in EXERCISES.values():
        data = export(ex)
        numbers = floats(data["answer"].get("value", [])) + [v for m in data["mistakes"] for v in floats(m.get("value", []))]
        for v in numbers:
            found += 1
            assert v == float(f"{v:.{PAGE_DIGITS}g}"), (ex.id, v)
            assert page_numbers(v * (1 + 2e-16)) == page_numbers(v) or abs(v) < 1e-300
    assert found > 50
    assert page_numbers([0.46709125432123, [1 / 3]]) == [0.4670912543, [0.3333333333]]


@pytest.mark.parametrize(("eid", "answer"), [("07.3", ("c", "2.022")), ("18.4", ("c", "7.174")),
                                             ("08.2", "1.780, 1.366")])
def test_the_books_own_rounded_numbers_give_a_right_answer(eid: str, answer: object) -> None:
    """A reader who uses the rounded intermediate the page shows is right, not told "not yet"."""
    assert diagnose(eid, answer).status == "correct", diagnose(eid, answer).text()


def test_no_two_slips_of_the_cache_exercise_cancel_into_the_right_answer() -> None:
    """15.4 counts bytes: its slips (the values forgotten, the wrong bytes a number, the key/value heads
    not shared) touch different factors, so a reader can make two at once. With float16, forgetting
    the values (×1/2) and 4 bytes a number (×2) gave exactly the right number; no pair may cancel."""
    ex = EXERCISES["15.4"]
    answer = ex.answer.value[0]
    factors = {m.misconception.key: m.computed[0] / answer for m in ex.mistakes}
    assert len(factors) >= 3
    for a, fa in factors.items():
        assert abs(fa - 1) * answer > ex.answer.tol, a
        for b, fb in factors.items():
            if a < b:
                assert abs(fa * fb - 1) * answer > ex.answer.tol, (a, b)


@pytest.mark.parametrize("eid", ["11.1", "11.2", "15.1"])
def test_a_float_mask_where_a_boolean_one_is_asked_is_not_accepted(eid: str) -> None:
    reference = EXERCISES[eid].answer.reference

    def as_float(*args):  # noqa: ANN002, ANN202
        return reference(*args).float()

    v = diagnose(eid, as_float)
    assert v.status == "not-yet" and "boolean mask" in v.message, v.text()


def test_answers_that_hold_tensors_needing_grad_or_sparse_ones_get_a_verdict() -> None:
    w = torch.tensor(EXERCISES["08.1"].answer.value, requires_grad=True)
    assert diagnose("08.1", [w[0], w[1], w[2]]).status == "correct"
    assert diagnose("08.1", (w[0], w[1], w[2])).status == "correct"
    assert diagnose("08.1", w.detach().to_sparse()).status == "correct"


def test_a_function_that_empties_a_list_argument_changes_no_other_call() -> None:
    reference = EXERCISES["11.2"].answer.reference

    def emptying(lengths, n):  # noqa: ANN001, ANN202
        out = reference(list(lengths), n)
        lengths.clear()
        return out

    assert diagnose("11.2", emptying).status == "correct"


def test_a_runaway_answer_inside_except_exception_is_stopped() -> None:
    import threading

    def stubborn(*args):  # noqa: ANN002, ANN202
        while True:
            try:
                while True:
                    pass
            except Exception:  # noqa: BLE001, S110 - what a reader might write
                pass

    before = threading.active_count()
    v = diagnose("04.4", stubborn, timeout=0.3)
    assert v.status == "invalid" and "did not return" in v.message
    time.sleep(0.2)
    assert threading.active_count() == before, "the reader's thread is still running"


def _own_wrong_answers(ex) -> list:  # noqa: ANN001
    """Wrong answers of our own, beyond the mistakes the data lists: shifted, doubled, negated and
    zeroed numbers; every other option; the wrong step or a far value; code that returns zeros, the
    reference plus one, or the reference's transpose."""
    spec = ex.answer
    if isinstance(spec, Numeric):
        v = spec.value
        candidates = [v + 10 * spec.tol + 0.1, v * 2 + 1, -v - 1, np.zeros_like(v) + 0.123456]
        return [[float(x) for x in c] for c in candidates if not np.allclose(c, v, atol=spec.tol)]
    if isinstance(spec, Choice):
        return [k for k in spec.keys if k != spec.correct]
    if isinstance(spec, FindError):
        right = [float(x) for x in spec.value.value]
        far = [x * 3 + 7 for x in right]
        return [(k, right) for k in spec.keys if k != spec.wrong_step] + [(spec.wrong_step, far)]
    if isinstance(spec, Trained):
        return [_never_learns, _memorises]
    reference = spec.reference

    def zeros(*args):  # noqa: ANN002, ANN202
        out = reference(*args)
        return tuple(torch.zeros_like(torch.as_tensor(o), dtype=torch.float64) for o in out) if isinstance(out, tuple) \
            else torch.zeros_like(torch.as_tensor(out), dtype=torch.float64)

    def plus_one(*args):  # noqa: ANN002, ANN202
        out = reference(*args)
        return tuple(torch.as_tensor(o, dtype=torch.float64) + 1 for o in out) if isinstance(out, tuple) \
            else torch.as_tensor(out, dtype=torch.float64) + 1

    return [zeros, plus_one]


@pytest.mark.parametrize("eid", IDS)
def test_our_own_wrong_answers_are_never_called_correct(eid: str) -> None:
    ex = EXERCISES[eid]
    wrong = _own_wrong_answers(ex)
    assert wrong, eid
    for answer in wrong:
        v = diagnose(eid, answer)
        assert v.status != "correct", (eid, answer, v.text())


# --- training exercises (18.5: the reader's training function is run) --------------------------------

def _never_learns(ids, lengths, labels, vocab_size, n_senses):  # noqa: ANN001, ANN202
    """A training loop that never steps its optimizer: its model keeps the initial guess."""
    torch.manual_seed(0)
    readout = torch.nn.Linear(vocab_size, n_senses)
    with torch.no_grad():
        readout.bias.copy_(torch.arange(n_senses, dtype=torch.float32))  # the last sense, whatever the input
    return lambda ids, lengths: readout(torch.nn.functional.one_hot(ids, vocab_size).float().sum(1)).argmax(-1)


def _memorises(ids, lengths, labels, vocab_size, n_senses):  # noqa: ANN001, ANN202
    """A lookup table of the training sentences: right on them, a guess elsewhere."""
    table = {tuple(row.tolist()): int(y) for row, y in zip(ids, labels)}
    return lambda ids, lengths: torch.tensor([table.get(tuple(r.tolist()), hash(tuple(r.tolist())) % n_senses)
                                              for r in ids])


@pytest.mark.parametrize("eid", TRAINED_IDS)
def test_a_training_exercise_runs_the_readers_training_and_names_what_went_wrong(eid: str) -> None:
    ex = EXERCISES[eid]
    outcome_of = {m.outcome: m.misconception.key for m in ex.mistakes}
    v = diagnose(eid, _never_learns)
    assert v.misconception == outcome_of["one-class"] and "Held-out accuracy" in v.detail, v.text()
    v = diagnose(eid, _memorises)
    assert v.misconception == outcome_of["memorised"] and "Training accuracy 1.000" in v.detail, v.text()


def _all_zeros(ids, lengths, labels, vocab_size, n_senses):  # noqa: ANN001, ANN202
    """Sense 0 for every sentence, whatever the training."""
    return lambda ids, lengths: torch.zeros(len(ids), dtype=torch.long)


def _loop(*, backward: bool = True, step: bool = True):  # noqa: ANN202
    """The solution's model and loop, a few steps of it, with ``loss.backward()`` or ``optimizer.step()`` left out."""
    def train(ids, lengths, labels, vocab_size, n_senses):  # noqa: ANN001, ANN202
        torch.manual_seed(0)
        embed, readout = torch.nn.Embedding(vocab_size, 16), torch.nn.Linear(16, n_senses)
        query = torch.nn.Parameter(0.1 * torch.randn(16))
        optimizer = torch.optim.Adam([*embed.parameters(), *readout.parameters(), query], lr=0.05)

        def logits_of(ids, lengths):  # noqa: ANN001, ANN202
            x = embed(ids)
            real = torch.arange(ids.shape[1]) < lengths[:, None]
            weights = torch.softmax((x @ query).masked_fill(~real, float("-inf")), dim=-1)
            return readout((weights[..., None] * x).sum(dim=1))

        for _ in range(5):
            loss = torch.nn.functional.cross_entropy(logits_of(ids, lengths), labels)
            optimizer.zero_grad()
            if backward:
                loss.backward()
            if step:
                optimizer.step()
        return lambda ids, lengths: logits_of(ids, lengths).argmax(dim=-1)
    return train


@pytest.mark.parametrize("eid", TRAINED_IDS)
def test_a_training_exercise_says_when_the_model_did_not_learn(eid: str) -> None:
    """All zeros is the one-sense misconception; a loop that never steps (or never back-propagates) keeps its
    random start, which guesses varied senses: not one sense, but the same cause, and the same hint."""
    ex = EXERCISES[eid]
    one_class = next(m.misconception for m in ex.mistakes if m.outcome == "one-class")
    v = diagnose(eid, _all_zeros)
    assert v.status == "misconception" and v.misconception == one_class.key, v.text()
    assert "Held-out accuracy" in v.detail and "Training accuracy" in v.detail, v.text()
    for train in (_loop(step=False), _loop(backward=False)):
        v = diagnose(eid, train)
        assert v.status == "not-yet" and "guessing" in v.message, v.text()
        assert one_class.hint in v.message and "optimizer.step()" in v.message, v.text()
        assert "Held-out accuracy" in v.detail, v.text()


@pytest.mark.parametrize("eid", TRAINED_IDS)
def test_a_training_exercise_refuses_what_it_cannot_judge(eid: str) -> None:
    def raises(*args):  # noqa: ANN002, ANN202
        raise RuntimeError("boom")

    def logits(*args):  # noqa: ANN002, ANN202
        return lambda ids, lengths: torch.zeros(len(ids), 4)

    def bad_predict(*args):  # noqa: ANN002, ANN202
        return lambda ids, lengths: 1 / 0

    for fn, text in ((None, "Empty answer"), ("train", "Pass your training function"),
                     (raises, "raised RuntimeError: boom"), (lambda *a: 3, "returned a int"),
                     (logits, "return one class id per example"), (bad_predict, "predict raised ZeroDivisionError")):
        v = diagnose(eid, fn)
        assert v.status == "invalid" and text in v.message, (fn, v.text())


def test_no_letter_answers_more_than_two_fifths_of_the_choice_exercises() -> None:
    """A reader who always picks (a) must not do well: the right options are spread over the letters."""
    letters = Counter(ex.answer.correct for ex in EXERCISES.values() if isinstance(ex.answer, Choice))
    total = sum(letters.values())
    assert total >= 10 and max(letters.values()) <= 0.4 * total, letters
