"""Checks of the rows in book/_data/errata/10_pytorch.yml, one function per row id."""

from __future__ import annotations

import math

import torch

import attnlib
from attnlib import examples, masks

from ._registry import Value, check


@check("pytorch-fill-value-fully-masked-row")
def pytorch_fill_value_fully_masked_row() -> Value:
    """claim: filling masked scores with -1e9 makes softmax turn them to zero."""
    return bool(
        torch.equal(
            masks.masked_fill_softmax(
                torch.tensor([[0.3, -1.2, 2.0, 0.5]]), torch.zeros(1, 4, dtype=torch.bool)
            ),
            torch.full((1, 4), 0.25),
        )
    ) and bool(torch.equal(attnlib.softmax(torch.full((1, 4), -math.inf)), torch.zeros(1, 4)))


@check("pytorch-d-model-512-bert-gpt2")
def pytorch_d_model_512_bert_gpt2() -> Value:
    """claim: d_model = 512 is the standard embedding size used in BERT-base and GPT-2."""
    return all(examples.PUBLISHED_SIZES[m]["d_model"] != 512 for m in ("BERT-base", "GPT-2 small")) and {
        s["d_model"] // s["num_heads"] for s in examples.PUBLISHED_SIZES.values()
    } == {64}
