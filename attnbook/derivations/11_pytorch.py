"""Checks of the rows in book/_data/errata/11_pytorch.yml, one function per row id."""

from __future__ import annotations

import math

import torch

import attnlib
from attnlib.companions import examples, foils

from ..evidence import Finding
from ._registry import Value, derives


@derives("pytorch-fill-value-fully-masked-row")
def pytorch_fill_value_fully_masked_row() -> Value:
    """Claim: filling masked scores with -1e9 makes softmax turn them to zero."""
    scores = torch.tensor([[0.3, -1.2, 2.0, 0.5]])
    some = foils.masked_fill_softmax(scores, torch.tensor([[True, True, False, False]]))  # keys 3, 4 masked
    none_left = foils.masked_fill_softmax(scores, torch.zeros(1, 4, dtype=torch.bool))  # every key masked
    return Finding(
        holds=bool((some[0, 2:] == 0).all()),
        edge="a fully masked row: every score is -1e9 and softmax gives each masked key 1/n_k",
        shown={
            "weights of masked keys, row with allowed keys": some[0, 2:].tolist(),
            "weights of a fully masked row": none_left[0].tolist(),
            "attnlib, fully masked row (-inf)": attnlib.softmax(torch.full((1, 4), -math.inf))[0].tolist(),
        },
    )


@derives("pytorch-d-model-512-bert-gpt2")
def pytorch_d_model_512_bert_gpt2() -> Value:
    """Claim: d_model = 512 is the standard embedding size used in BERT-base and GPT-2."""
    sizes = {m: examples.PUBLISHED_SIZES[m]["d_model"] for m in ("BERT-base", "GPT-2 small")}
    base = examples.PUBLISHED_SIZES["Transformer base (2017)"]
    return Finding(
        holds=all(v == 512 for v in sizes.values()),
        shown={
            **{f"d_model of {m}": v for m, v in sizes.items()},
            "d_model of Transformer base (2017)": base["d_model"],
            "heads of Transformer base (2017)": base["num_heads"],
        },
    )
