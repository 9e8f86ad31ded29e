"""Exercises of chapter 16, "Decoding: cross-attention and the KV cache"."""

from __future__ import annotations

import numpy as np
import torch

import attnlib
from attnlib import decoding

from ._core import Code, Exercise, FindError, Misconception, Mistake, Numeric, Section
from ._helpers import randn

CH = "16_decoding"
GENERATE = Section(CH, "Generating one token at a time")
ALIGN = Section(CH, "Which keys may a new query see? Top-left and bottom-right")
WORK = Section(CH, "Work per generated token")
MEMORY = Section(CH, "The cache's memory")


def _chunk_mask(n_q: int, n_k: int) -> torch.Tensor:
    return attnlib.causal_mask(n_q, n_k, alignment="bottom_right")  # (n_q, n_k)


def _chunk_mask_top_left(n_q: int, n_k: int) -> torch.Tensor:
    return torch.ones(n_q, n_k, dtype=torch.bool).tril()  # (n_q, n_k): the first query lined up with key 0


def _chunk_mask_no_self(n_q: int, n_k: int) -> torch.Tensor:
    return torch.ones(n_q, n_k, dtype=torch.bool).tril(n_k - n_q - 1)  # (n_q, n_k): each query misses itself


def _chunk_cases(rng: np.random.Generator) -> list[tuple]:
    return [(1, 4), (3, 7), (2, 2), (int(rng.integers(2, 5)), int(rng.integers(6, 10)))]


E16_1 = Exercise(
    id="16.1", kind="code", skill="the bottom-right causal mask",
    prompt=("Write chunk_mask(n_q, n_k): the cache holds n_k − n_q earlier tokens, then n_q new tokens arrive at "
            "once, so the queries are the last n_q of the n_k positions. Return an (n_q, n_k) boolean tensor, True "
            "where new token i may attend to key j (every earlier token, the new tokens before it, and itself)."),
    answer=Code("def chunk_mask(n_q, n_k):", "an (n_q, n_k) boolean tensor", _chunk_mask, _chunk_cases),
    mistakes=[
        Mistake(Misconception("top-left-alignment", "the top-left alignment (PyTorch's is_causal)",
                              "Line the last query up with the last key: query i sees keys 0..i + n_k − n_q.",
                              ALIGN), impl=_chunk_mask_top_left),
        Mistake(Misconception("diagonal-excluded", "each new token kept from seeing itself",
                              "A token's own key is in the cache when it attends: keep it (offset n_k − n_q, "
                              "not one less).", ALIGN), impl=_chunk_mask_no_self),
        Mistake(Misconception("mask-sign", "the mask's sign inverted (True = masked)",
                              "In attnlib True means “may attend”.", ALIGN),
                impl=lambda n_q, n_k: ~_chunk_mask(n_q, n_k)),
    ],
    hint="torch.ones(n_q, n_k, dtype=torch.bool).tril(diagonal=n_k - n_q).",
    section=ALIGN, why="With n_q = 1 the one new token sees the whole cache; with n_q = n_k it is the usual mask.",
)


def _append(cache_k: torch.Tensor, cache_v: torch.Tensor, k_new: torch.Tensor,
            v_new: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    b, h, t, d_k = cache_k.shape
    cache = decoding.KVCache(b, h, d_k, v_new.shape[-1], capacity=t + k_new.shape[2], dtype=cache_k.dtype)
    cache.append(cache_k, cache_v)
    return cache.append(k_new, v_new)  # (B, H, t + m, d_k), (B, H, t + m, d_v)


def _append_prepended(cache_k, cache_v, k_new, v_new):  # noqa: ANN001, ANN202
    return _append(k_new, v_new, cache_k, cache_v)  # the new tokens first: positions out of order


def _append_replaced(cache_k, cache_v, k_new, v_new):  # noqa: ANN001, ANN202
    return k_new.clone(), v_new.clone()  # no cache at all: the earlier tokens are forgotten


def _append_swapped(cache_k, cache_v, k_new, v_new):  # noqa: ANN001, ANN202
    return _append(cache_v, cache_k, v_new, k_new)  # keys and values exchanged


def _append_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    for b, h, t, m, d in ((1, 1, 3, 1, 2), (2, 3, 4, 1, 4), (1, 2, 5, 3, 3)):
        cases.append((randn(rng, b, h, t, d), randn(rng, b, h, t, d), randn(rng, b, h, m, d), randn(rng, b, h, m, d)))
    return cases


E16_2 = Exercise(
    id="16.2", kind="code", skill="one KV-cache append",
    prompt=("Write cache_append(cache_k, cache_v, k_new, v_new): the cache holds (B, H, t, d) keys and values of "
            "the t tokens so far; k_new and v_new are (B, H, m, d) for m new tokens. Return the grown cache "
            "(keys, values), each (B, H, t + m, d), the new positions after the old ones."),
    answer=Code("def cache_append(cache_k, cache_v, k_new, v_new):", "a tuple of two (B, H, t + m, d) tensors",
                _append, _append_cases),
    mistakes=[
        Mistake(Misconception("prepended", "the new tokens put before the cached ones",
                              "Position order matters: the newest token goes last (torch.cat([cache, new], dim=2)).",
                              GENERATE), impl=_append_prepended),
        Mistake(Misconception("cache-replaced", "the cache replaced by the new tokens",
                              "The point of the cache is to keep every earlier key and value: append, do not "
                              "overwrite.", GENERATE), impl=_append_replaced),
        Mistake(Misconception("k-v-swapped", "keys and values exchanged",
                              "Return (keys, values) in that order: keys from cache_k and k_new.", GENERATE),
                impl=_append_swapped),
    ],
    hint="Concatenate on the sequence axis, dim 2 of (B, H, t, d): torch.cat([cache_k, k_new], dim=2), same for v.",
    section=GENERATE,
)

CACHED, NEW = 5, 2  # tokens already in the cache, and new tokens arriving together
SEEN = attnlib.causal_mask(NEW, CACHED + NEW, alignment="bottom_right")  # (NEW, CACHED + NEW)

E16_3 = Exercise(
    id="16.3", kind="predict", skill="which keys a new token sees",
    prompt=(f"Predict, then run: the cache holds {CACHED} tokens and a chunk of {NEW} new tokens is processed at "
            f"once (n_q = {NEW}, n_k = {CACHED + NEW}). How many keys may the first new token attend to? Then run "
            f"attnlib.causal_mask({NEW}, {CACHED + NEW}, alignment=\"bottom_right\")[0].sum()."),
    answer=Numeric(lambda: SEEN[0].sum(), tol=0, expect="one whole number"),
    mistakes=[
        Mistake(Misconception("top-left-alignment", "the top-left alignment (PyTorch's is_causal)",
                              "Top-left lines the first new query up with the first cached key; with a cache the "
                              "last query must line up with the last key.", ALIGN),
                value=lambda: attnlib.causal_mask(NEW, CACHED + NEW)[0].sum()),
        Mistake(Misconception("no-mask-in-chunk", "every key of the chunk allowed",
                              "The second new token is in the first one's future: it stays masked.", ALIGN),
                value=lambda: CACHED + NEW),
        Mistake(Misconception("cache-only", "the cached tokens only, not itself",
                              "A new token's own key is appended before it attends: it sees itself too.", ALIGN),
                value=lambda: CACHED),
    ],
    hint="The first new token stands at position n_k − n_q; it sees every key up to and including its own.",
    section=ALIGN, why="Bottom-right: the first new token sees the cache and itself, the second one key more.",
)

LAYERS, Q_HEADS, D_K, N = 24, 16, 64, 2048
MIB = 2**20


def _mqa_mib(*, kv_heads: int = 1, dtype: torch.dtype = torch.float16) -> float:
    return decoding.kv_cache_bytes(layers=LAYERS, kv_heads=kv_heads, n=N, d_k=D_K, dtype=dtype) / MIB


E16_4 = Exercise(
    id="16.4", kind="compute", skill="the memory of a KV cache",
    prompt=(f"A decoder has {LAYERS} layers, each with {Q_HEADS} query heads of d_k = {D_K} and multi-query "
            f"attention (one key/value head per layer). It caches n = {N} tokens of one sequence in float16 (2 bytes "
            "a number). How many MiB (2²⁰ bytes) does the KV cache take?"),
    answer=Numeric(_mqa_mib, tol=0.05, expect="one number"),
    mistakes=[
        Mistake(Misconception("no-factor-2", "the keys counted, the values forgotten",
                              "The cache holds a key and a value per token and head: the factor 2.", MEMORY),
                value=lambda: _mqa_mib() / 2),
        Mistake(Misconception("mqa-not-shared", "one key/value head per query head",
                              "Multi-query attention shares one key/value head between all query heads: count 1, "
                              "not the query heads.", MEMORY), value=lambda: _mqa_mib(kv_heads=Q_HEADS)),
        Mistake(Misconception("float32-bytes", "4 bytes a number",
                              "float16 takes 2 bytes a number; float32 would take 4.", MEMORY),
                value=lambda: _mqa_mib(dtype=torch.float32)),
    ],
    hint="2 · layers · kv_heads · n · d_k numbers, 2 bytes each, divided by 2²⁰.",
    section=MEMORY, why="With 16 key/value heads it would be 16 times this: the saving of multi-query attention.",
)

T, D = 1536, 512
ATTENTION = decoding.decode_step_flops(2 * T, D) - decoding.decode_step_flops(T, D)  # 4·t·d: doubles with t
PROJECTIONS = decoding.decode_step_flops(T, D) - ATTENTION  # 8·d², the same for every t
ATTENTION_SLIP = T * ATTENTION  # the slip: all t queries again, the t × t square
MFLOP = 1e6

E16_5 = Exercise(
    id="16.5", kind="find-error", skill="the work of one cached step",
    prompt=(f"With a KV cache, a reader counts the FLOPs of one attention layer (d_model = {D}) to produce token "
            f"t = {T} (a multiply-add is 2 FLOPs). One step has a slip: which one, and what is its right value in "
            "MFLOP (10⁶ FLOPs, 3 decimals)?"),
    answer=FindError(
        steps=[("a", f"project the new token with the four d × d matrices: 8·d² = {PROJECTIONS / MFLOP:.3f} MFLOP"),
               ("b", f"attention over the cache, q kᵀ and then weights v: 4·t²·d = {ATTENTION_SLIP / MFLOP:.3f} MFLOP"),
               ("c", f"the step in all: {(PROJECTIONS + ATTENTION_SLIP) / MFLOP:.3f} MFLOP")],
        wrong_step="b", value=Numeric(lambda: ATTENTION / MFLOP, tol=5e-4, expect="one number"),
        value_hint="Step b is the one: with the cache there is one query row, not t."),
    mistakes=[
        Mistake(Misconception("blamed-the-result", "the step that shows the slip, not the one that made it",
                              "Step c adds correctly what steps a and b gave it.", WORK), option="c"),
        Mistake(Misconception("projections-doubted", "the projections counted for every token",
                              "Step a is right: with the cache only the new token is projected.", WORK), option="a"),
        Mistake(Misconception("step-total", "the whole step given for step b",
                              "Give the attention part alone, the number step b got wrong.", WORK),
                value=lambda: (PROJECTIONS + ATTENTION) / MFLOP),
        Mistake(Misconception("one-product", "one of the two matrix products only",
                              "Both q kᵀ and weights · v cost 2·t·d each: 4·t·d together.", WORK),
                value=lambda: ATTENTION / 2 / MFLOP),
    ],
    hint="Check each step: with the cache, one new token is projected and one query attends over t keys.",
    section=WORK, why="One query over t keys: the work grows linearly with t, not with t².",
)

EXERCISES = [E16_1, E16_2, E16_3, E16_4, E16_5]
