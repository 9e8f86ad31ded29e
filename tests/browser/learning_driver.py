"""Drive the two widgets of "Attention that learns" on a built page (TrainingReplay, AskModel) and
compare them with attnlib in Python. Used by tests/browser/test_learning_widgets.py,
tests/browser/test_widgets.py (the shared widget checks) and benchmarks/bench_widgets.py.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import numpy as np

from attnlib.companions import learning
from bookdev import widgets as wd

TOL = 0.5e-3 + 1e-9  # a number printed with 3 decimals
# The chapter's run: book/17_learning.ipynb trains with these arguments.
CORPUS_ARGS = {"n_train": 1000, "n_test": 1000, "seed": 0}
TRAIN_ARGS = {"seed": 0, "steps": 150, "n_checkpoints": 30}


@lru_cache(maxsize=1)
def chapter_corpus() -> learning.SenseCorpus:
    """The corpus of the chapter, recomputed in Python (seeded, reproducible)."""
    return learning.make_corpus(**CORPUS_ARGS)


@lru_cache(maxsize=1)
def chapter_run() -> tuple[learning.SenseCorpus, learning.TrainingRun]:
    """The corpus and the training run of the chapter, recomputed in Python (seeded, reproducible;
    the training takes seconds: only for the tests that need the run)."""
    corpus = chapter_corpus()
    return corpus, learning.train_sense_model(corpus, **TRAIN_ARGS)


def type_sentence(w: wd.Widget, text: str) -> dict[str, Any]:
    """Put ``text`` in the sentence box as a reader does (value, then an input event); return what the
    page computed (``data-result`` of the widget: words, query, row, probs, sense, or error)."""
    raw = w.page.evaluate(
        f"""(text) => {{
          const root = {w.root};
          const input = root.querySelector('input[data-name="sentence"]');
          input.value = text;
          input.dispatchEvent(new Event("input", {{ bubbles: true }}));
          return root.dataset.result;
        }}""",
        text,
    )
    return json.loads(raw)


def message(w: wd.Widget, name: str = "message") -> tuple[str, bool]:
    """The text of the page's message line (``message``: a bad sentence; ``outside``: a sentence outside
    the training pattern) and whether it is visible."""
    return tuple(w.page.evaluate(f"""() => {{
      const m = {w.root}.querySelector('[data-name="{name}"]');
      return [m.textContent, !m.hidden && m.offsetParent !== null];
    }}"""))


def check_replay(w: wd.Widget) -> None:
    """Every checkpoint of the slider shows the stored numbers of that checkpoint (3 decimals)."""
    frames = w.state["frames"]
    assert len(frames) >= 20, f"only {len(frames)} checkpoints stored"
    seen = set()
    for i in range(len(frames)):
        w.set_range("index", i)
        t = w.texts()
        f = frames[i]
        k = int(w.state.get("sentence", 0))
        assert wd.number(t["step"]) == f["step"], (i, t["step"])
        assert abs(wd.number(t["loss"]) - f["loss"]) <= 0.5e-4 + 1e-9, (i, t["loss"], f["loss"])
        assert abs(wd.number(t["accuracy"]) - f["test_accuracy"]) <= TOL
        assert abs(wd.number(t["attention-to-cue"]) - f["test_attention_to_cue"]) <= TOL
        probs = np.asarray(f["probs"][k])
        assert t["sense"] == w.state["senses"][int(np.argmax(probs))]
        assert abs(wd.number(t["probability"]) - probs.max()) <= TOL
        m = np.asarray(f["maps"][k])
        for a in range(m.shape[0]):
            for b in range(m.shape[1]):
                assert abs(wd.number(t[f"map-{a}-{b}"]) - m[a, b]) <= 0.5e-2 + 1e-9, (i, a, b)
        seen.add(t["loss"])
    assert len(seen) > len(frames) // 2, "moving the slider did not change the loss shown"


def check_ask(w: wd.Widget, sentences: list[str] | None = None) -> None:
    """The page's prediction for each sentence equals ``learning.predict_np`` on the stored weights."""
    state = {k: np.asarray(v) for k, v in w.state["weights"].items()}
    for text in sentences or ["we sat on the bank by the river", "a bat at night", "the bank"]:
        page = type_sentence(w, text)
        ref = learning.predict_np(state, text)
        assert "error" not in page, (text, page)
        assert page["words"] == ref["words"] and page["query"] == ref["query"]
        np.testing.assert_allclose(page["row"], ref["row"], atol=1e-6, rtol=0)
        np.testing.assert_allclose(page["probs"], ref["probs"], atol=1e-6, rtol=0)
        assert page["sense"] == ref["sense"]
