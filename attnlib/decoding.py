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

from ._validate import require_finite, require_key_mask, require_positive_int
from .modules import MultiHeadAttention


class KVCache:
    """Keys and values of the tokens seen so far, ``(batch, heads, length, d_k)`` and ``(..., d_v)``.

    Storage for ``capacity`` positions is allocated up front, so an append writes in place (no copy
    of the cache per token); when it is full it doubles, so the cache grows past its first capacity.
    ``append(k_new, v_new)`` takes ``(batch, heads, t, d)`` tensors of the cache's ``dtype`` (a
    float64 model needs ``dtype=torch.float64``: another dtype is refused, never rounded) and
    returns views of the whole cache so far. Under autograd (new keys that require grad) the cache
    is grown by concatenation instead of in place, so a loss can be backpropagated through it.
    ``heads`` may be fewer than the query heads (grouped-query or multi-query attention; pass
    ``enable_gqa=True`` to the attention). Used in: "Decoding: cross-attention and the KV cache".
    """

    def __init__(self, batch: int, heads: int, d_k: int, d_v: int | None = None, *, capacity: int = 16,
                 dtype: torch.dtype = torch.float32) -> None:
        batch, heads, d_k = (require_positive_int(x, name) for x, name in ((batch, "batch"), (heads, "heads"), (d_k, "d_k")))
        d_v = d_k if d_v is None else require_positive_int(d_v, "d_v")
        capacity = require_positive_int(capacity, "capacity")
        if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
            raise TypeError(f"dtype must be a floating torch.dtype, got {dtype!r}")
        self._k = torch.empty(batch, heads, capacity, d_k, dtype=dtype)  # (batch, heads, capacity, d_k)
        self._v = torch.empty(batch, heads, capacity, d_v, dtype=dtype)  # (batch, heads, capacity, d_v)
        self.length = 0

    @property
    def capacity(self) -> int:
        """Positions the storage holds now (it doubles when an append needs more)."""
        return self._k.shape[2]

    @property
    def dtype(self) -> torch.dtype:
        return self._k.dtype

    def append(self, k_new: torch.Tensor, v_new: torch.Tensor, *,
               checked: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
        """Write ``t`` new positions; return ``(k, v)`` of all ``length`` positions so far (views).
        ``checked=True`` says the caller made ``k_new`` and ``v_new`` from inputs it checked already
        (``MultiHeadAttention.step``), so their shapes are still checked but their numbers not scanned."""
        self._validate_new(k_new, v_new, finite=not checked)
        end = self.length + k_new.shape[2]
        if torch.is_grad_enabled() and (k_new.requires_grad or v_new.requires_grad or self._k.requires_grad):
            self._k = torch.cat((self.keys, k_new), dim=2)  # (batch, heads, end, d_k); no in-place write
            self._v = torch.cat((self.values, v_new), dim=2)  # (batch, heads, end, d_v)
        else:
            if end > self.capacity:
                self._grow(max(end, 2 * self.capacity))
            self._k[:, :, self.length:end] = k_new
            self._v[:, :, self.length:end] = v_new
        self.length = end
        return self.keys, self.values

    def _validate_new(self, k_new: torch.Tensor, v_new: torch.Tensor, *, finite: bool = True) -> None:
        for name, x, store in (("k_new", k_new, self._k), ("v_new", v_new, self._v)):
            if not isinstance(x, torch.Tensor):
                raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
            b, h, _, d = store.shape
            if x.ndim != 4 or (x.shape[0], x.shape[1], x.shape[3]) != (b, h, d) or x.shape[2] == 0:
                raise ValueError(f"{name} must have shape ({b}, {h}, t, {d}) with t > 0, got {tuple(x.shape)}")
            if x.dtype != store.dtype:
                raise TypeError(f"{name} is {x.dtype} but the cache holds {store.dtype}: make the cache with "
                                f"KVCache(..., dtype={x.dtype}) (a cache never rounds what it stores)")
            if finite:
                require_finite(x, name)  # checked once, here: every later step can trust the cache
        if v_new.shape[2] != k_new.shape[2]:
            raise ValueError(f"k_new and v_new must add the same number of positions, got {tuple(k_new.shape)} "
                             f"and {tuple(v_new.shape)}")

    def _grow(self, capacity: int) -> None:
        """Move the cache into storage for ``capacity`` positions (one copy per doubling)."""
        for name in ("_k", "_v"):
            old = getattr(self, name)
            new = old.new_empty(*old.shape[:2], capacity, old.shape[3])  # (batch, heads, capacity, d)
            new[:, :, :self.length] = old[:, :, :self.length]
            setattr(self, name, new)

    @property
    def keys(self) -> torch.Tensor:
        return self._k[:, :, :self.length]  # (batch, heads, length, d_k)

    @property
    def values(self) -> torch.Tensor:
        return self._v[:, :, :self.length]  # (batch, heads, length, d_v)

    @property
    def nbytes(self) -> int:
        """Bytes of the keys and values stored so far (not of the spare capacity)."""
        return (self.keys.numel() + self.values.numel()) * self._k.element_size()


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


def mha_step(mha: MultiHeadAttention, x_new: torch.Tensor, cache: KVCache, *,
             key_mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """``mha.step(x_new, cache, key_mask=key_mask)``: one cached step of ``mha`` (see
    :meth:`attnlib.modules.MultiHeadAttention.step`), the form the generation loops below call."""
    if not isinstance(mha, MultiHeadAttention):
        raise TypeError(f"mha must be an attnlib.MultiHeadAttention, got {type(mha).__name__}")
    if not isinstance(cache, KVCache):
        raise TypeError(f"cache must be an attnlib.decoding.KVCache, got {type(cache).__name__}")
    return mha.step(x_new, cache, key_mask=key_mask)


def generate_cached(mha: MultiHeadAttention, x: torch.Tensor, *, prompt: int = 1,
                    key_mask: torch.Tensor | None = None) -> torch.Tensor:
    """Outputs at every position of ``x`` ``(batch, n, d_in)``: the first ``prompt`` tokens in one
    step (the prefill), then one token per step through a ``KVCache``. Returns ``(batch, n, d_out)``.

    The inputs are given (teacher forcing), so the result can be compared with one causal call on the
    whole sequence. ``key_mask`` ``(batch, n)`` marks real tokens (padding: see ``mha_step``).
    Differentiable: gradients flow through the cache. Used in: "Decoding: cross-attention and the KV cache".
    """
    if not isinstance(x, torch.Tensor) or x.ndim != 3:
        raise ValueError(f"x must have shape (batch, n, d_in), got {getattr(x, 'shape', type(x).__name__)}")
    n, prompt = x.shape[1], require_positive_int(prompt, "prompt")
    if prompt > n:
        raise ValueError(f"prompt must be at most n = {n}, got {prompt}")
    if key_mask is not None:
        require_key_mask(key_mask, x.shape[0], n)
    cache = KVCache(x.shape[0], mha.num_heads, mha.d_k, capacity=n, dtype=mha.W_k.weight.dtype)
    outs = []
    for start, stop in [(0, prompt), *((i, i + 1) for i in range(prompt, n))]:  # the prefill, then a token a step
        keys = None if key_mask is None else key_mask[:, :stop]  # (batch, stop)
        outs.append(mha_step(mha, x[:, start:stop], cache, key_mask=keys)[0])  # (batch, stop - start, d_out)
    return torch.cat(outs, dim=1)  # (batch, n, d_out)


def generate_uncached(mha: MultiHeadAttention, x: torch.Tensor) -> torch.Tensor:
    """The same outputs as ``generate_cached`` without a cache: at each step the whole prefix is
    projected and attended again, and only its last row is kept. Returns ``(batch, n, d_out)``.
    Used in: "Decoding: cross-attention and the KV cache".
    """
    if not isinstance(x, torch.Tensor) or x.ndim != 3:
        raise ValueError(f"x must have shape (batch, n, d_in), got {getattr(x, 'shape', type(x).__name__)}")
    rows = [mha(x[:, :i + 1], is_causal=True, need_weights=False)[0][:, -1:] for i in range(x.shape[1])]
    return torch.cat(rows, dim=1)  # (batch, n, d_out)
