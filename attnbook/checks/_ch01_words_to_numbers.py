"""Checks of the rows in book/_data/errata/01_words_to_numbers.yml, one function per row id."""

from __future__ import annotations

from attnlib import examples, text

from ._registry import Value, check


@check("tfidf-captures-meaning")
def tfidf_captures_meaning() -> Value:
    """claim: TF-IDF captures meaning."""
    return (lambda w: bool(w[0] @ w[1] == 0 and w[0] @ w[2] == 0))(
        text.tf_idf(["cat", "dog", "banana"], ["cat", "dog", "banana"])
    )


@check("bow-counts")
def bow_counts() -> Value:
    """count vectors of 'I love apple and banana' and 'banana is tasty' over the printe."""
    return text.bag_of_words(examples.BOW_SENTENCES, examples.BOW_VOCAB_PRINTED).tolist()
