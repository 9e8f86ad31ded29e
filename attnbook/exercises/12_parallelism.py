"""Exercises of chapter 12, "Why attention is parallel": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/12_parallelism.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import numpy as np

from attnlib.companions import examples, recurrence, text

from ._registry import ChapterCode

code = ChapterCode(__name__)


TOKENS = text.tokenize(examples.BANK_LOAN_SENTENCE)
PATH = recurrence.path_counts(TOKENS, "bank", "it")

code.add(  # 12.1
    ex1_answer=lambda: PATH.rnn_path_length,
    ex1_sentence_length=lambda: PATH.rnn_steps_total,
    ex1_counted_words=lambda: PATH.rnn_path_length + 1,
    ex1_attention_path=lambda: PATH.attention_path_length,
)


N, D = 10, 64

code.add(  # 12.2
    ex2_answer=lambda: recurrence.multiply_adds(N, D)["attention"],
    ex2_no_projections=lambda: 2 * N * N * D,
    ex2_scores_only=lambda: 3 * N * D * D + N * N * D,
)


def ex3_correct() -> str:
    """12.3: the steps in a row of one attention layer and of the recurrence, for a sentence and one twice as long."""
    one, two = (recurrence.PathCounts(source=1, target=n, n_tokens=n) for n in (len(TOKENS), 2 * len(TOKENS)))
    attention, rnn = two.attention_steps_total / one.attention_steps_total, two.rnn_steps_total / one.rnn_steps_total
    return {(1, 1): "?", (1, 2): "b", (2, 2): "a", (2, 1): "d", (4, 2): "c"}.get((attention, rnn), "?")


code.add(ex3_correct=ex3_correct)


@code.function
def rnn_reference(x: np.ndarray, w_x: np.ndarray, w_h: np.ndarray) -> np.ndarray:
    return recurrence.rnn_forward(x[::-1], w_x, w_h)[::-1].copy()  # (n, d_h): row t = the state after word t


@code.function
def rnn_left_to_right(x: np.ndarray, w_x: np.ndarray, w_h: np.ndarray) -> np.ndarray:
    return recurrence.rnn_forward(x, w_x, w_h)  # (n, d_h): the usual direction


@code.function
def rnn_reading_order(x: np.ndarray, w_x: np.ndarray, w_h: np.ndarray) -> np.ndarray:
    return recurrence.rnn_forward(x[::-1], w_x, w_h)  # (n, d_h): rows in reading order, not the sentence's


@code.function
def rnn_no_recurrence(x: np.ndarray, w_x: np.ndarray, w_h: np.ndarray) -> np.ndarray:
    return np.tanh(x @ w_x)  # (n, d_h): every step forgets the past


@code.function
def rnn_cases(rng: np.random.Generator) -> list[tuple]:
    return [(rng.standard_normal((n, d)), rng.standard_normal((d, h)) * 0.5, rng.standard_normal((h, h)) * 0.5)
            for n, d, h in ((4, 3, 2), (6, 5, 4), (3, 2, 3))]


code.values(
    sentence=examples.BANK_LOAN_SENTENCE,
    n=N,
    d=D,
    bank_word=TOKENS.index("bank") + 1,
    it_word=TOKENS.index("it") + 1,
)
