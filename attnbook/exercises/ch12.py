"""Exercises of chapter 12, "Why attention is parallel"."""

from __future__ import annotations

import numpy as np

from attnlib import cost, examples, recurrence, text

from ._core import Choice, Code, Exercise, Misconception, Mistake, Numeric, Section

CH = "12_parallelism"
RNN = Section(CH, "A recurrent network reads one word per step")
PAIRS = Section(CH, "Attention connects every pair in one step")
GROWTH = Section(CH, "How the counts grow with length")

TOKENS = text.tokenize(examples.BANK_LOAN_SENTENCE)
PATH = recurrence.path_counts(TOKENS, "bank", "it")

E12_1 = Exercise(
    id="12.1", kind="compute", skill="path length in a recurrent network",
    prompt=(f"In “{examples.BANK_LOAN_SENTENCE}”, how many recurrent updates lie on the path from the state "
            "of “bank” to the state of “it” in an RNN that reads one word per step?"),
    answer=Numeric(lambda: PATH.rnn_path_length, tol=0, expect="one whole number"),
    mistakes=[
        Mistake(Misconception("sentence-length", "the sentence length, not the distance",
                              "Count only the steps between the two words.", RNN),
                value=lambda: PATH.rnn_steps_total),
        Mistake(Misconception("counted-words", "the words counted, not the updates between them",
                              "From word s to word t there are t − s updates.", RNN),
                value=lambda: PATH.rnn_path_length + 1),
        Mistake(Misconception("attention-path", "attention's path length given",
                              "Attention links any pair in one step; the RNN walks word by word.", PAIRS),
                value=lambda: PATH.attention_path_length),
    ],
    hint="“bank” is word 2, “it” word 7: one update per word in between and at “it”.",
    section=RNN, why="Attention needs one step for the same pair, whatever the distance.",
)

N, D = 10, 64

E12_2 = Exercise(
    id="12.2", kind="compute", skill="counting the arithmetic of attention",
    prompt=(f"Count the multiply-adds of one self-attention layer for n = {N} words of width d = {D}: the three "
            "projections (n·d² each), the scores Q Kᵀ (n²·d) and the weighted sum (n²·d)."),
    answer=Numeric(lambda: recurrence.multiply_adds(N, D)["attention"], tol=0.5, expect="one whole number"),
    mistakes=[
        Mistake(Misconception("no-projections", "the projections left out",
                              "Q, K and V are each an (n, d) @ (d, d) product: 3 n d².", GROWTH),
                value=lambda: 2 * N * N * D),
        Mistake(Misconception("scores-only", "only the scores counted",
                              "The weighted sum W V costs as much as Q Kᵀ, and the projections come first.",
                              GROWTH), value=lambda: 3 * N * D * D + N * N * D),
    ],
    hint="3·n·d² + 2·n²·d.",
    section=GROWTH, why="For short sentences the projections dominate; the n² terms win as n grows.",
)

E12_3 = Exercise(
    id="12.3", kind="predict", skill="quadratic memory",
    prompt="Predict: the sequence length n doubles. By what factor does the score matrix's memory grow?",
    answer=Choice([("a", "2"), ("b", "4"), ("c", "8"), ("d", "1: it stays the same")],
                  "b" if cost.score_matrix_bytes(1, 1, 2 * N) == 4 * cost.score_matrix_bytes(1, 1, N) else "?"),
    mistakes=[
        Mistake(Misconception("linear-growth", "memory taken as linear in n",
                              "The matrix has n rows and n columns: both double.", GROWTH), option="a"),
        Mistake(Misconception("cubic-growth", "the matrix taken as cubic in n",
                              "n × n entries: the square, not the cube.", GROWTH), option="c"),
    ],
    hint="How many entries does an n × n matrix have?",
    section=GROWTH, why="(2n)² = 4n².",
)


def _rnn_reference(x: np.ndarray, w_x: np.ndarray, w_h: np.ndarray) -> np.ndarray:
    return recurrence.rnn_forward(x, w_x, w_h)  # (n, d_h)


def _rnn_no_tanh(x: np.ndarray, w_x: np.ndarray, w_h: np.ndarray) -> np.ndarray:
    h = np.zeros(w_x.shape[1])
    out = []
    for t in range(x.shape[0]):
        h = x[t] @ w_x + h @ w_h  # (d_h,)
        out.append(h)
    return np.stack(out)  # (n, d_h)


def _rnn_no_recurrence(x: np.ndarray, w_x: np.ndarray, w_h: np.ndarray) -> np.ndarray:
    return np.tanh(x @ w_x)  # (n, d_h): every step forgets the past


def _rnn_cases(rng: np.random.Generator) -> list[tuple]:
    return [(rng.standard_normal((n, d)), rng.standard_normal((d, h)) * 0.5, rng.standard_normal((h, h)) * 0.5)
            for n, d, h in ((4, 3, 2), (6, 5, 4), (3, 2, 3))]


E12_4 = Exercise(
    id="12.4", kind="code", skill="the sequential recurrence",
    prompt=("Write rnn_forward(x, w_x, w_h): x is (n, d), w_x is (d, d_h), w_h is (d_h, d_h). With h₀ = 0 and "
            "h_t = tanh(x_t W_x + h_{t−1} W_h), return all n states as an (n, d_h) array."),
    answer=Code("def rnn_forward(x, w_x, w_h):", "an (n, d_h) array", _rnn_reference, _rnn_cases),
    mistakes=[
        Mistake(Misconception("no-tanh", "the tanh left out",
                              "Each state passes through tanh.", RNN), impl=_rnn_no_tanh),
        Mistake(Misconception("no-recurrence", "the previous state left out",
                              "h_t depends on h_{t−1}: keep h from the last step in the loop.", RNN),
                impl=_rnn_no_recurrence),
    ],
    hint="h = zeros(d_h); for each t: h = tanh(x[t] @ w_x + h @ w_h); collect h.",
    section=RNN,
)

EXERCISES = [E12_1, E12_2, E12_3, E12_4]
