"""attnlib.companions.scaling: the variance experiments are seeded and agree with the theory, and the softmax
Jacobian is the one torch.autograd computes."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import attnlib
from attnlib.companions import scaling

matplotlib.use("Agg")

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
score_rows = arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 8)), elements=finite)


# --- the dot-product experiment --------------------------------------------------------------


def test_dot_products_are_reproducible_and_depend_only_on_seed_and_dimension() -> None:
    a = scaling.random_dot_products(100, 1000, seed=0)
    assert a.shape == (1000,) and a.dtype == np.float64
    np.testing.assert_array_equal(a, scaling.random_dot_products(100, 1000, seed=0))
    assert not np.array_equal(a, scaling.random_dot_products(100, 1000, seed=1))
    # the table draws exactly the sample a standalone call draws, whatever else it draws
    table = scaling.variance_by_dimension([3, 100, 1000], 1000, seed=0)
    assert table[1, 1] == pytest.approx(np.var(a, ddof=1), rel=1e-12)


def test_a_generator_is_used_as_is_and_advances() -> None:
    rng = np.random.default_rng(7)
    first = scaling.random_dot_products(5, 10, seed=rng)
    second = scaling.random_dot_products(5, 10, seed=rng)
    assert not np.array_equal(first, second)
    rng2 = np.random.default_rng(7)
    np.testing.assert_array_equal(first, scaling.random_dot_products(5, 10, seed=rng2))


@pytest.mark.parametrize("d", [1, 3, 16, 100])
def test_measured_variance_is_d_within_sampling_noise(d: int) -> None:
    n = 20_000
    x = scaling.random_dot_products(d, n, seed=3)
    se = scaling.sample_variance_se(d, n, scaling.dot_excess_kurtosis(d))
    assert abs(np.var(x, ddof=1) - scaling.expected_dot_variance(d)) < 4 * se
    assert abs(x.mean()) < 4 * math.sqrt(d / n)


def test_expected_variance_with_non_unit_entries() -> None:
    rng = np.random.default_rng(11)
    d, n = 6, 200_000
    q = rng.normal(0, 2.0, (n, d))  # (n, d), variance 4
    k = rng.normal(0, 0.5, (n, d))  # (n, d), variance 0.25
    x = np.einsum("nd,nd->n", q, k)  # (n,)
    expected = scaling.expected_dot_variance(d, 4.0, 0.25)
    assert expected == 6.0
    assert abs(x.var() - expected) < 4 * scaling.sample_variance_se(expected, n, 6 / d)


def test_excess_kurtosis_matches_a_large_sample() -> None:
    x = scaling.random_dot_products(2, 400_000, seed=5)
    z = (x - x.mean()) / x.std()
    assert abs(float(np.mean(z**4) - 3) - scaling.dot_excess_kurtosis(2)) < 0.3


def test_standard_error_matches_the_spread_of_repeated_runs() -> None:
    d, n = 100, 1000
    runs = scaling.repeated_variances(d, n, 300, seed=0)
    assert runs.shape == (300,)
    se = scaling.sample_variance_se(d, n, scaling.dot_excess_kurtosis(d))
    assert 0.85 * se < runs.std(ddof=1) < 1.15 * se
    assert abs(runs.mean() - d) < 4 * se / math.sqrt(300)
    np.testing.assert_array_equal(runs, scaling.repeated_variances(d, n, 300, seed=0))


@settings(max_examples=100, deadline=None)
@given(x=arrays(np.float64, st.integers(2, 50), elements=finite), c=st.floats(1e-3, 1e3))
def test_variance_of_scaled_sample_is_c_squared_times_variance(x, c) -> None:
    assert np.var(c * x) == pytest.approx(c**2 * np.var(x), rel=1e-9, abs=1e-12)


def test_dividing_by_sqrt_d_brings_every_dimension_to_variance_one() -> None:
    table = scaling.variance_by_dimension([1, 10, 100, 1000], 4000, seed=2)
    for d, before, after in table:
        se = scaling.sample_variance_se(1.0, 4000, scaling.dot_excess_kurtosis(int(d)))
        assert after == pytest.approx(before / d, rel=1e-9)
        assert abs(after - 1.0) < 4 * se


# --- entropy and the softmax Jacobian -----------------------------------------------------------


def test_entropy_extremes_and_backends_agree() -> None:
    assert scaling.entropy(np.full(8, 1 / 8)) == pytest.approx(math.log(8))
    assert scaling.entropy(np.array([0.0, 1.0, 0.0])) == 0.0
    p = attnlib.softmax(np.random.default_rng(0).normal(size=(4, 6)))
    np.testing.assert_allclose(scaling.entropy(torch.from_numpy(p)).numpy(), scaling.entropy(p), atol=1e-12)
    assert (scaling.entropy(p) < math.log(6)).all()


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 6)])
def test_jacobian_equals_torch_autograd(shape: tuple[int, ...]) -> None:
    gen = torch.Generator().manual_seed(0)
    s = torch.randn(shape, generator=gen, dtype=torch.float64) * 3
    jac = scaling.softmax_jacobian(attnlib.softmax(s))  # (..., n, n)
    flat = s.reshape(-1, shape[-1])  # (rows, n)
    for row, j in zip(flat, jac.reshape(-1, shape[-1], shape[-1])):
        auto = torch.autograd.functional.jacobian(lambda x: attnlib.softmax(x), row)  # (n, n)
        torch.testing.assert_close(j, auto, atol=1e-12, rtol=1e-10)
    np.testing.assert_allclose(scaling.softmax_jacobian(attnlib.softmax(s).numpy()), jac.numpy(), atol=1e-15)


@settings(max_examples=200, deadline=None)
@given(s=score_rows)
def test_jacobian_properties(s) -> None:
    jac = scaling.softmax_jacobian(attnlib.softmax(s))  # (rows, n, n)
    np.testing.assert_allclose(jac, np.swapaxes(jac, -1, -2), atol=1e-15)
    # adding a constant to all scores changes nothing: J·1 = 0
    np.testing.assert_allclose(jac.sum(-1), 0.0, atol=1e-12)
    # it can vanish but never blow up: spectral norm <= 1/2
    assert (np.linalg.norm(jac, ord=2, axis=(-2, -1)) <= 0.5 + 1e-12).all()


def test_saturation_grows_with_dimension_unless_scaled() -> None:
    dims = [4, 64, 1024]
    raw = [scaling.saturation(scaling.random_scores(d, 8, trials=300, seed=0)) for d in dims]
    scaled = [scaling.saturation(scaling.random_scores(d, 8, trials=300, seed=0) / math.sqrt(d)) for d in dims]
    assert raw[0]["max_weight"] < raw[1]["max_weight"] < raw[2]["max_weight"]
    assert raw[0]["entropy"] > raw[1]["entropy"] > raw[2]["entropy"]
    assert raw[0]["jacobian_norm"] > raw[1]["jacobian_norm"] > 3 * raw[2]["jacobian_norm"]
    spread = [r["jacobian_norm"] for r in scaled]
    assert max(spread) - min(spread) < 0.05
    assert min(r["entropy"] for r in scaled) > 1.5


# --- bad inputs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda: scaling.random_dot_products(0, 10, seed=0), ValueError, "d must be > 0"),
        (lambda: scaling.random_dot_products(3, 10, seed=1.5), TypeError, "seed must be an int"),
        (lambda: scaling.random_dot_products(3, 10, seed=-1), ValueError, "seed must be >= 0"),
        (lambda: scaling.random_dot_products(3.0, 10, seed=0), TypeError, "d must be an int"),
        (lambda: scaling.sample_variance_se(1.0, 1), ValueError, "n >= 2"),
        (lambda: scaling.expected_dot_variance(3, -1.0), ValueError, "var_q"),
        (lambda: scaling.variance_by_dimension([], seed=0), ValueError, "non-empty"),
        (lambda: scaling.entropy(np.array([0.5, -0.1, 0.6])), ValueError, "negative entry"),
        (lambda: scaling.entropy([0.5, 0.5]), TypeError, "numpy.ndarray"),
        (lambda: scaling.softmax_jacobian(np.array([np.nan, 1.0])), ValueError, "NaN"),
        (lambda: scaling.softmax_jacobian(np.zeros((2, 0))), ValueError, r"shape \(2, 0\)"),
        (lambda: scaling.saturation(np.zeros(3)), ValueError, r"shape \(3,\)"),
    ],
)
def test_bad_inputs_raise_clear_errors(call, exc, match) -> None:
    with pytest.raises(exc, match=match):
        call()


# --- the plot helpers of the two chapters -----------------------------------------------------


def test_histograms_share_bins_and_reject_bad_input() -> None:
    import matplotlib.pyplot as plt

    from attnlib import plots

    samples = {"a": np.arange(10.0), "b": np.arange(10.0) * 2}
    ax = plots.histograms(samples, bins=5, density=True)
    # one filled and one outlined histogram per sample, on the same 5 bins
    assert len(ax.patches) == 2 * (5 + 1)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    plt.close("all")
    with pytest.raises(ValueError, match="NaN"):
        plots.histograms({"x": [1.0, np.nan]})
    with pytest.raises(ValueError, match="low < high"):
        plots.histograms({"x": [1.0, 2.0]}, value_range=(2.0, 1.0))
    with pytest.raises(ValueError, match=r"shape \(2,\), expected \(3,\)"):
        plots.curves([1, 2, 3], {"y": [1.0, 2.0]})
