"""Checks of the rows in book/_data/errata/01_words_to_numbers.yml, one function per row id."""

from __future__ import annotations

from attnlib.companions import examples, text

from .. import printed
from ..evidence import Finding
from ._registry import Value, derives


@derives("tfidf-captures-meaning")
def tfidf_captures_meaning() -> Value:
    """Claim: TF-IDF captures meaning (qualified "importance")."""
    corpus, vocab = examples.TFIDF_CORPUS, text.build_vocab(examples.TFIDF_CORPUS)
    weights = text.tf_idf(corpus, vocab)
    words = text.tf_idf(["cat", "dog", "banana"], ["cat", "dog", "banana"])  # one word per document
    banana, tasty = float(weights[2, vocab.index("banana")]), float(weights[2, vocab.index("tasty")])
    return Finding(
        holds=tasty > banana,
        edge="any two different words have cosine similarity 0, so TF-IDF puts cat no closer to dog than to banana",
        shown={
            "TF-IDF of 'banana' in 'banana is tasty'": banana,
            "TF-IDF of 'tasty' there": tasty,
            "cat·dog": float(words[0] @ words[1]),
            "cat·banana": float(words[0] @ words[2]),
        },
    )


@derives("bow-counts")
def bow_counts() -> Value:
    """count vectors of 'I love apple and banana' and 'banana is tasty' over the printe."""
    return text.bag_of_words(examples.BOW_SENTENCES, printed.BOW_VOCAB_PRINTED).tolist()
