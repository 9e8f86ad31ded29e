"""Bad input raises ValueError/TypeError whose message names what it got. Never a silent NaN."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import attnlib
from attnlib import plots, recurrence, scaling, scratch, text
from attnlib.widgets import DotProductSpread, GeometricAttention, SoftmaxSharpening, TemperatureSlider

from .strategies import k3, nan_q, q3, v3

sdpa = attnlib.scaled_dot_product_attention

CASES = [
    # (id, callable, exception, substring expected in the message)
    ("q rank 1", lambda: sdpa(torch.randn(4), k3, v3), ValueError, "(4,)"),
    ("d_k mismatch", lambda: sdpa(q3, torch.randn(2, 5, 3), v3), ValueError, "(2, 5, 3)"),
    ("n of k != n of v", lambda: sdpa(q3, k3, torch.randn(2, 4, 6)), ValueError, "(2, 4, 6)"),
    ("mask does not broadcast", lambda: sdpa(q3, k3, v3, mask=torch.ones(3, 3, dtype=torch.bool)), ValueError, "(3, 3)"),
    ("mask wrong dtype", lambda: sdpa(q3, k3, v3, mask=torch.ones(3, 5)), ValueError, "torch.float32"),
    ("mask not an array", lambda: sdpa(q3, k3, v3, mask=[[True]]), TypeError, "list"),
    ("empty sequence", lambda: sdpa(torch.randn(2, 0, 4), k3, v3), ValueError, "(2, 0, 4)"),
    ("int dtype", lambda: sdpa(q3.long(), k3, v3), ValueError, "torch.int64"),
    ("bool dtype", lambda: sdpa(q3, k3.bool(), v3), ValueError, "torch.bool"),
    ("complex dtype", lambda: sdpa(np.ones((3, 4), complex), np.ones((5, 4)), np.ones((5, 6))), ValueError, "complex128"),
    ("list input", lambda: sdpa([[1.0]], k3, v3), TypeError, "list"),
    ("mixed backends", lambda: sdpa(q3, k3.numpy(), v3), TypeError, "ndarray"),
    ("NaN input", lambda: sdpa(nan_q, k3, v3), ValueError, "NaN"),
    ("inf input", lambda: sdpa(q3, k3, v3 * float("inf")), ValueError, "Inf"),
    ("scale zero", lambda: sdpa(q3, k3, v3, scale=0.0), ValueError, "0.0"),
    ("scale negative", lambda: sdpa(q3, k3, v3, scale=-1), ValueError, "-1"),
    ("temperature zero", lambda: attnlib.softmax(q3, temperature=0), ValueError, "temperature"),
    ("temperature negative", lambda: attnlib.softmax(q3, temperature=-2.0), ValueError, "-2.0"),
    ("softmax int", lambda: attnlib.softmax(torch.arange(3)), ValueError, "torch.int64"),
    ("softmax NaN", lambda: attnlib.softmax(np.array([1.0, np.nan])), ValueError, "NaN"),
    ("softmax string", lambda: attnlib.softmax("abc"), TypeError, "str"),
    ("softmax empty", lambda: attnlib.softmax(torch.empty(2, 0)), ValueError, "(2, 0)"),
    ("heads do not divide", lambda: attnlib.MultiHeadAttention(10, 3), ValueError, "d_model=10, num_heads=3"),
    ("heads zero", lambda: attnlib.MultiHeadAttention(8, 0), ValueError, "0"),
    ("mha wrong width", lambda: attnlib.MultiHeadAttention(8, 2)(torch.randn(2, 3, 6)), ValueError, "(2, 3, 6)"),
    ("v2 wrong width", lambda: attnlib.SelfAttentionV2(3, 2)(torch.randn(4, 5)), ValueError, "(4, 5)"),
    ("v1 numpy input", lambda: attnlib.SelfAttentionV1(3, 2)(np.ones((4, 3))), TypeError, "ndarray"),
    ("causal n zero", lambda: attnlib.causal_mask(0), ValueError, "0"),
    ("causal n float", lambda: attnlib.causal_mask(2.5), TypeError, "float"),
    ("padding length > n", lambda: attnlib.padding_mask([2, 7], 5), ValueError, "[2, 7]"),
    ("padding negative length", lambda: attnlib.padding_mask([-1], 5), ValueError, "[-1]"),
    ("padding float lengths", lambda: attnlib.padding_mask([1.5], 5), ValueError, "float"),
    # plot helpers
    ("heatmap 1-d", lambda: plots.heatmap(np.ones(3)), ValueError, "(3,)"),
    ("heatmap NaN", lambda: plots.heatmap(np.array([[np.nan]])), ValueError, "NaN"),
    ("heatmap labels", lambda: plots.heatmap(np.ones((2, 2)), row_labels=["a"]), ValueError, "(2, 2)"),
    ("vectors_2d 3-d vector", lambda: plots.vectors_2d({"a": [1, 2, 3]}), ValueError, "(3,)"),
    ("grouped_bars length", lambda: plots.grouped_bars({"a": [1, 2]}, ["x"]), ValueError, "(2,)"),
    ("histograms NaN", lambda: plots.histograms({"a": [1.0, np.nan]}), ValueError, "NaN"),
    ("growth zero on log axes", lambda: plots.growth([1, 2], {"t": [0.0, 1.0]}), ValueError, "'t' must be > 0"),
    # text
    ("one_hot unknown word", lambda: text.one_hot(["zebra"], ["cat", "dog"]), ValueError, "zebra"),
    ("cosine of zero vector", lambda: text.cosine_similarity([0, 0], [1, 0]), ValueError, "zero vector"),
    ("cosine shapes", lambda: text.cosine_similarity([1, 0, 0], [1, 0]), ValueError, "(3,) and (2,)"),
    ("usage negative count", lambda: text.usage_weighted_average(np.eye(2), [-1, 2]), ValueError, "-1.0"),
    # the NumPy pipeline
    ("tokenizer bad entry", lambda: scratch.Tokenizer(["a b"]), ValueError, "'a b'"),
    ("positional n zero", lambda: scratch.sinusoidal_positional_encoding(0, 4), ValueError, "0"),
    ("self_attention W_q shape", lambda: scratch.self_attention(np.ones((3, 4)), np.ones((5, 2)), np.ones((4, 2)),
                                                                 np.ones((4, 2))), ValueError, "(5, 2)"),
    ("rnn list input", lambda: recurrence.rnn_forward([[1.0]], np.ones((1, 1)), np.ones((1, 1))), TypeError, "list"),
    ("path unknown word", lambda: recurrence.path_counts(["a", "b"], "a", "z"), ValueError, "'z'"),
    # scaling experiments
    ("dot products d zero", lambda: scaling.random_dot_products(0, seed=0), ValueError, "0"),
    ("seed float", lambda: scaling.random_dot_products(3, seed=1.5), TypeError, "float"),
    ("seed negative", lambda: scaling.random_dot_products(3, seed=-1), ValueError, "-1"),
    ("entropy not normalised", lambda: scaling.entropy(np.array([0.5, 0.7])), ValueError, "sum to 1"),
    ("jacobian int", lambda: scaling.softmax_jacobian(np.array([1, 0])), ValueError, "int64"),
    # attention at scale
    ("chunked block_size zero", lambda: attnlib.chunked_attention(q3, k3, v3, block_size=0), ValueError, "0"),
    ("chunked numpy", lambda: attnlib.chunked_attention(q3.numpy(), k3.numpy(), v3.numpy()), TypeError, "ndarray"),
    ("online update v rows", lambda: attnlib.chunked.online_softmax_update(
        torch.zeros(2, 3), torch.zeros(4, 1), torch.zeros(2, 1), torch.zeros(2, 1), torch.zeros(2, 1)),
     ValueError, "(4, 1)"),
    ("chunked block_size float", lambda: attnlib.chunked_attention(q3, k3, v3, block_size=2.5), TypeError, "float"),
    ("chunked causal string", lambda: attnlib.chunked_attention(q3, k3, v3, causal="yes"), TypeError, "str"),
    ("chunked d_k mismatch", lambda: attnlib.chunked_attention(q3, torch.randn(2, 5, 3), v3), ValueError, "(2, 5, 3)"),
    ("matrix bytes n float", lambda: attnlib.cost.score_matrix_bytes(1, 1, 2.5), TypeError, "float"),
    # widgets (Python side)
    ("widget temperature zero", lambda: TemperatureSlider([1.0, 2.0], temperature=0), ValueError, "0.0"),
    ("widget scores NaN", lambda: TemperatureSlider([1.0, float("nan")]), ValueError, "NaN"),
    ("widget one score", lambda: SoftmaxSharpening(scores=[1.0]), ValueError, "(1,)"),
    ("widget d_k string", lambda: SoftmaxSharpening(d_k="big"), TypeError, "str"),
    ("widget q/k mismatch", lambda: GeometricAttention(query=[1.0, 2.0, 3.0]), ValueError, "(3,)"),
    ("widget values rows", lambda: GeometricAttention(keys=np.ones((3, 2)), values=np.ones((2, 2))), ValueError,
     "(2, 2)"),
    ("widget seed negative", lambda: DotProductSpread(seed=-3), ValueError, "-3"),
]


@pytest.mark.parametrize(("fn", "exc", "needle"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_raises_clear_error(fn, exc, needle) -> None:
    with pytest.raises(exc) as info:
        fn()
    assert needle in str(info.value), f"message {str(info.value)!r} does not name {needle!r}"
