"""``nn.Module`` versions of attention.

Chapters: "Queries, keys and values" (SelfAttentionV2; its first version ``SelfAttentionV1`` is a
teaching foil, in ``attnlib.companions.foils``), "Attention in PyTorch" (ScaledDotProductAttention),
"Multi-head attention and the causal mask" (MultiHeadAttention and, around it, torch's options in
TorchCompatMultiHeadAttention), "Where words are: positions" (``MultiHeadAttention(rope=True)``),
"Decoding" (``MultiHeadAttention.step`` with an ``attnlib.KVCache``).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import torch
from torch import nn

from ._validate import (
    Alignment,
    as_attention_mask,
    require_bool,
    require_dropout,
    require_finite,
    require_positive_int,
    require_probability,
)
from .attention import attention_torch, scaled_dot_product_attention
from .cache import KVCache
from .positions import BASE, as_positions, rope_unchecked


def _validate_input(x: Any, d_in: int, name: str = "x") -> None:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
    if x.ndim < 2 or x.shape[-1] != d_in:
        raise ValueError(f"{name} must have shape (..., n, {d_in}), got {tuple(x.shape)}")


class SelfAttentionV2(nn.Module):
    """Self-attention whose projections are ``nn.Linear(d_in, d_out, bias=bias)`` (bias off by default).

    Same forward contract as ``SelfAttentionV1``. Used in: "Queries, keys and values",
    "Attention in PyTorch".
    """

    def __init__(self, d_in: int, d_out: int, bias: bool = False) -> None:
        super().__init__()
        self.d_in = require_positive_int(d_in, "d_in")
        self.d_out = require_positive_int(d_out, "d_out")
        self.W_query = nn.Linear(d_in, d_out, bias=bias)
        self.W_key = nn.Linear(d_in, d_out, bias=bias)
        self.W_value = nn.Linear(d_in, d_out, bias=bias)

    def forward(self, x: torch.Tensor, *, mask: Any = None, return_weights: bool = False) -> Any:
        _validate_input(x, self.d_in)
        q = self.W_query(x)  # (..., n, d_out)
        k = self.W_key(x)  # (..., n, d_out)
        v = self.W_value(x)  # (..., n, d_out)
        out, w = scaled_dot_product_attention(q, k, v, mask=mask)
        return (out, w) if return_weights else out


class ScaledDotProductAttention(nn.Module):
    """Module wrapper of ``attnlib.scaled_dot_product_attention``: ``forward(q, k, v, *, mask=None, ...)``
    returns ``(output, weights)``; every argument after ``v`` is keyword-only, as in the function.
    ``mask`` is boolean (True = may attend) or floating (added to the scores); fully masked rows give
    zero weights and zero output. Used in: "Attention in PyTorch".
    """

    def __init__(self, scale: float | None = None) -> None:
        super().__init__()
        self.scale = scale

    def forward(
        self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, mask: torch.Tensor | np.ndarray | None = None,
        is_causal: bool = False, causal_alignment: Literal["top_left", "bottom_right"] = "top_left", dropout_p: float = 0.0,
        generator: torch.Generator | None = None, enable_gqa: bool = False,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        return scaled_dot_product_attention(
            q, k, v, mask=mask, is_causal=is_causal, causal_alignment=causal_alignment, scale=self.scale,
            dropout_p=dropout_p, generator=generator, enable_gqa=enable_gqa,
        )


class MultiHeadAttention(nn.Module):
    """Multi-head attention: ``h`` heads of size ``d_k = d_out / h``, concatenated, then ``W_o``.

    ``MultiHeadAttention(d_in, num_heads, bias=True, *, d_out=None, kdim=None, vdim=None, rope=False)``:
    queries are ``d_in`` wide, keys ``kdim`` and values ``vdim`` wide (both default to ``d_in``); every
    head works in ``d_k = d_out / h`` and the output is ``d_out`` wide (default ``d_in``).

    ``forward(query, key=None, value=None, *, mask=None, key_mask=None, is_causal=False, positions=None)`` takes
    batch-first ``(batch, n, width)`` tensors (``key`` and ``value`` default to ``query``:
    self-attention) and returns ``(output (batch, n_q, d_out), weights (batch, h, n_q, n_k))``.

    * ``mask`` is ``(n_q, n_k)`` (shared by every sequence and head) or ``(batch, heads, n_q, n_k)``,
      where the batch, heads and n_q axes may be 1 to broadcast. A 3-d mask is refused:
      ``(batch, n_q, n_k)`` and torch's ``(batch·heads, n_q, n_k)`` cannot be told apart when
      batch == heads. Boolean = True may attend (torch's ``nn.MultiheadAttention`` uses True =
      *masked*: pass ``~its_mask``); floating = added to the scores.
    * ``key_mask``: ``(batch, n_k)`` (or ``(batch, 1, n_k)``, what ``attnlib.padding_mask`` returns).
      Boolean: True = a real key, torch's ``key_padding_mask`` **inverted**. Floating: added to every
      query's scores, as torch's floating ``key_padding_mask``.
    * ``is_causal=True``: query ``i`` sees keys ``0 .. i`` (torch's rule).
    * ``rope=True``: rotary positions (``attnlib.positions.apply_rope``, interleaved pairs) turn every
      head's queries and keys before the scores, so a score depends on the two positions only through
      their difference; ``d_k`` must be even. The tokens sit at ``positions`` (``(n,)`` or
      ``(batch, n)``, whole numbers >= 0; default ``0 .. n-1``; self-attention only).

    ``step(x_new, cache)`` is the same self-attention for new tokens only, over a ``KVCache``.
    ``forward`` and ``step`` are doors: they check their inputs once and hand them to the work,
    ``forward_unchecked`` and ``step_unchecked``, which trusts them (a model's blocks call it directly,
    behind the model's own door).
    torch's options (sequence-first and unbatched inputs, ``need_weights``, ``average_attn_weights``,
    dropout, ``load_from_torch``) are in :class:`TorchCompatMultiHeadAttention`, a thin layer around
    this class. Used in: "Multi-head attention and the causal mask", "Where words are: positions",
    "Decoding: cross-attention and the KV cache", "A model that writes".
    """

    def __init__(self, d_in: int, num_heads: int, bias: bool = True, *, d_out: int | None = None,
                 kdim: int | None = None, vdim: int | None = None, rope: bool = False) -> None:
        super().__init__()
        d_in = require_positive_int(d_in, "d_in")
        num_heads = require_positive_int(num_heads, "num_heads")
        d_out = d_in if d_out is None else require_positive_int(d_out, "d_out")
        kdim = d_in if kdim is None else require_positive_int(kdim, "kdim")
        vdim = d_in if vdim is None else require_positive_int(vdim, "vdim")
        if d_out % num_heads != 0:
            raise ValueError(f"d_out must be divisible by num_heads, got d_out={d_out}, num_heads={num_heads}")
        self.d_in, self.d_out, self.kdim, self.vdim = d_in, d_out, kdim, vdim
        self.num_heads, self.d_k = num_heads, d_out // num_heads
        self.rope = require_bool(rope, "rope")
        if self.rope and self.d_k % 2:
            raise ValueError(f"rope=True turns pairs of features: the head width must be even, got d_k={self.d_k} "
                             f"(d_out={d_out}, num_heads={num_heads})")
        self.W_q = nn.Linear(d_in, d_out, bias=bias)
        self.W_k = nn.Linear(kdim, d_out, bias=bias)
        self.W_v = nn.Linear(vdim, d_out, bias=bias)
        self.W_o = nn.Linear(d_out, d_out, bias=bias)

    def forward(self, query: torch.Tensor, key: torch.Tensor | None = None, value: torch.Tensor | None = None, *,
                mask: torch.Tensor | None = None, key_mask: torch.Tensor | None = None, is_causal: bool = False,
                positions: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        mask, positions = self._check(query, key, value, mask, key_mask, is_causal, positions)  # checked once, here
        return self.forward_unchecked(query, key, value, mask, is_causal, positions)  # the work trusts the door

    def forward_unchecked(self, query: torch.Tensor, key: torch.Tensor | None = None, value: torch.Tensor | None = None,
                          mask: torch.Tensor | None = None, is_causal: bool = False,
                          positions: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``forward``'s work, on inputs that passed a door: ``forward``'s own, or a model's
        (``TransformerBlock``, ``TinyLM``) that checked them once for every block. ``mask`` is the one
        ``(batch|1, heads|1, n_q|1, n_k)`` mask ``_check`` returns (or ``None``); nothing is checked here."""
        key = query if key is None else key  # self-attention: the keys and values come from the queries' tokens
        value = key if value is None else value
        b, n_q, n_k, h, d_k = query.shape[0], query.shape[1], key.shape[1], self.num_heads, self.d_k
        q = self.W_q(query).reshape(b, n_q, h, d_k).transpose(1, 2)  # (b, n_q, d_out) -> (b, h, n_q, d_k)
        k = self.W_k(key).reshape(b, n_k, h, d_k).transpose(1, 2)  # (b, n_k, d_out) -> (b, h, n_k, d_k)
        v = self.W_v(value).reshape(b, n_k, h, d_k).transpose(1, 2)  # (b, n_k, d_out) -> (b, h, n_k, d_k)
        if self.rope:  # turn every head's queries and keys by the angles of their positions
            q, k = self._rotate(q, positions), self._rotate(k, positions)  # shapes unchanged
        heads, weights = self._attend(q, k, v, mask, "top_left" if is_causal else None)  # (b, h, n_q, d_k)
        out = heads.transpose(1, 2).reshape(b, n_q, h * d_k)  # (b, h, n_q, d_k) -> (b, n_q, d_out): Concat
        return self.W_o(out), weights  # (b, n_q, d_out), (b, h, n_q, n_k)

    def step(self, x_new: torch.Tensor, cache: KVCache, *,
             key_mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Causal self-attention for the new tokens ``x_new`` ``(batch, t, d_in)`` only, the keys and
        values of the earlier ones in ``cache``: project the new tokens, append their keys and values to
        the cache, attend with the new queries over the whole cache, bottom-right aligned (the last
        query sees every key). ``key_mask`` ``(batch, length)`` covers every position so far, the new
        ones included (padding of batched prompts). Returns ``(out (batch, t, d_out), weights (batch,
        h, t, length))``. Used in: "Decoding: cross-attention and the KV cache".
        """
        mask = self._check_step(x_new, cache, key_mask)  # checked once, here
        return self.step_unchecked(x_new, cache, mask)  # the work trusts the door

    def step_unchecked(self, x_new: torch.Tensor, cache: KVCache,
                       mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``step``'s work, on inputs that passed a door (``step``'s own, or a model's); ``mask`` is the
        ``(batch, 1, 1, length)`` key mask ``_check_step`` returns (or ``None``)."""
        b, t, h, d_k = x_new.shape[0], x_new.shape[1], self.num_heads, self.d_k
        q, k, v = (lin(x_new).reshape(b, t, h, d_k).transpose(1, 2)  # (b, t, d_out) -> (b, h, t, d_k)
                   for lin in (self.W_q, self.W_k, self.W_v))
        if self.rope:  # the new tokens sit at positions length .. length + t - 1
            at = torch.arange(cache.length, cache.length + t, device=x_new.device)  # (t,)
            q, k = self._rotate(q, at), self._rotate(k, at)  # (b, h, t, d_k)
        k, v = cache.write(k, v)  # (b, h, length, d_k): every key and value so far
        heads, weights = self._attend(q, k, v, mask, "bottom_right")  # (b, h, t, d_k), (b, h, t, length)
        return self.W_o(heads.transpose(1, 2).reshape(b, t, h * d_k)), weights  # (b, h, t, d_k) -> (b, t, d_out)

    def _attend(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None,
                causal: Alignment | None) -> tuple[torch.Tensor, torch.Tensor]:
        """Scaled dot-product attention of every head at once (the heads are a batch axis)."""
        return attention_torch(q, k, v, mask=mask, causal=causal, scale=self.d_k ** -0.5)

    def _rotate(self, x: torch.Tensor, positions: torch.Tensor | None) -> torch.Tensor:
        """``x`` ``(batch, h, n, d_k)`` turned at ``positions`` ``(n,)`` or ``(batch, n)`` (default ``0 .. n-1``)."""
        at = torch.arange(x.shape[-2], device=x.device) if positions is None else positions.to(x.device)
        return rope_unchecked(x, at[:, None, :] if at.ndim == 2 else at, "interleaved", BASE)

    def _check(self, query: Any, key: Any = None, value: Any = None, mask: Any = None, key_mask: Any = None,
               is_causal: Any = False, positions: Any = None) -> tuple[torch.Tensor | None, torch.Tensor | None]:
        """The door of ``forward`` (and of ``TransformerBlock.forward``): every input checked, each
        tensor scanned for NaN once (self-attention's one tensor once, not three times). Returns
        ``mask`` and ``key_mask`` as one mask ``(batch|1, heads|1, n_q|1, n_k)`` (or ``None``), boolean
        (True = may attend) when both are, additive otherwise, and the positions as int64 ``(n,)`` or
        ``(batch, n)`` (or ``None``)."""
        require_bool(is_causal, "is_causal")
        key = query if key is None else key
        value = key if value is None else value
        dtype, scanned = self.W_q.weight.dtype, []
        for name, x, width in (("query", query, self.d_in), ("key", key, self.kdim), ("value", value, self.vdim)):
            if not isinstance(x, torch.Tensor):
                raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
            if x.ndim != 3 or x.shape[-1] != width:
                raise ValueError(f"{name} must have shape (batch, n, {width}), got {tuple(x.shape)}")
            if x.dtype != dtype:
                raise TypeError(f"{name} is {x.dtype} but the module's weights are {dtype}: convert with .to({dtype})")
            if not any(x is seen for seen in scanned):
                require_finite(x, name)
                scanned.append(x)
        if key.shape[:2] != value.shape[:2] or key.shape[0] != query.shape[0]:
            raise ValueError(f"query, key and value must share the batch size and key/value their length: "
                             f"got query {tuple(query.shape)}, key {tuple(key.shape)}, value {tuple(value.shape)}")
        b, n_q, n_k = query.shape[0], query.shape[1], key.shape[1]
        if positions is not None:
            if not self.rope or n_q != n_k:
                raise ValueError("positions turn the queries and keys of rope=True self-attention (n_q == n_k) only")
            positions = as_positions(positions, n_q, lead=(b,))
        mask = None if mask is None else _head_mask(mask, b, self.num_heads, n_q, n_k)
        if key_mask is None:
            return mask, positions
        keys = _require_key_mask(key_mask, b, n_k)[:, None, None, :]  # (batch, 1, 1, n_k)
        if mask is None:
            return keys, positions
        if keys.dtype == torch.bool:
            return (mask & keys if mask.dtype == torch.bool else mask.masked_fill(~keys, float("-inf"))), positions
        bias = mask.to(keys.dtype).masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else mask
        return bias + keys, positions  # (batch, heads|1, n_q|1, n_k), additive

    def _check_step(self, x_new: Any, cache: Any, key_mask: Any, name: str = "x_new") -> torch.Tensor | None:
        """The door of ``step``: self-attention (``kdim == vdim == d_in``), ``x_new`` ``(batch, t, d_in)``
        finite and of the weights' dtype, a ``KVCache`` of that dtype, ``key_mask`` ``(batch, length)``.
        Returns the key mask as ``(batch, 1, 1, length)`` (or ``None``), the layout ``step_unchecked`` takes."""
        if self.kdim != self.d_in or self.vdim != self.d_in:
            raise ValueError(f"a cached step is self-attention (keys and values come from the new tokens): it needs "
                             f"kdim == vdim == d_in, got d_in={self.d_in}, kdim={self.kdim}, vdim={self.vdim}")
        if not isinstance(cache, KVCache):
            raise TypeError(f"cache must be an attnlib.KVCache, got {type(cache).__name__}")
        if not isinstance(x_new, torch.Tensor) or x_new.ndim != 3 or x_new.shape[-1] != self.d_in:
            got = tuple(x_new.shape) if isinstance(x_new, torch.Tensor) else type(x_new).__name__
            raise ValueError(f"{name} must have shape (batch, t, {self.d_in}), got {got}")
        if x_new.dtype != self.W_q.weight.dtype or cache.dtype != x_new.dtype:
            raise TypeError(f"{name} is {x_new.dtype}, the module's weights {self.W_q.weight.dtype} and the cache holds "
                            f"{cache.dtype}: make them one dtype (KVCache(..., dtype=...))")
        cache.check_fits(x_new.shape[0], self.num_heads, self.d_k)
        require_finite(x_new, name)
        return key_mask_4d(key_mask, x_new.shape[0], cache.length + x_new.shape[1])


def _head_mask(mask: Any, batch: int, heads: int, n_q: int, n_k: int) -> torch.Tensor:
    """``MultiHeadAttention``'s ``mask`` checked and put in its one layout ``(batch|1, heads|1, n_q|1, n_k)``."""
    if not isinstance(mask, torch.Tensor):
        raise TypeError(f"mask must be a torch.Tensor, got {type(mask).__name__}")
    mask = as_attention_mask(mask, "torch", mask.device)
    if mask.ndim == 2:
        mask = mask[None, None]  # (1, 1, n_q, n_k)
    elif mask.ndim != 4:
        raise ValueError(
            f"mask of MultiHeadAttention must be (n_q, n_k) or (batch, heads, n_q, n_k) with size-1 axes to "
            f"broadcast, got shape {tuple(mask.shape)}; a {mask.ndim}-d mask is ambiguous. For padding pass "
            f"key_mask=(batch, n_k); for one mask per sequence use mask[:, None]")
    if mask.shape[0] not in (1, batch) or mask.shape[1] not in (1, heads) or mask.shape[2] not in (1, n_q) \
            or mask.shape[3] != n_k:
        raise ValueError(f"mask of shape {tuple(mask.shape)} does not fit (batch|1, heads|1, n_q|1, n_k) = "
                         f"({batch}|1, {heads}|1, {n_q}|1, {n_k})")
    return mask


def _require_key_mask(key_mask: Any, batch: int, length: int) -> torch.Tensor:
    """A ``key_mask`` ``(batch, length)`` (or ``padding_mask``'s ``(batch, 1, length)``), boolean (True =
    a real key) or floating (added to the scores); returned as ``(batch, length)``."""
    if not isinstance(key_mask, torch.Tensor) or not (key_mask.dtype == torch.bool or key_mask.is_floating_point()):
        got = key_mask.dtype if isinstance(key_mask, torch.Tensor) else type(key_mask).__name__
        raise TypeError(f"key_mask must be a boolean (True = real key) or floating (additive) torch.Tensor, got {got}")
    key_mask = as_attention_mask(key_mask, "torch", key_mask.device)
    if key_mask.ndim == 3 and key_mask.shape[1] == 1:
        key_mask = key_mask[:, 0]  # padding_mask's (batch, 1, length)
    if tuple(key_mask.shape) != (batch, length):
        raise ValueError(f"key_mask must cover every key, (batch, n_k) = ({batch}, {length}), got {tuple(key_mask.shape)}")
    return key_mask


def key_mask_4d(key_mask: Any, batch: int, length: int) -> torch.Tensor | None:
    """A model's ``key_mask`` ``(batch, length)`` checked once, at its door, in the layout every
    block's attention takes: ``(batch, 1, 1, length)`` (or ``None`` for none)."""
    return None if key_mask is None else _require_key_mask(key_mask, batch, length)[:, None, None, :]


class TorchCompatMultiHeadAttention(MultiHeadAttention):
    """:class:`MultiHeadAttention` with the options of ``torch.nn.MultiheadAttention`` around it.

    ``TorchCompatMultiHeadAttention(d_in, num_heads, bias=True, *, d_out=None, kdim=None, vdim=None,
    dropout=0.0, batch_first=True, rope=False)`` and ``forward(query, key=None, value=None, *,
    mask=None, key_mask=None, is_causal=False, need_weights=True, average_attn_weights=False,
    generator=None)``: the masks as in ``MultiHeadAttention`` (True = may attend), and

    * ``batch_first=False``: inputs and output are ``(n, batch, width)``; unbatched ``(n, width)``
      inputs give an ``(n_q, d_out)`` output and ``(h, n_q, n_k)`` weights (``key_mask`` ``(n_k,)``).
    * ``need_weights=False`` returns ``(output, None)``; ``average_attn_weights=True`` the weights
      averaged over the heads, ``(batch, n_q, n_k)``. The default ``False`` differs from torch on
      purpose: the book looks at every head.
    * ``dropout`` (on the weights) acts in training mode only and then needs ``generator``.
    * ``load_from_torch(mha)`` copies the weights of a ``torch.nn.MultiheadAttention`` of the same shape
      or refuses with a ``ValueError`` naming what differs.

    Used in: "Multi-head attention and the causal mask", "Decoding: cross-attention and the KV cache".
    """

    def __init__(self, d_in: int, num_heads: int, bias: bool = True, *, d_out: int | None = None,
                 kdim: int | None = None, vdim: int | None = None, dropout: float = 0.0, batch_first: bool = True,
                 rope: bool = False) -> None:
        super().__init__(d_in, num_heads, bias, d_out=d_out, kdim=kdim, vdim=vdim, rope=rope)
        self.dropout = require_probability(dropout, "dropout")
        self.batch_first = require_bool(batch_first, "batch_first")
        self._dropout_now: tuple[float, torch.Generator | None] = (0.0, None)

    def forward(self, query: torch.Tensor, key: torch.Tensor | None = None, value: torch.Tensor | None = None, *,
                mask: torch.Tensor | None = None, key_mask: torch.Tensor | None = None, is_causal: bool = False,
                need_weights: bool = True, average_attn_weights: bool = False,
                generator: torch.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor | None]:
        need_weights = require_bool(need_weights, "need_weights")
        average = require_bool(average_attn_weights, "average_attn_weights")
        p = require_dropout(self.dropout if self.training else 0.0, generator, "torch")
        key = query if key is None else key
        value = key if value is None else value
        inputs = (query, key, value)
        ndims = {x.ndim for x in inputs if isinstance(x, torch.Tensor)}
        unbatched = ndims == {2}
        if len(ndims) > 1:
            raise ValueError(f"query, key and value must all be batched or all unbatched, got query "
                             f"{tuple(query.shape)}, key {tuple(key.shape)}, value {tuple(value.shape)}")
        if unbatched:  # (n, width) -> (1, n, width)
            inputs = tuple(x[None] for x in inputs)
            key_mask = key_mask[None] if isinstance(key_mask, torch.Tensor) and key_mask.ndim == 1 else key_mask
        elif not self.batch_first and ndims == {3}:  # (n, batch, width) -> (batch, n, width)
            inputs = tuple(x.transpose(0, 1) for x in inputs)
        self._dropout_now = (p, generator)
        try:
            out, weights = super().forward(*inputs, mask=mask, key_mask=key_mask, is_causal=is_causal)
        finally:
            self._dropout_now = (0.0, None)
        if unbatched:
            out, weights = out[0], weights[0]  # (n_q, d_out), (h, n_q, n_k)
        elif not self.batch_first:
            out = out.transpose(0, 1)  # (n_q, batch, d_out)
        if not need_weights:
            return out, None
        return out, weights.mean(dim=-3) if average else weights

    def _attend(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None,
                causal: Alignment | None) -> tuple[torch.Tensor, torch.Tensor]:
        p, generator = self._dropout_now
        return attention_torch(q, k, v, mask=mask, causal=causal, scale=self.d_k ** -0.5, dropout_p=p,
                               generator=generator)

    @torch.no_grad()
    def load_from_torch(self, mha: nn.MultiheadAttention) -> TorchCompatMultiHeadAttention:
        """Copy every weight and bias of ``torch.nn.MultiheadAttention``; refuse if the two differ in shape.

        Refused (``ValueError`` naming both values): a different embed_dim (attnlib's d_in and
        d_out must both equal it), number of heads, kdim, vdim, bias on/off, batch_first or dropout,
        torch's ``add_bias_kv`` / ``add_zero_attn``, which attnlib does not have, and ``rope=True``, which
        torch's module does not have.
        """
        if not isinstance(mha, nn.MultiheadAttention):
            raise TypeError(f"expected torch.nn.MultiheadAttention, got {type(mha).__name__}")
        has_bias = mha.in_proj_bias is not None
        pairs = {
            "embed_dim vs d_in": (mha.embed_dim, self.d_in), "embed_dim vs d_out": (mha.embed_dim, self.d_out),
            "num_heads": (mha.num_heads, self.num_heads), "kdim": (mha.kdim, self.kdim), "vdim": (mha.vdim, self.vdim),
            "bias": (has_bias, self.W_q.bias is not None), "batch_first": (mha.batch_first, self.batch_first),
            "dropout": (float(mha.dropout), self.dropout),
            "add_bias_kv": (mha.bias_k is not None, False), "add_zero_attn": (bool(mha.add_zero_attn), False),
            "rope": (False, self.rope),  # torch's module has no rotary positions: the outputs would differ
        }
        differ = [f"{name}: torch {theirs} vs attnlib {ours}" for name, (theirs, ours) in pairs.items() if theirs != ours]
        if differ:
            raise ValueError("cannot copy torch.nn.MultiheadAttention exactly; they differ in " + "; ".join(differ))
        if mha.in_proj_weight is not None:
            w_q, w_k, w_v = mha.in_proj_weight.chunk(3, dim=0)  # each (d_out, d_in)
        else:  # kdim or vdim != embed_dim: torch keeps three separate matrices
            w_q, w_k, w_v = mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight
        for lin, w in ((self.W_q, w_q), (self.W_k, w_k), (self.W_v, w_v)):
            lin.weight.copy_(w)
        self.W_o.weight.copy_(mha.out_proj.weight)
        if has_bias:
            for lin, b in zip((self.W_q, self.W_k, self.W_v), mha.in_proj_bias.chunk(3)):
                lin.bias.copy_(b)
            self.W_o.bias.copy_(mha.out_proj.bias)
        return self
