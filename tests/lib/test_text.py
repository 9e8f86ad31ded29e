"""attnlib.companions.text and the word-chapter example data: the properties the chapters "Words to numbers",
"Context changes meaning" and "Queries, keys and values" rely on."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import attnlib
from attnbook import printed
from attnlib.companions import examples, text

WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=1, max_size=12)


@settings(max_examples=100, deadline=None)
@given(tokens=WORDS)
def test_one_hot_rows_pick_exactly_their_word(tokens) -> None:
    vocab = text.build_vocab([tokens])
    m = text.one_hot(tokens, vocab)
    assert m.shape == (len(tokens), len(vocab))
    assert (m.sum(axis=1) == 1).all()
    assert [vocab[i] for i in m.argmax(axis=1)] == tokens


def test_one_hot_words_are_all_equally_far_apart() -> None:
    m = text.one_hot(list(examples.OHE_VOCAB), examples.OHE_VOCAB).astype(float)
    assert np.array_equal(m, np.eye(4))
    d = np.linalg.norm(m[:, None, :] - m[None, :, :], axis=-1)  # (4, 4)
    off = d[~np.eye(4, dtype=bool)]
    assert np.allclose(off, math.sqrt(2))
    assert text.cosine_similarity(m[2], m[3]) == 0.0 == text.cosine_similarity(m[2], m[1])


@settings(max_examples=100, deadline=None)
@given(tokens=WORDS, seed=st.integers(0, 2**16))
def test_bag_of_words_is_the_sum_of_one_hots_and_ignores_order(tokens, seed) -> None:
    vocab = text.build_vocab([tokens])
    bow = text.bag_of_words([tokens], vocab)
    assert np.array_equal(bow[0], text.one_hot(tokens, vocab).sum(axis=0))
    shuffled = list(np.random.default_rng(seed).permutation(tokens))
    assert np.array_equal(text.bag_of_words([shuffled], vocab), bow)


def test_document_001_vocabulary_and_counts() -> None:
    vocab = text.build_vocab(examples.BOW_SENTENCES)
    assert tuple(vocab) == printed.BOW_VOCAB_PRINTED
    assert text.bag_of_words(examples.BOW_SENTENCES, vocab).tolist() == [list(r) for r in printed.BOW_COUNTS_PRINTED]


def test_idf_is_zero_for_a_word_in_every_document_and_grows_as_a_word_gets_rarer() -> None:
    docs = ["x a", "x a b", "x b", "x c"]
    vocab = ["x", "a", "b", "c"]
    idf = text.inverse_document_frequency(docs, vocab)
    assert idf[0] == 0.0
    assert idf[1] == idf[2] == pytest.approx(math.log(2))
    assert idf[3] == pytest.approx(math.log(4)) and idf[3] > idf[1] > idf[0]


def test_tf_idf_weights_rare_words_above_common_ones() -> None:
    corpus = examples.TFIDF_CORPUS
    vocab = text.build_vocab(corpus)
    w = text.tf_idf(corpus, vocab)
    row = corpus.index("banana is tasty")
    b, t = vocab.index("banana"), vocab.index("tasty")
    assert 0 < w[row, b] < w[row, t]
    # same term frequency (1/3) in that sentence, so the gap is all idf
    idf = text.inverse_document_frequency(corpus, vocab)
    assert w[row, t] / w[row, b] == pytest.approx(idf[t] / idf[b])
    # a word absent from a document gets weight 0 there
    assert w[corpus.index("the apple was red"), b] == 0.0


@settings(max_examples=100, deadline=None)
@given(
    a=arrays(np.float64, 5, elements=st.floats(-10, 10)),
    b=arrays(np.float64, 5, elements=st.floats(-10, 10)),
    c=st.floats(0.01, 100),
)
def test_cosine_is_bounded_symmetric_and_scale_free(a, b, c) -> None:
    if np.linalg.norm(a) < 1e-3 or np.linalg.norm(b) < 1e-3:
        return
    s = text.cosine_similarity(a, b)
    assert -1 - 1e-12 <= s <= 1 + 1e-12
    assert s == pytest.approx(text.cosine_similarity(b, a))
    assert s == pytest.approx(text.cosine_similarity(c * a, b))


def test_nearest_and_analogy_on_the_illustrative_embeddings() -> None:
    emb = examples.TOY_EMBEDDINGS
    # a word is its own nearest neighbour unless excluded
    assert text.nearest(emb["cat"], emb)[0] == ("cat", pytest.approx(1.0))
    assert text.nearest(emb["cat"], emb, exclude=["cat"])[0][0] == "dog"
    target = text.analogy_vector(emb, plus=["king", "woman"], minus=["man"])
    np.testing.assert_allclose(target, (emb["king"] - emb["man"] + emb["woman"]).double().numpy(), atol=1e-6)
    # queen wins even when king, man and woman are allowed to compete
    ranking = text.nearest(target, emb, k=len(emb))
    assert ranking[0][0] == "queen"
    assert [s for _, s in ranking] == sorted((s for _, s in ranking), reverse=True)


@settings(max_examples=100, deadline=None)
@given(
    v=arrays(np.float64, (3, 2), elements=st.floats(-5, 5)),
    c=arrays(np.float64, 3, elements=st.floats(0, 1000)),
    k=st.floats(0.1, 10),
)
def test_usage_weighted_average_is_a_convex_combination(v, c, k) -> None:
    if c.sum() < 1e-6:
        return
    avg = text.usage_weighted_average(v, c)
    assert (avg >= v.min(axis=0) - 1e-9).all() and (avg <= v.max(axis=0) + 1e-9).all()
    np.testing.assert_allclose(text.usage_weighted_average(v, k * c), avg, atol=1e-9)


def test_usage_weighted_average_limits_and_the_apple_example() -> None:
    senses = torch.stack(list(examples.APPLE_SENSES.values()))  # (2, 2)
    np.testing.assert_allclose(text.usage_weighted_average(senses, [1, 0]), senses[0].double().numpy())
    np.testing.assert_allclose(text.usage_weighted_average(senses, [1, 1]), senses.double().mean(0).numpy())
    apple = text.usage_weighted_average(senses, list(examples.APPLE_USES.values()))
    assert text.cosine_similarity(apple, senses[0]) > text.cosine_similarity(apple, senses[1])


@pytest.mark.parametrize("seed", range(5))
def test_cycle_ratio_is_one_for_symmetric_scores_and_not_for_projected_ones(seed) -> None:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(4, 3, generator=g, dtype=torch.float64)
    _, w = attnlib.scaled_dot_product_attention(x, x, x, scale=1.0)
    for cycle in ([0, 1, 2], [3, 1, 0, 2]):
        assert text.softmax_cycle_ratio(w, cycle) == pytest.approx(1.0, rel=1e-9)
    wq, wk = torch.randn(3, 3, generator=g, dtype=torch.float64), torch.randn(3, 3, generator=g, dtype=torch.float64)
    _, w2 = attnlib.scaled_dot_product_attention(x @ wq, x @ wk, x)
    assert abs(text.softmax_cycle_ratio(w2, [0, 1, 2]) - 1.0) > 1e-6


def test_document_001_hand_weights_are_not_a_softmax_of_symmetric_scores() -> None:
    for w in printed.DOC001_HAND_WEIGHTS.values():
        torch.testing.assert_close(w.sum(dim=1), torch.ones(3))
        assert abs(text.softmax_cycle_ratio(w, [0, 1, 2]) - 1.0) > 0.5


def test_journey_module_matches_three_seeded_draws_and_leaves_the_rng_alone() -> None:
    torch.manual_seed(7)
    before = torch.random.get_rng_state()
    sa = examples.journey_self_attention()
    assert torch.equal(torch.random.get_rng_state(), before)
    torch.manual_seed(examples.JOURNEY_SEED)
    draws = [torch.rand(3, 2) for _ in range(3)]
    for w, d in zip((sa.W_query, sa.W_key, sa.W_value), draws):
        assert torch.equal(w.detach(), d)


def test_document_004_printed_queries_are_reproduced() -> None:
    torch.manual_seed(examples.BRL_SEED)
    w_q = torch.randn(4, 4) * 0.5
    q = examples.BRL_EMBEDDINGS @ w_q  # (3, 4)
    torch.testing.assert_close(q.round(decimals=4), printed.BRL_Q_PRINTED, rtol=0, atol=1e-6)


BAD = [
    ("unknown word", lambda: text.one_hot("cat fish", ["cat", "dog"]), ValueError, "'fish'"),
    ("repeated vocab", lambda: text.one_hot("cat", ["cat", "cat"]), ValueError, "['cat']"),
    ("tokens not str", lambda: text.one_hot(3, ["cat"]), TypeError, "int"),
    ("empty document", lambda: text.bag_of_words(["a", "  "], ["a"]), ValueError, "docs[1]"),
    ("docs is a str", lambda: text.bag_of_words("a b", ["a", "b"]), ValueError, "docs"),
    ("word in no doc", lambda: text.tf_idf(["a b"], ["a", "b", "zebra"]), ValueError, "'zebra'"),
    ("cosine zero", lambda: text.cosine_similarity([0.0, 0.0], [1.0, 2.0]), ValueError, "zero vector"),
    ("cosine shapes", lambda: text.cosine_similarity([1.0, 2.0], [1.0, 2.0, 3.0]), ValueError, "(3,)"),
    ("cosine NaN", lambda: text.cosine_similarity([np.nan, 1.0], [1.0, 2.0]), ValueError, "NaN"),
    ("cosine text", lambda: text.cosine_similarity("ab", [1.0, 2.0]), TypeError, "str"),
    ("nearest width", lambda: text.nearest([1.0, 2.0], {"a": [1.0, 2.0, 3.0]}), ValueError, "(2,)"),
    ("nearest k", lambda: text.nearest([1.0], {"a": [1.0]}, k=0), ValueError, "0"),
    ("analogy unknown", lambda: text.analogy_vector({"a": [1.0]}, plus=["a"], minus=["b"]), ValueError, "'b'"),
    ("ragged table", lambda: text.nearest([1.0], {"a": [1.0], "b": [1.0, 2.0]}), ValueError, "(2,)"),
    ("average shapes", lambda: text.usage_weighted_average(np.ones((2, 3)), [1.0]), ValueError, "(2, 3)"),
    ("average negative", lambda: text.usage_weighted_average(np.ones((2, 3)), [1.0, -2.0]), ValueError, "-2.0"),
    ("average zero sum", lambda: text.usage_weighted_average(np.ones((2, 3)), [0, 0]), ValueError, "positive sum"),
    ("cycle not square", lambda: text.softmax_cycle_ratio(np.ones((2, 3)), [0, 1, 2]), ValueError, "(2, 3)"),
    ("cycle too short", lambda: text.softmax_cycle_ratio(np.ones((3, 3)), [0, 1]), ValueError, "[0, 1]"),
    ("cycle zero weight", lambda: text.softmax_cycle_ratio(np.eye(3) + 0.0, [0, 1, 2]), ValueError, "0.0"),
]


@pytest.mark.parametrize(("fn", "exc", "needle"), [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_bad_input_raises_clear_error(fn, exc, needle) -> None:
    with pytest.raises(exc) as info:
        fn()
    assert needle in str(info.value), f"message {str(info.value)!r} does not name {needle!r}"


def test_word_shifts_plot_draws_points_and_arrows() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from attnlib import plots

    ax = plots.word_shifts({"money": [2, 0.2], "grows": [0.9, 0.6]}, {"bank": ([1, 1], [1.4, 0.6])},
                           limits=(0, 3, 0, 3), title="t")
    assert len(ax.collections) == 4  # two words, the static square and the contextual star
    assert ax.get_xlim() == (0, 3) and ax.get_title() == "t"
    with pytest.raises(ValueError, match="shape \\(2,\\)"):
        plots.word_shifts({"a": [1, 2, 3]})
    with pytest.raises(ValueError, match="limits"):
        plots.word_shifts({"a": [1, 2]}, limits=(1, 0, 0, 1))
    plt.close("all")
