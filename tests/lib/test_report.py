"""attnlib.companions.report: the printing helpers of the chapters."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attnlib.companions.report import max_diff, show_shape


def test_max_diff_rounds_the_largest_absolute_difference() -> None:
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    b = a + torch.tensor([[0.0, -0.0000125], [0.5, 0.0]])
    assert max_diff(a, b) == "0.500000"
    assert max_diff(a[0], b[0], digits=5) == "0.00001"
    assert max_diff(np.ones(3), np.ones(3) * 1.25, digits=2) == "0.25"
    with pytest.raises(ValueError, match=r"\(2, 2\) and \(2,\)"):
        max_diff(a, b[0])
    with pytest.raises(TypeError, match="list"):
        max_diff([1.0], b)


def test_show_shape_prints_label_shape_and_meaning(capsys) -> None:
    show_shape("q", torch.zeros(2, 10, 64), "[B, S, d_k]")
    show_shape("x", np.zeros(3), "a vector", width=3)
    assert capsys.readouterr().out.splitlines() == [
        f"{'q':27s} {'[2, 10, 64]':14s} [B, S, d_k]", f"{'x':3s} {'[3]':14s} a vector"]
