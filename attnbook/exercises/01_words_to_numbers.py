"""Exercises of chapter 01, "Words to numbers": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/01_words_to_numbers.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import numpy as np

from attnlib.companions import examples, text

from ._registry import ChapterCode, Numbers

code = ChapterCode(__name__)


KING, QUEEN = (examples.TOY_EMBEDDINGS[w].double().numpy() for w in ("king", "queen"))


@code.function
def dot_not_cosine() -> float:
    return float(KING @ QUEEN)


@code.function
def distance_not_cosine() -> float:
    return float(np.linalg.norm(KING - QUEEN))


code.add(  # 01.1
    ex1_answer=lambda: text.cosine_similarity(KING, QUEEN),
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

code.add(  # 01.2
    ex2_answer=lambda: IDF,
    ex2_copied_the_slip=lambda: SLIP_IDF,
    ex2_inverted_ratio=lambda: float(np.log(DF / len(DOCS))),
    ex2_product_not_step=lambda: TF * IDF,
)


@code.function
def bow_reference(ids: np.ndarray, vocab_size: int) -> np.ndarray:
    vocab = [str(j) for j in range(vocab_size)]
    return text.bag_of_words([[str(i) for i in ids]], vocab)[0]  # (vocab_size,)


@code.function
def bow_presence(ids: np.ndarray, vocab_size: int) -> np.ndarray:
    return np.minimum(bow_reference(ids, vocab_size), 1)


@code.function
def bow_one_hot_rows(ids: np.ndarray, vocab_size: int) -> np.ndarray:
    vocab = [str(j) for j in range(vocab_size)]
    return text.one_hot([str(i) for i in ids], vocab)  # (n, vocab_size)


@code.function
def bow_cases(rng: np.random.Generator) -> list[tuple]:
    cases = [(np.array([0, 2, 2, 5, 2]), 6), (np.array([1, 1]), 3)]
    for n, v in ((8, 5), (12, 10)):
        cases.append((rng.integers(0, v, size=n), v))
    return cases


APPLE = np.stack([examples.APPLE_SENSES[k].double().numpy() for k in examples.APPLE_USES])  # (2, 2)
USES = np.array(list(examples.APPLE_USES.values()), dtype=float)  # (2,)

code.add(  # 01.4
    ex4_answer=lambda: text.usage_weighted_average(APPLE, USES),
    ex4_unweighted_mean=lambda: APPLE.mean(axis=0),
    ex4_weights_swapped=lambda: USES[::-1] @ APPLE / USES.sum(),  # (2,)
    ex4_not_divided=lambda: USES @ APPLE,  # (2,): the weighted sum, not yet divided by the total count
)


code.values(
    royalty_term=float(KING[0] * QUEEN[0]),
    gender_term=float(-KING[1] * QUEEN[1]),
    cosine=text.cosine_similarity(KING, QUEEN),
    king=Numbers(KING),
    queen=Numbers(QUEEN),
    n_docs=len(DOCS),
    doc=DOCS[DOC],
    tf=TF,
    df=DF,
    slip_idf=SLIP_IDF,
    tf_idf_slip=TF * SLIP_IDF,
    uses_fruit=int(USES[0]),
    apple_fruit=Numbers(APPLE[0]),
    uses_company=int(USES[1]),
    apple_company=Numbers(APPLE[1]),
    count=COUNTS[DOC, WORD],
    length=COUNTS[DOC].sum(),
    uses_total=int(USES.sum()),
)
