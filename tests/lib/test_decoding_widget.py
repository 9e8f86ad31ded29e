"""The decoding widget's Python side: the numbers it shows equal the newest row of causal attention
over the whole sequence, the state clamps, and bad arguments are refused."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import attnlib
from attnlib.widgets import DecodingStepper
from attnlib.widgets.decoding import decoding_numbers, decoding_vectors


def test_each_step_equals_the_row_of_full_causal_attention() -> None:
    w = DecodingStepper()
    q, k, v = (np.asarray(x) for x in (w.query_vectors, w.key_vectors, w.value_vectors))
    full_out, full_w = attnlib.scaled_dot_product_attention(q, k, v, is_causal=True)  # (n, 2), (n, n)
    for step in range(1, len(w.tokens) + 1):
        w.step = step
        got = w.numbers()
        assert got["cache_length"] == step and got["cache_numbers"] == 2 * step * 2
        np.testing.assert_allclose(got["weights"], full_w[step - 1, :step], atol=1e-12)
        np.testing.assert_allclose(got["output"], full_out[step - 1], atol=1e-12)
        np.testing.assert_allclose(got["scores"], q[step - 1] @ k[:step].T / np.sqrt(2), atol=1e-12)
    assert not np.allclose(w.numbers()["weights"], 1 / len(w.tokens))  # the weights are not uniform


def test_vectors_are_seeded_rounded_and_leave_the_global_rng_alone() -> None:
    state = torch.get_rng_state()
    q, k, v = decoding_vectors(5, seed=3)
    assert torch.equal(torch.get_rng_state(), state)
    assert q.shape == k.shape == v.shape == (5, 2)
    np.testing.assert_array_equal(np.round(k, 2), k)
    assert np.array_equal(decoding_vectors(5, seed=3)[1], k) and not np.array_equal(decoding_vectors(5, seed=4)[1], k)


def test_step_clamps_and_repr_is_stable() -> None:
    w = DecodingStepper(["a", "b", "c"], step=10)
    assert w.step == 3
    w.step = -2
    assert w.step == 1
    assert repr(w) == "DecodingStepper(step=1, tokens=['a', 'b', 'c'])"
    with pytest.raises(ValueError, match="'solo'"):
        DecodingStepper("solo")
    with pytest.raises(TypeError, match="float"):
        DecodingStepper(step=1.5)
    with pytest.raises(ValueError, match=r"\(2, 2\)"):
        decoding_numbers(np.ones((3, 2)), np.ones((3, 2)), np.ones((2, 2)), 1)
