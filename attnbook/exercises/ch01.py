"""Exercises of chapter 01, "Words to numbers"."""

from __future__ import annotations

import numpy as np

from attnlib import examples, text

from ._core import Code, Exercise, FindError, Misconception, Mistake, Numeric, Section, fmt

CH = "01_words_to_numbers"
ONE_HOT = Section(CH, "One-hot vectors")
BOW = Section(CH, "Bag of words")
TFIDF = Section(CH, "TF-IDF")
DENSE = Section(CH, "Dense embeddings")
AVERAGE = Section(CH, 'The "average meaning" problem')

KING, QUEEN = (examples.TOY_EMBEDDINGS[w].double().numpy() for w in ("king", "queen"))


def _dot_not_cosine() -> float:
    return float(KING @ QUEEN)


def _distance_not_cosine() -> float:
    return float(np.linalg.norm(KING - QUEEN))


E01_1 = Exercise(
    id="01.1", kind="compute", skill="cosine similarity of two embeddings",
    prompt=(f"The toy embeddings give king = {fmt(KING, 2)} and queen = {fmt(QUEEN, 2)} (axes: royalty, "
            "gender, animal, fruit). Compute their cosine similarity, to 3 decimals."),
    answer=Numeric(lambda: text.cosine_similarity(KING, QUEEN), tol=5e-4, expect="one number"),
    mistakes=[
        Mistake(Misconception("dot-not-cosine", "the dot product, not the cosine",
                              "Divide the dot product by the two lengths ‖a‖·‖b‖.", DENSE), value=_dot_not_cosine),
        Mistake(Misconception("distance-not-cosine", "a distance, not a similarity",
                              "Cosine similarity is a·b / (‖a‖‖b‖), not the length of a − b.", DENSE),
                value=_distance_not_cosine),
    ],
    hint="cos = (a·b) / (‖a‖·‖b‖): multiply component by component and add, then divide by both lengths.",
    section=DENSE, why="The gender axis pulls them apart; royalty keeps them close.",
)

# 01.2: TF-IDF of "tasty" in one document of the book's corpus, with a slip in one step.
DOCS = examples.TFIDF_CORPUS
VOCAB = text.build_vocab(DOCS)
DOC = 2  # "banana is tasty"
WORD = VOCAB.index("tasty")
COUNTS = text.bag_of_words(DOCS, VOCAB)  # (n_docs, V)
TF = COUNTS[DOC, WORD] / COUNTS[DOC].sum()
DF = int((COUNTS[:, WORD] > 0).sum())
IDF = text.inverse_document_frequency(DOCS, VOCAB)[WORD]
SLIP_IDF = float(np.log10(len(DOCS) / DF))  # the slip: log base 10

E01_2 = Exercise(
    id="01.2", kind="find-error", skill="TF-IDF by hand",
    prompt=(f"The book's corpus has {len(DOCS)} documents; “tasty” appears only in document "
            f"“{DOCS[DOC]}”. A reader computes its TF-IDF there. One step has a slip: which one, "
            "and what is its right value (3 decimals)?"),
    answer=FindError(
        steps=[("a", f"tf = 1 / 3 = {TF:.3f} (one “tasty” among three words)"),
               ("b", f"df = {DF} document of {len(DOCS)}"),
               ("c", f"idf = log({len(DOCS)} / {DF}) = {SLIP_IDF:.3f}"),
               ("d", f"tf · idf = {TF:.3f} × {SLIP_IDF:.3f} = {TF * SLIP_IDF:.3f}")],
        wrong_step="c", value=Numeric(lambda: IDF, tol=5e-4, expect="one number"),
        value_hint="Step c is the one. The book's idf uses the natural logarithm: ln(N / df)."),
    mistakes=[
        Mistake(Misconception("tf-is-count", "tf taken as the raw count",
                              "Step a is right: tf divides the count by the document's length.", TFIDF), option="a"),
        Mistake(Misconception("blamed-the-result", "the step that shows the slip, not the one that made it",
                              "Step d multiplies correctly what it was given; look at where its factor came from.",
                              TFIDF), option="d"),
        Mistake(Misconception("copied-the-slip", "the slipped value copied",
                              "That is the value on the page; recompute the logarithm in base e.", TFIDF),
                value=lambda: SLIP_IDF),
        Mistake(Misconception("inverted-ratio", "the ratio inverted",
                              "idf = ln(N / df): the rarer the word, the larger its idf (positive).", TFIDF),
                value=lambda: float(np.log(DF / len(DOCS)))),
    ],
    hint="Check each step in turn: tf, df, then the logarithm, then the product.",
    section=TFIDF, why="log₁₀ instead of ln: every idf shrinks by the same factor, ln 10.",
)


def _bow_reference(ids: np.ndarray, vocab_size: int) -> np.ndarray:
    vocab = [str(j) for j in range(vocab_size)]
    return text.bag_of_words([[str(i) for i in ids]], vocab)[0]  # (vocab_size,)


def _bow_presence(ids: np.ndarray, vocab_size: int) -> np.ndarray:
    return np.minimum(_bow_reference(ids, vocab_size), 1)


def _bow_one_hot_rows(ids: np.ndarray, vocab_size: int) -> np.ndarray:
    vocab = [str(j) for j in range(vocab_size)]
    return text.one_hot([str(i) for i in ids], vocab)  # (n, vocab_size)


def _bow_cases(rng: np.random.Generator) -> list[tuple]:
    cases = [(np.array([0, 2, 2, 5, 2]), 6), (np.array([1, 1]), 3)]
    for n, v in ((8, 5), (12, 10)):
        cases.append((rng.integers(0, v, size=n), v))
    return cases


E01_3 = Exercise(
    id="01.3", kind="code", skill="bag of words from token ids",
    prompt=("Write bag_of_words(ids, vocab_size): ids is a 1-d integer array of token ids (0 ≤ id < "
            "vocab_size); return the count vector of length vocab_size (entry j = how often id j occurs)."),
    answer=Code("def bag_of_words(ids, vocab_size):", "a 1-d array of length vocab_size",
                _bow_reference, _bow_cases),
    mistakes=[
        Mistake(Misconception("presence-not-count", "presence instead of counts",
                              "A bag of words counts: a word used three times gives 3, not 1.", BOW),
                impl=_bow_presence),
        Mistake(Misconception("one-hot-not-summed", "one-hot rows, not their sum",
                              "Add the one-hot rows of the tokens: one vector for the whole text.", BOW),
                impl=_bow_one_hot_rows),
    ],
    hint="Start from zeros of length vocab_size and add 1 at position id for every id.",
    section=BOW,
)

APPLE = np.stack([examples.APPLE_SENSES[k].double().numpy() for k in examples.APPLE_USES])  # (2, 2)
USES = np.array(list(examples.APPLE_USES.values()), dtype=float)  # (2,)

E01_4 = Exercise(
    id="01.4", kind="compute", skill="the usage-weighted average of senses",
    prompt=(f"“apple” is used {int(USES[0])} times as a fruit {fmt(APPLE[0], 2)} and {int(USES[1])} times "
            f"as the company {fmt(APPLE[1], 2)} (axes: technology, taste). One static vector is the "
            "usage-weighted average. Enter it (2 numbers, 3 decimals)."),
    answer=Numeric(lambda: text.usage_weighted_average(APPLE, USES), tol=5e-4, expect="2 numbers"),
    mistakes=[
        Mistake(Misconception("unweighted-mean", "a plain mean of the senses",
                              "Weight each sense by how often it is used: 900 and 100, not 1 and 1.", AVERAGE),
                value=lambda: APPLE.mean(axis=0)),
        Mistake(Misconception("weights-swapped", "the counts swapped",
                              "The fruit sense is the frequent one: it gets 900 / 1000.", AVERAGE),
                value=lambda: (USES[::-1] @ APPLE) / USES.sum()),
    ],
    hint="Σ countᵢ · vectorᵢ / Σ countᵢ, one axis at a time.",
    section=AVERAGE, why="The company sense nearly disappears: the average is mostly fruit.",
)

EXERCISES = [E01_1, E01_2, E01_3, E01_4]
