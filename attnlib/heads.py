"""Seeded, untrained multi-head attention maps for a sentence.

Chapter: "Multi-head attention and the causal mask" (and the errata rows for document 002's
illustrative head weights).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from ._checks import check_positive_int
from .modules import MultiHeadAttention


def untrained_head_weights(
    tokens: Sequence[str], *, d_model: int = 32, num_heads: int = 8, seed: int = 0
) -> torch.Tensor:
    """Attention weights ``(num_heads, n, n)`` of a freshly initialised ``MultiHeadAttention``.

    The token embeddings are seeded random vectors (one per position, ``N(0, 1)``), and the
    module's projections are PyTorch's default initialisation under ``torch.manual_seed(seed)``.
    Nothing is trained, so the maps show what heads look like *before* learning: different from
    each other only by chance. The global RNG state is restored afterwards.

    Used in: "Multi-head attention and the causal mask".
    """
    if isinstance(tokens, (str, bytes)) or not isinstance(tokens, Sequence) or len(tokens) == 0:
        raise ValueError(f"tokens must be a non-empty sequence of strings, got {tokens!r}")
    d_model = check_positive_int(d_model, "d_model")
    num_heads = check_positive_int(num_heads, "num_heads")
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        mha = MultiHeadAttention(d_model, num_heads)
        x = torch.randn(1, len(tokens), d_model)  # (1, n, d_model)
        with torch.no_grad():
            _, weights = mha(x)  # (1, h, n, n)
    return weights[0]  # (h, n, n)
