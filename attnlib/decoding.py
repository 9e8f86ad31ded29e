"""Attention while a model generates: cross-attention shapes and the KV cache.

A decoder produces one token at a time. Each new token needs its query against the keys and values of
*every* earlier token. Those keys and values do not change once computed, so a **KV cache** keeps
them: each step projects only the new token, appends its key and value, and attends with one query
row over the cache. The causal rule is then **bottom-right aligned**: the last query is lined up
with the last key (``attnlib.causal_mask(n_q, n_k, alignment="bottom_right")``).

Chapter: "Decoding: cross-attention and the KV cache"; also ``benchmarks/bench_attention.py``.
"""

from __future__ import annotations

import torch

from ._validate import require_positive_int
from .cache import KVCache
from .modules import MultiHeadAttention


def kv_cache_bytes(*, layers: int, kv_heads: int, n: int, d_k: int, batch: int = 1,
                   dtype: torch.dtype = torch.float32) -> int:
    """Bytes of a full KV cache: ``2 · layers · kv_heads · n · d_k`` numbers per sequence (keys and values).

    With multi-head attention ``kv_heads`` is the number of heads; grouped-query attention shares one
    key/value head between several query heads (fewer ``kv_heads``), multi-query attention has one.
    Used in: "Decoding: cross-attention and the KV cache".
    """
    layers, kv_heads, n, d_k, batch = (require_positive_int(x, name) for x, name in (
        (layers, "layers"), (kv_heads, "kv_heads"), (n, "n"), (d_k, "d_k"), (batch, "batch")))
    if not isinstance(dtype, torch.dtype):
        raise TypeError(f"dtype must be a torch.dtype, got {type(dtype).__name__}")
    return 2 * layers * kv_heads * n * d_k * batch * dtype.itemsize


def decode_step_flops(t: int, d_model: int, *, layers: int = 1, cached: bool = True) -> int:
    """FLOPs of one attention layer stack to produce the output at position ``t`` (the ``t``-th token).

    A multiply-add counts as 2. The four ``d_model × d_model`` projections cost ``8·d_model²`` per
    token; attention of ``n_q`` queries over ``t`` keys costs ``4·n_q·t·d_model`` (``q kᵀ`` and
    ``weights v`` over all heads). With the cache only the new token is projected and attends
    (``n_q = 1``): ``8·d² + 4·t·d``. Without it every one of the ``t`` tokens is projected again and
    the whole causal square is recomputed (counted in full, as the kernels do): ``8·t·d² + 4·t²·d``.
    Used in: "Decoding: cross-attention and the KV cache".
    """
    t, d, layers = (require_positive_int(x, name) for x, name in ((t, "t"), (d_model, "d_model"), (layers, "layers")))
    if not isinstance(cached, bool):
        raise TypeError(f"cached must be a bool, got {type(cached).__name__}")
    n_q = 1 if cached else t
    return layers * (8 * n_q * d * d + 4 * n_q * t * d)


def teacher_forced_cached(mha: MultiHeadAttention, x: torch.Tensor, *, prompt: int = 1,
                    key_mask: torch.Tensor | None = None) -> torch.Tensor:
    """Outputs at every position of ``x`` ``(batch, n, d_in)``: the first ``prompt`` tokens in one
    step (the prefill), then one token per step through a ``KVCache``. Returns ``(batch, n, d_out)``.

    The inputs are given (teacher forcing), so the result can be compared with one causal call on the
    whole sequence. ``key_mask`` ``(batch, n)`` marks real tokens (padding: see ``MultiHeadAttention.step``).
    Differentiable: gradients flow through the cache. Used in: "Decoding: cross-attention and the KV cache".
    """
    if not isinstance(x, torch.Tensor) or x.ndim != 3:
        raise ValueError(f"x must have shape (batch, n, d_in), got {getattr(x, 'shape', type(x).__name__)}")
    n, prompt = x.shape[1], require_positive_int(prompt, "prompt")
    if prompt > n:
        raise ValueError(f"prompt must be at most n = {n}, got {prompt}")
    cache = KVCache(x.shape[0], mha.num_heads, mha.d_k, capacity=n, dtype=mha.W_k.weight.dtype)
    mask = mha._check_step(x, cache, key_mask, "x")  # every step's input checked once, here: (batch, 1, 1, n) or None
    outs = []
    for start, stop in [(0, prompt), *((i, i + 1) for i in range(prompt, n))]:  # the prefill, then a token a step
        keys = None if mask is None else mask[..., :stop]  # (batch, 1, 1, stop)
        outs.append(mha.step_unchecked(x[:, start:stop], cache, keys)[0])  # (batch, stop - start, d_out)
    return torch.cat(outs, dim=1)  # (batch, n, d_out)


def teacher_forced_recomputed(mha: MultiHeadAttention, x: torch.Tensor) -> torch.Tensor:
    """The same outputs as ``teacher_forced_cached`` without a cache: at each step the whole prefix is
    projected and attended again, and only its last row is kept. Returns ``(batch, n, d_out)``.
    Used in: "Decoding: cross-attention and the KV cache".
    """
    if not isinstance(x, torch.Tensor) or x.ndim != 3:
        raise ValueError(f"x must have shape (batch, n, d_in), got {getattr(x, 'shape', type(x).__name__)}")
    rows = [mha(x[:, :i + 1], is_causal=True)[0][:, -1:] for i in range(x.shape[1])]
    return torch.cat(rows, dim=1)  # (batch, n, d_out)
