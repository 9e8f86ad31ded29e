"""The geometric plot helpers of "Worked example: 'it' attends" and the comparison helpers of the
worked-example chapters: each figure shows the numbers attnlib computes, bad input raises."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.collections import PathCollection  # noqa: E402

import attnlib  # noqa: E402
from attnbook import printed  # noqa: E402
from attnbook.compare import compare_row, document_tensor, format_rows, side_by_side  # noqa: E402
from attnlib import plots  # noqa: E402
from attnlib.companions import examples  # noqa: E402

KEYS = dict(zip(examples.IT_WORDS, examples.IT_KEYS))
VALUES = dict(zip(examples.IT_WORDS, examples.IT_VALUES))


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _weights() -> torch.Tensor:
    _, w = attnlib.scaled_dot_product_attention(examples.IT_QUERY[None], examples.IT_KEYS, examples.IT_VALUES)
    return w[0]


# --- similarity_qk --------------------------------------------------------------------------


def test_similarity_marker_areas_are_proportional_to_the_scores() -> None:
    ax = plots.similarity_qk(examples.IT_QUERY, KEYS)
    scatters = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert len(scatters) == len(KEYS)
    areas = np.array([c.get_sizes()[0] for c in scatters])
    scores = (examples.IT_KEYS @ examples.IT_QUERY).numpy()
    np.testing.assert_allclose(areas / areas.max(), scores / scores.max(), rtol=1e-6)
    centres = np.vstack([c.get_offsets()[0] for c in scatters])
    np.testing.assert_allclose(centres, examples.IT_KEYS.numpy())


def test_similarity_labels_print_the_scores() -> None:
    ax = plots.similarity_qk([1.0, 0.0], {"a": [2.0, 5.0], "b": [-3.0, 1.0]})
    texts = {t.get_text() for t in ax.texts}
    assert "q·k = 2.0" in texts and "q·k = -3.0" in texts
    negative = [c for c in ax.collections if isinstance(c, PathCollection)][1]
    assert negative.get_facecolor().size == 0 or negative.get_facecolor()[0][3] == 0  # hollow marker


@pytest.mark.parametrize(
    ("query", "keys", "message"),
    [([1.0, 2.0, 3.0], KEYS, "(3,)"), ([1.0, float("nan")], KEYS, "NaN"), ([1.0, 0.0], {"a": [1.0]}, "(1,)"),
     ([1.0, 0.0], {}, "non-empty")],
)
def test_similarity_rejects_bad_input(query, keys, message) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        plots.similarity_qk(query, keys)


# --- scaling_softmax_bars -------------------------------------------------------------------


def test_scaling_bars_show_scaled_scores_and_attnlib_weights() -> None:
    scores = (examples.IT_KEYS @ examples.IT_QUERY).numpy()
    left, right = plots.scaling_softmax_bars(scores, examples.IT_WORDS, d_k=2)
    heights = [p.get_height() for p in left.patches]
    np.testing.assert_allclose(heights[:3], scores)
    np.testing.assert_allclose(heights[3:], scores / math.sqrt(2))
    weights = [p.get_height() for p in right.patches]
    np.testing.assert_allclose(weights, _weights().numpy(), rtol=1e-6)
    assert math.isclose(sum(weights), 1.0, rel_tol=1e-9)


def test_scaling_bars_stacked_put_the_weights_under_the_scores() -> None:
    left, right = plots.scaling_softmax_bars([1.0, 2.0], ["a", "b"], d_k=4, stacked=True)
    assert left.figure is right.figure and left.figure.get_figwidth() <= 6
    (lx, ly), (rx, ry) = (ax.get_position().get_points()[0] for ax in (left, right))
    assert ry < ly and abs(rx - lx) < 0.1  # one above the other, not side by side


def test_scaling_bars_draw_on_given_axes() -> None:
    _, axes = plt.subplots(1, 2)
    got = plots.scaling_softmax_bars([1.0, 2.0], ["a", "b"], d_k=4, axes=axes)
    assert got[0] is axes[0] and got[1] is axes[1]


@pytest.mark.parametrize(
    ("scores", "labels", "d_k", "error", "message"),
    [([1.0, 2.0], ["a"], 2, ValueError, "(1,)"), ([1.0, float("inf")], ["a", "b"], 2, ValueError, "NaN or Inf"),
     ([1.0, 2.0], ["a", "b"], 0, ValueError, "d_k"), ([1.0, 2.0], ["a", "b"], 2.5, TypeError, "d_k")],
)
def test_scaling_bars_reject_bad_input(scores, labels, d_k, error, message) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        plots.scaling_softmax_bars(scores, labels, d_k=d_k)


# --- weighted_sum_v -------------------------------------------------------------------------


def test_weighted_sum_marks_the_context_vector() -> None:
    w = _weights()
    ax = plots.weighted_sum_v(VALUES, w)
    context = (w @ examples.IT_VALUES).numpy()
    marker = [c for c in ax.collections if isinstance(c, PathCollection)][-1]
    np.testing.assert_allclose(marker.get_offsets()[0], context, rtol=1e-6)
    assert any(t.get_text() == f"context [{context[0]:.2f}, {context[1]:.2f}]" for t in ax.texts)
    widths = [line.get_linewidth() for line in ax.lines if len(line.get_xdata()) == 2][-3:]
    assert np.argmax(widths) == int(torch.argmax(w))  # the heaviest value gets the widest line


@pytest.mark.parametrize(
    ("weights", "message"),
    [([0.5, 0.5, 0.5], "sum to 1"), ([1.2, -0.1, -0.1], "sum to 1"), ([0.5, 0.5], "(2,)"), ([np.nan, 0.5, 0.5], "NaN")],
)
def test_weighted_sum_rejects_weights_that_are_not_a_distribution(weights, message) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        plots.weighted_sum_v(VALUES, weights)


def test_convex_hull_of_a_square_with_an_inner_point() -> None:
    pts = np.array([[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]], dtype=float)
    hull = plots._convex_hull(pts)
    assert sorted(map(tuple, hull.tolist())) == [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)]


# --- compare --------------------------------------------------------------------------------


def test_compare_row_verdicts() -> None:
    assert compare_row("[0.30, 0.33, 0.37]", [0.2994, 0.3321, 0.3685]) == "same"
    assert compare_row("0.53", 0.5207) == "last digit"
    assert compare_row("[0.26, 0.37, 0.37]", torch.tensor([0.2514, 0.3260, 0.4227])) == "differs"


def test_compare_row_rejects_count_mismatch_and_non_strings() -> None:
    with pytest.raises(ValueError, match="prints 2 numbers"):
        compare_row("1.0, 2.0", [1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="float"):
        compare_row(0.5, 0.5)


def test_side_by_side_lists_each_row_with_its_verdict() -> None:
    text = side_by_side([("a", "1.00", 1.0), ("b", "[2.0, 3.0]", [2.0, 3.9])], decimals=2)
    lines = text.splitlines()
    assert lines[0].split() == ["quantity", "document", "attnlib", "vs", "exact"]
    assert lines[2].split()[-1] == "same" and lines[3].split()[-1] == "differs"
    assert "[2.00, 3.90]" in lines[3]
    with pytest.raises(ValueError, match="at least one"):
        side_by_side([])
    with pytest.raises(ValueError, match="decimals"):
        side_by_side([("a", "1", 1.0)], decimals=-1)


def test_document_tensor_parses_printed_rows() -> None:
    t = document_tensor(printed.DOC002_HAPPY_PRINTED["weights"])
    assert t.shape == (3, 3) and t.dtype == torch.float64
    assert t[1].tolist() == [0.26, 0.37, 0.37]
    with pytest.raises(ValueError, match="same number"):
        document_tensor(["[1, 2]", "[1, 2, 3]"])
    with pytest.raises(TypeError):
        document_tensor("[1, 2]")


def test_format_rows_is_aligned_and_rejects_wrong_labels() -> None:
    text = format_rows(torch.tensor([[1.0, 22.5], [3.25, 4.0]]), ["x", "yy"], ["c1", "c2"], decimals=2)
    assert text.splitlines() == ["       c1     c2", " x:  1.00  22.50", "yy:  3.25   4.00"]
    with pytest.raises(ValueError, match="row_labels has 1"):
        format_rows(np.zeros((2, 2)), ["only one"])
    with pytest.raises(ValueError, match=r"\(2, 2, 2\)"):
        format_rows(np.zeros((2, 2, 2)))


# --- the example data -----------------------------------------------------------------------


def test_document_printed_values_have_the_shapes_of_the_computation() -> None:
    for rows, n in ((printed.DOC002_HAPPY_PRINTED["weights"], 3), (printed.DOC004_STEP_PRINTED["output"], 4)):
        assert document_tensor(rows).shape == (3, n)
    assert examples.HAPPY_EMBEDDINGS.shape == (3, 3) and len(examples.HAPPY_WORDS) == 3
    assert examples.STEP_Q.shape == examples.STEP_V.shape == (3, 4)
    assert "it" in examples.PRONOUN_SENTENCE and all(w in examples.PRONOUN_SENTENCE for w in examples.IT_WORDS)


# --- tiling ("Attention at scale") -------------------------------------------------------------


def _tile_faces(ax) -> list[tuple[float, float, tuple]]:
    """(x, y, facecolor) of the square tiles of the score matrix (the patches left of the state column)."""
    from matplotlib.patches import Rectangle

    return [(p.get_x(), p.get_y(), p.get_facecolor(), p.get_hatch()) for p in ax.patches
            if isinstance(p, Rectangle) and p.get_x() < 600]


def test_tiling_draws_one_tile_per_block_pair_and_skips_the_causal_future() -> None:
    import matplotlib.colors as mcolors

    ax = plots.tiling(600, 128, current=(2, 1), causal=True)
    tiles = _tile_faces(ax)
    assert len(tiles) == 5 * 5  # 600 = 4 * 128 + 88: five blocks each way, the last partial
    hatched = {(x, y) for x, y, _, h in tiles if h}
    # a key block is skipped when it starts after the last query of the block: strictly above the diagonal
    assert hatched == {(kx, qy) for qy in (0, 128, 256, 384, 512) for kx in (0, 128, 256, 384, 512) if kx > qy}
    current = [(x, y) for x, y, f, _ in tiles if mcolors.to_hex(f) == plots.style.PALETTE["orange"].lower()]
    assert current == [(128, 256)]
    done = [(x, y) for x, y, f, h in tiles if mcolors.to_hex(f) == "#cfe6f5"]
    assert sorted(done) == sorted([(0, 0), (0, 128), (128, 128), (0, 256)])
    labels = {t.get_text() for t in ax.texts}
    assert {"m", "ℓ", "a"} <= labels
