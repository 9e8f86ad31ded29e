"""attnlib.companions.cost: exact byte and FLOP counts, a peak-memory probe that sees torch's allocations, and
the log-log growth plot of "Attention at scale"."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from attnlib import plots  # noqa: E402
from attnlib.companions import cost  # noqa: E402


def test_score_matrix_bytes_counts_every_entry() -> None:
    assert cost.score_matrix_bytes(8, 8, 1024) == 8 * 8 * 1024 * 1024 * 4
    assert cost.score_matrix_bytes(2, 3, 5, 7, dtype=torch.float64) == 2 * 3 * 5 * 7 * 8
    assert cost.score_matrix_bytes(1, 1, 10, dtype=torch.float16) == 200
    t = torch.empty(3, 2, 6, 6)
    assert cost.score_matrix_bytes(3, 2, 6) == t.numel() * t.element_size()


def test_flops_match_the_matmuls_they_count() -> None:
    # (n_q, d_k) @ (d_k, n_k) is n_q·n_k multiply-adds of length d_k; weights @ v likewise with d_v
    assert cost.attention_flops(1, 1, 3, 5, 4, 2) == 2 * 3 * 5 * 4 + 2 * 3 * 5 * 2
    assert cost.attention_flops(8, 8, 1024, 1024, 64) == 4 * 8 * 8 * 1024 * 1024 * 64
    assert cost.attention_flops(2, 2, 256, 256, 64) * 4 == cost.attention_flops(2, 2, 512, 512, 64)


@pytest.mark.parametrize(
    ("call", "exc", "needle"),
    [(lambda: cost.score_matrix_bytes(0, 1, 4), ValueError, "batch must be > 0, got 0"),
     (lambda: cost.score_matrix_bytes(1, 1, 4.0), TypeError, "n_q must be an int, got float"),
     (lambda: cost.score_matrix_bytes(1, 1, 4, dtype="float32"), TypeError, "str"),
     (lambda: cost.attention_flops(1, 1, 4, 4, -2), ValueError, "d_k must be > 0, got -2"),
     (lambda: cost.best_time(lambda: None, repeats=0), ValueError, "repeats must be > 0, got 0")],
)
def test_bad_arguments_raise_clear_errors(call, exc, needle) -> None:
    with pytest.raises(exc, match=needle):
        call()


def test_peak_rss_sees_a_torch_allocation() -> None:
    size = 96 * 2**20
    with cost.PeakRSS() as mem:
        x = torch.ones(size // 4)  # 96 MiB, every page written
        del x
    if mem.extra is None:
        pytest.skip("no resettable RSS high-water mark on this platform")
    assert mem.peak >= mem.before
    assert size * 0.9 <= mem.extra <= size * 2, f"{mem.extra / 2**20:.1f} MiB for a 96 MiB tensor"
    with cost.PeakRSS() as small:
        torch.ones(16)
    assert small.extra < size / 4


def test_best_time_is_the_minimum_of_the_calls() -> None:
    calls = []

    def fn() -> None:
        calls.append(1)

    t = cost.best_time(fn, repeats=4)
    assert len(calls) == 5 and 0 <= t < 1  # one warm-up call, then four timed ones
    cost.best_time(fn, repeats=2, warmup=False)
    assert len(calls) == 7


def test_growth_plot_draws_each_series_and_a_slope_guide() -> None:
    n = [256, 512, 1024]
    ax = plots.growth(n, {"quadratic": [1.0, 4.0, 16.0], "linear": [2.0, 4.0, 8.0]}, ylabel="x")
    lines = ax.get_lines()
    assert [ln.get_label() for ln in lines] == ["quadratic", "linear", r"$\propto n^{2}$"]
    np.testing.assert_allclose(lines[2].get_ydata(), [1.0, 4.0, 16.0])  # the guide passes through the first series
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert [t.get_text() for t in ax.get_legend().get_texts()][-1] == r"$\propto n^{2}$"
    no_guide = plots.growth(n, {"linear": [2.0, 4.0, 8.0]}, slope=None)
    assert len(no_guide.get_lines()) == 1
    plt.close("all")


@pytest.mark.parametrize(
    ("n", "series", "needle"),
    [([256, 0], {"a": [1.0, 2.0]}, "'n' must be > 0"), ([1, 2], {"a": [1.0, 0.0]}, "'a' must be > 0"),
     ([1, 2], {}, "non-empty"), ([1, 2], {"a": [1.0]}, "shape (1,)"), ([1, 2], {"a": [1.0, math.nan]}, "NaN")],
)
def test_growth_plot_rejects_bad_input(n, series, needle) -> None:
    with pytest.raises(ValueError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        plots.growth(n, series)
    plt.close("all")


def test_best_time_batches_a_short_call() -> None:
    """A call shorter than ``min_seconds`` is repeated until a measurement lasts that long, and the
    time of one call is returned."""
    calls = []

    def tiny() -> None:
        calls.append(1)

    t = cost.best_time(tiny, repeats=3, warmup=False, min_seconds=0.01)
    assert len(calls) > 100 and 0 < t < 1e-3, (len(calls), t)
    calls.clear()
    cost.best_time(tiny, repeats=3, warmup=False)
    assert len(calls) == 3  # without min_seconds: one call per measurement
