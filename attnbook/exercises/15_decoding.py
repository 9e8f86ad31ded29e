"""Exercises of chapter 15, "Decoding: cross-attention and the KV cache": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/15_decoding.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import numpy as np
import torch

import attnlib
from attnlib import decoding

from ._helpers import randn
from ._registry import ChapterCode

code = ChapterCode(__name__)


@code.function
def chunk_mask(n_q: int, n_k: int) -> torch.Tensor:
    return attnlib.causal_mask(n_q, n_k, alignment="bottom_right")  # (n_q, n_k)


@code.function
def chunk_mask_top_left(n_q: int, n_k: int) -> torch.Tensor:
    return torch.ones(n_q, n_k, dtype=torch.bool).tril()  # (n_q, n_k): the first query lined up with key 0


@code.function
def chunk_mask_no_self(n_q: int, n_k: int) -> torch.Tensor:
    return torch.ones(n_q, n_k, dtype=torch.bool).tril(n_k - n_q - 1)  # (n_q, n_k): each query misses itself


@code.function
def chunk_mask_inverted(n_q: int, n_k: int) -> torch.Tensor:
    return ~chunk_mask(n_q, n_k)  # (n_q, n_k): True where masked


@code.function
def chunk_cases(rng: np.random.Generator) -> list[tuple]:
    return [(1, 4), (3, 7), (2, 2), (int(rng.integers(2, 5)), int(rng.integers(6, 10)))]


@code.function
def append(cache_k: torch.Tensor, cache_v: torch.Tensor, k_new: torch.Tensor,
           v_new: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    b, h, t, d_k = cache_k.shape
    cache = attnlib.KVCache(b, h, d_k, v_new.shape[-1], capacity=t + k_new.shape[2], dtype=cache_k.dtype)
    cache.append(cache_k, cache_v)
    return cache.append(k_new, v_new)  # (B, H, t + m, d_k), (B, H, t + m, d_v)


@code.function
def append_prepended(cache_k, cache_v, k_new, v_new):  # noqa: ANN001, ANN201
    return append(k_new, v_new, cache_k, cache_v)  # the new tokens first: positions out of order


@code.function
def append_replaced(cache_k, cache_v, k_new, v_new):  # noqa: ANN001, ANN201
    return k_new.clone(), v_new.clone()  # no cache at all: the earlier tokens are forgotten


@code.function
def append_swapped(cache_k, cache_v, k_new, v_new):  # noqa: ANN001, ANN201
    return append(cache_v, cache_k, v_new, k_new)  # keys and values exchanged


@code.function
def append_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    for b, h, t, m, d in ((1, 1, 3, 1, 2), (2, 3, 4, 1, 4), (1, 2, 5, 3, 3)):
        cases.append((randn(rng, b, h, t, d), randn(rng, b, h, t, d), randn(rng, b, h, m, d), randn(rng, b, h, m, d)))
    return cases


CACHED, NEW = 5, 2  # tokens already in the cache, and new tokens arriving together
SEEN = attnlib.causal_mask(NEW, CACHED + NEW, alignment="bottom_right")  # (NEW, CACHED + NEW)

code.add(  # 15.3
    ex3_answer=lambda: SEEN[0].sum(),
    ex3_top_left=lambda: attnlib.causal_mask(NEW, CACHED + NEW)[0].sum(),
    ex3_no_mask_in_chunk=lambda: CACHED + NEW,
    ex3_cache_only=lambda: CACHED,
)

LAYERS, Q_HEADS, D_K, N = 24, 12, 64, 2048  # 12 query heads: no two slips multiply to another (16 made 1/2 × 16 = 8, "bits")
MIB = 2**20


def _mqa_mib(*, kv_heads: int = 1, dtype: torch.dtype = torch.float32) -> float:
    return decoding.kv_cache_bytes(layers=LAYERS, kv_heads=kv_heads, n=N, d_k=D_K, dtype=dtype) / MIB


code.add(  # 15.4
    ex4_answer=_mqa_mib,
    ex4_no_factor_2=lambda: _mqa_mib() / 2,
    ex4_mqa_not_shared=lambda: _mqa_mib(kv_heads=Q_HEADS),
    ex4_bits_not_bytes=lambda: 8 * _mqa_mib(),
    ex4_mb_not_mib=lambda: _mqa_mib() * MIB / 1e6,
)

T, D = 1536, 512
ATTENTION = decoding.decode_step_flops(2 * T, D) - decoding.decode_step_flops(T, D)  # 4·t·d: doubles with t
PROJECTIONS = decoding.decode_step_flops(T, D) - ATTENTION  # 8·d², the same for every t
ATTENTION_SLIP = T * ATTENTION  # the slip: all t queries again, the t × t square
MFLOP = 1e6

code.add(  # 15.5
    ex5_answer=lambda: ATTENTION / MFLOP,
    ex5_step_total=lambda: (PROJECTIONS + ATTENTION) / MFLOP,
    # one of the two products, or both at 1 FLOP a multiply-add: the same number, so one misconception names both
    ex5_half_the_flops=lambda: ATTENTION / 2 / MFLOP,
)

code.values(
    cached=CACHED,
    new=NEW,
    n_k=CACHED + NEW,
    layers=LAYERS,
    q_heads=Q_HEADS,
    d_k=D_K,
    n=N,
    t=T,
    d=D,
    projections=PROJECTIONS / MFLOP,
    attention_slip=ATTENTION_SLIP / MFLOP,
    total_slip=(PROJECTIONS + ATTENTION_SLIP) / MFLOP,
)
