"""attnlib.companions.head_scores against loops written from the definitions, on random causal weights."""

from __future__ import annotations

import math

import hypothesis.strategies as st
import pytest
import torch
from hypothesis import given, settings

from attnlib.companions import head_scores as hs


def _causal_weights(batch: int, heads: int, n: int, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    scores = torch.randn(batch, heads, n, n, generator=g, dtype=torch.float64)
    scores = scores.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
    return scores.softmax(dim=-1)


cases = st.tuples(st.integers(1, 3), st.integers(1, 4), st.integers(2, 12), st.integers(1, 4), st.integers(0, 10_000))


@settings(max_examples=40, deadline=None)
@given(cases)
def test_scores_equal_loops_over_the_definitions(case: tuple[int, int, int, int, int]) -> None:
    batch, heads, n, vocab, seed = case
    w = _causal_weights(batch, heads, n, seed)
    tokens = torch.randint(0, vocab, (batch, n), generator=torch.Generator().manual_seed(seed + 1))
    prev = [sum(float(w[b, h, i, i - 1]) for b in range(batch) for i in range(1, n)) / (batch * (n - 1))
            for h in range(heads)]
    first = [sum(float(w[b, h, i, 0]) for b in range(batch) for i in range(1, n)) / (batch * (n - 1))
             for h in range(heads)]
    assert hs.previous_token_score(w).tolist() == pytest.approx(prev, rel=1e-12)
    assert hs.first_token_share(w).tolist() == pytest.approx(first, rel=1e-12)
    # the prefix-matching score: queries with an earlier occurrence of their token (not the one just before)
    counted = [(b, i) for b in range(batch) for i in range(n)
               if any(tokens[b, p] == tokens[b, i] for p in range(i - 1))]
    if not counted:
        with pytest.raises(ValueError, match="earlier occurrence"):
            hs.prefix_matching_score(w, tokens)
        return
    want = [sum(sum(float(w[b, h, i, p + 1]) for p in range(i - 1) if tokens[b, p] == tokens[b, i])
                for b, i in counted) / len(counted) for h in range(heads)]
    assert hs.prefix_matching_score(w, tokens).tolist() == pytest.approx(want, rel=1e-12)


def test_a_pure_induction_head_scores_one_and_a_previous_token_head_zero() -> None:
    # a sequence of 5 distinct tokens, repeated: the second copy's token i attends to i - 5 + 1
    tokens = torch.tensor([[0, 1, 2, 3, 4, 0, 1, 2, 3, 4]])
    n = tokens.shape[1]
    induction, previous = torch.zeros(n, n, dtype=torch.float64), torch.zeros(n, n, dtype=torch.float64)
    for i in range(n):
        induction[i, i - 4 if i >= 5 else 0] = 1.0
        previous[i, max(i - 1, 0)] = 1.0
    w = torch.stack([induction, previous])[None]  # (1, 2, n, n)
    assert hs.prefix_matching_score(w, tokens).tolist() == [1.0, 0.0]
    assert hs.previous_token_score(w).tolist() == [pytest.approx(1 / 9), 1.0]  # only i = 1 looks one back
    second = torch.arange(n)[None] >= 5
    assert hs.prefix_matching_score(w, tokens, second).tolist() == [1.0, 0.0]


def test_loss_by_position_is_the_cross_entropy_at_each_position() -> None:
    g = torch.Generator().manual_seed(0)
    logits, targets = torch.randn(3, 5, 7, generator=g, dtype=torch.float64), torch.randint(0, 7, (3, 5), generator=g)
    got = hs.loss_by_position(logits, targets)
    want = [sum(-float(logits[b, i].log_softmax(-1)[targets[b, i]]) for b in range(3)) / 3 for i in range(5)]
    assert got.tolist() == pytest.approx(want, rel=1e-12)
    assert math.isclose(float(got.mean()), float(torch.nn.functional.cross_entropy(logits.reshape(15, 7),
                                                                                 targets.reshape(15))), rel_tol=1e-12)


@pytest.mark.parametrize("bad", [torch.zeros(2, 3, 3), torch.zeros(1, 1, 3, 4), torch.zeros(1, 1, 1, 1), "w"])
def test_bad_weights_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="weights|positions"):
        hs.previous_token_score(bad)  # type: ignore[arg-type]


def test_bad_tokens_are_refused() -> None:
    w = _causal_weights(1, 1, 4, 0)
    for tokens in (torch.zeros(1, 3, dtype=torch.long), torch.zeros(1, 4), [[0, 1, 0, 1]]):
        with pytest.raises(ValueError, match="tokens"):
            hs.prefix_matching_score(w, tokens)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="batch, n, vocab"):
        hs.loss_by_position(torch.zeros(2, 3), torch.zeros(2, 3, dtype=torch.long))


@settings(max_examples=30, deadline=None)
@given(cases)
def test_duplicate_token_score_equals_a_loop_over_its_definition(case: tuple[int, int, int, int, int]) -> None:
    batch, heads, n, vocab, seed = case
    w = _causal_weights(batch, heads, n, seed)
    tokens = torch.randint(0, vocab, (batch, n), generator=torch.Generator().manual_seed(seed + 1))
    counted = [(b, i) for b in range(batch) for i in range(n) if any(tokens[b, j] == tokens[b, i] for j in range(i))]
    if not counted:
        with pytest.raises(ValueError, match="earlier occurrence"):
            hs.duplicate_token_score(w, tokens)
        return
    want = [sum(sum(float(w[b, h, i, j]) for j in range(i) if tokens[b, j] == tokens[b, i]) for b, i in counted)
            / len(counted) for h in range(heads)]
    assert hs.duplicate_token_score(w, tokens).tolist() == pytest.approx(want, rel=1e-12)
    only = torch.zeros(batch, n, dtype=torch.bool)
    only[counted[0]] = True  # the queries argument keeps one position
    b, i = counted[0]
    one = [sum(float(w[b, h, i, j]) for j in range(i) if tokens[b, j] == tokens[b, i]) for h in range(heads)]
    assert hs.duplicate_token_score(w, tokens, only).tolist() == pytest.approx(one, rel=1e-12)
