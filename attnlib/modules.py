"""``nn.Module`` versions of attention.

Chapters: "Queries, keys and values" (SelfAttentionV1/V2), "Attention in PyTorch"
(ScaledDotProductAttention), "Multi-head attention and the causal mask" (MultiHeadAttention), "Where
words are: positions" (``MultiHeadAttention(rope=True)``).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import torch
from torch import nn

from ._validate import (
    as_positions,
    mha_inputs,
    mha_masks,
    mha_step_inputs,
    require_bool,
    require_causal,
    require_dropout,
    require_positive_int,
    require_probability,
)
from .attention import attention_torch, scaled_dot_product_attention
from .positions import BASE, rope_unchecked


def _validate_input(x: Any, d_in: int, name: str = "x") -> None:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
    if x.ndim < 2 or x.shape[-1] != d_in:
        raise ValueError(f"{name} must have shape (..., n, {d_in}), got {tuple(x.shape)}")


class SelfAttentionV1(nn.Module):
    """Self-attention with raw ``nn.Parameter`` projections drawn as ``torch.rand(d_in, d_out)``.

    The three matrices are drawn in the order query, key, value, so ``torch.manual_seed(s)``
    followed by this constructor reproduces ``torch.rand(d_in, d_out)`` drawn three times.
    ``forward(x)`` returns the context vectors ``(..., n, d_out)``; ``return_weights=True``
    also returns the ``(..., n, n)`` weights. Used in: "Queries, keys and values", "Attention in PyTorch"
    (its ``torch.rand`` initialisation set against ``SelfAttentionV2``'s).
    """

    def __init__(self, d_in: int, d_out: int) -> None:
        super().__init__()
        self.d_in = require_positive_int(d_in, "d_in")
        self.d_out = require_positive_int(d_out, "d_out")
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x: torch.Tensor, *, mask: Any = None, return_weights: bool = False) -> Any:
        _validate_input(x, self.d_in)
        q = x @ self.W_query  # (..., n, d_out)
        k = x @ self.W_key  # (..., n, d_out)
        v = x @ self.W_value  # (..., n, d_out)
        out, w = scaled_dot_product_attention(q, k, v, mask=mask)
        return (out, w) if return_weights else out


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

    ``MultiHeadAttention(d_in, num_heads, bias=True, *, d_out=None, kdim=None, vdim=None,
    dropout=0.0, batch_first=True, rope=False)``: queries are ``d_in`` wide, keys ``kdim`` and values ``vdim``
    wide (both default to ``d_in``); every head works in ``d_k = d_out / h`` and the output is
    ``d_out`` wide (default ``d_in``; ``d_in → d_out`` as in the from-scratch tutorials).

    ``forward(query, key=None, value=None, *, mask=None, key_mask=None, is_causal=False,
    causal_alignment="top_left", need_weights=True, average_attn_weights=False, generator=None)``:

    * **Layout.** With ``batch_first=True`` (the default here; torch's default is False) inputs are
      ``(batch, n, width)``; with ``batch_first=False`` they are ``(n, batch, width)`` and so is the
      output. Unbatched ``(n, width)`` inputs give an ``(n_q, d_out)`` output and ``(h, n_q, n_k)``
      weights, as in torch. ``key`` and ``value`` default to ``query`` (self-attention).
    * **Masks have one layout.** ``mask`` is ``(n_q, n_k)`` (shared by every sequence and head) or
      ``(batch, heads, n_q, n_k)``, where the batch, heads and n_q axes may be 1 to broadcast. A 3-d
      mask is refused: ``(batch, n_q, n_k)`` and torch's ``(batch·heads, n_q, n_k)`` cannot be told
      apart when batch == heads. Boolean = True may attend (torch's nn.MultiheadAttention uses True =
      *masked*: pass ``~its_mask``); floating = added to the scores.
    * ``key_mask``: ``(batch, n_k)`` (or ``(batch, 1, n_k)``, what ``attnlib.padding_mask`` returns;
      ``(n_k,)`` for unbatched inputs). Boolean: True = a real key, torch's ``key_padding_mask``
      **inverted** (``key_mask = ~key_padding_mask``). Floating: added to every query's scores, as
      torch's floating ``key_padding_mask``.
    * ``is_causal`` / ``causal_alignment`` as in ``scaled_dot_product_attention``.
    * Returns ``(output, weights)``: output ``(batch, n_q, d_out)`` (or ``(n_q, batch, d_out)``),
      weights ``(batch, h, n_q, n_k)``, or ``(batch, n_q, n_k)`` with ``average_attn_weights=True``,
      or ``None`` with ``need_weights=False``. The default ``average_attn_weights=False`` differs
      from torch on purpose: the book looks at every head.
    * ``dropout`` (on the weights) acts in training mode only and then needs ``generator``.
    * ``rope=True``: rotary positions (``attnlib.positions.apply_rope``, interleaved pairs) turn every
      head's queries and keys before the scores, so a score depends on the two positions only through
      their difference. The queries sit at ``query_positions`` and the keys at ``key_positions``
      (``(n,)`` or ``(batch, n)``; default ``0 .. n-1``); ``d_k`` must be even.

    ``load_from_torch`` copies the weights of a ``torch.nn.MultiheadAttention`` of the same shape
    (embed_dim = d_in = d_out, heads, kdim, vdim, bias, batch_first, dropout) or refuses with a
    ``ValueError`` naming what differs. Used in: "Multi-head attention and the causal mask",
    "Decoding: cross-attention and the KV cache".
    """

    def __init__(
        self, d_in: int, num_heads: int, bias: bool = True, *, d_out: int | None = None,
        kdim: int | None = None, vdim: int | None = None, dropout: float = 0.0, batch_first: bool = True,
        rope: bool = False,
    ) -> None:
        super().__init__()
        d_in = require_positive_int(d_in, "d_in")
        num_heads = require_positive_int(num_heads, "num_heads")
        d_out = d_in if d_out is None else require_positive_int(d_out, "d_out")
        kdim = d_in if kdim is None else require_positive_int(kdim, "kdim")
        vdim = d_in if vdim is None else require_positive_int(vdim, "vdim")
        if d_out % num_heads != 0:
            raise ValueError(f"d_out must be divisible by num_heads, got d_out={d_out}, num_heads={num_heads}")
        self.dropout = require_probability(dropout, "dropout")
        self.batch_first = require_bool(batch_first, "batch_first")
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

    @property
    def d_model(self) -> int:
        """The query width ``d_in`` (the name chapter 13 uses when ``d_in == d_out``)."""
        return self.d_in

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        b, n, _ = x.shape
        x = x.reshape(b, n, self.num_heads, self.d_k)  # (batch, n, h, d_k)
        return x.transpose(1, 2)  # (batch, h, n, d_k)

    def _project(self, query: torch.Tensor, key: torch.Tensor,
                 value: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Every head's queries, keys and values ``(batch, h, n, d_k)``: one projection each, then split."""
        return self._split(self.W_q(query)), self._split(self.W_k(key)), self._split(self.W_v(value))

    def _merge(self, heads: torch.Tensor) -> torch.Tensor:
        """The heads ``(batch, h, n, d_k)`` side by side, then ``W_o``: ``(batch, n, d_out)``."""
        b, _, n, _ = heads.shape
        return self.W_o(heads.transpose(1, 2).reshape(b, n, self.d_out))  # (batch, n, d_out)

    @staticmethod
    def _mask(mask: torch.Tensor | None, key_mask: torch.Tensor | None) -> torch.Tensor | None:
        """``mask`` ``(batch|1, heads|1, n_q|1, n_k)`` and ``key_mask`` ``(batch, n_k)``, both checked, as
        one mask: boolean (True = may attend) when both are, additive otherwise."""
        if key_mask is None:
            return mask
        keys = key_mask[:, None, None, :]  # (batch, 1, 1, n_k)
        if mask is None:
            return keys
        if keys.dtype == torch.bool:
            return mask & keys if mask.dtype == torch.bool else mask.masked_fill(~keys, float("-inf"))
        bias = mask.to(keys.dtype).masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else mask
        return bias + keys  # (batch, heads|1, n_q|1, n_k), additive

    def forward(
        self,
        query: torch.Tensor,
        key: torch.Tensor | None = None,
        value: torch.Tensor | None = None,
        *,
        mask: torch.Tensor | None = None,
        key_mask: torch.Tensor | None = None,
        is_causal: bool = False,
        causal_alignment: Literal["top_left", "bottom_right"] = "top_left",
        need_weights: bool = True,
        average_attn_weights: bool = False,
        generator: torch.Generator | None = None,
        query_positions: Any = None,
        key_positions: Any = None,
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        # every input and flag is checked once, here where it enters; the arithmetic below trusts it
        need_weights = require_bool(need_weights, "need_weights")
        average = require_bool(average_attn_weights, "average_attn_weights")
        query, key, value, unbatched = mha_inputs(query, key, value, widths=(self.d_in, self.kdim, self.vdim),
                                                  batch_first=self.batch_first, dtype=self.W_q.weight.dtype)
        b, n_q, n_k = query.shape[0], query.shape[1], key.shape[1]
        mask, key_mask = mha_masks(mask, key_mask, batch=b, heads=self.num_heads, n_q=n_q, n_k=n_k, unbatched=unbatched)
        causal = require_causal(is_causal, causal_alignment)
        p = require_dropout(self.dropout if self.training else 0.0, generator, "torch")
        q, k, v = self._project(query, key, value)  # (batch, h, n_q|n_k, d_k) each
        q, k = self._rotate(q, k, query_positions, key_positions)
        heads, weights = attention_torch(q, k, v, mask=self._mask(mask, key_mask), causal=causal,
                                         scale=self.d_k ** -0.5, dropout_p=p,
                                         generator=generator)  # (batch, h, n_q, d_k), (batch, h, n_q, n_k)
        out = self._merge(heads)  # (batch, n_q, d_out)
        if unbatched:
            out, weights = out[0], weights[0]  # (n_q, d_out), (h, n_q, n_k)
        elif not self.batch_first:
            out = out.transpose(0, 1)  # (n_q, batch, d_out)
        if not need_weights:
            return out, None
        return out, weights.mean(dim=-3) if average else weights

    def step(self, x_new: torch.Tensor, cache: Any, *,
             key_mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Causal self-attention for the new tokens ``x_new`` ``(batch, t, d_in)`` only, the keys and
        values of the earlier ones in ``cache`` (an ``attnlib.decoding.KVCache``).

        Projects the new tokens, appends their keys and values to the cache, and attends with the
        bottom-right causal rule: new token ``i`` sees every cached token and the new tokens up to
        itself. ``key_mask`` ``(batch, length)`` covers every position after the append, boolean (True
        = a real token) or floating (added to the scores): padding of prompts of different lengths.
        With ``rope`` the new tokens sit after the cached ones, whose keys were cached already turned.
        Returns ``(output (batch, t, d_out), weights (batch, h, t, length))``. Used in: "Decoding".
        """
        key_mask = mha_step_inputs(self, x_new, cache, key_mask)  # checked once, here
        t = x_new.shape[1]
        q, k_new, v_new = self._project(x_new, x_new, x_new)  # (batch, h, t, d_k) each
        if self.rope:
            at = torch.arange(cache.length, cache.length + t)  # (t,)
            q, k_new = self._rotate(q, k_new, at, at)
        # the new keys and values come from x_new, checked above: the cache need not scan them again
        k, v = cache.append(k_new, v_new, checked=True)  # (batch, h, length, d_k)
        heads, weights = attention_torch(q, k, v, mask=self._mask(None, key_mask), causal="bottom_right",
                                         scale=self.d_k ** -0.5)  # (batch, h, t, d_k), (batch, h, t, length)
        return self._merge(heads), weights

    def _rotate(self, q: torch.Tensor, k: torch.Tensor, query_positions: Any,
                key_positions: Any) -> tuple[torch.Tensor, torch.Tensor]:
        """With ``rope``, the queries and keys ``(batch, h, n, d_k)`` turned at their positions."""
        if not self.rope:
            if query_positions is not None or key_positions is not None:
                raise ValueError("query_positions and key_positions are used with rope=True only")
            return q, k
        out = []
        for x, pos, name in ((q, query_positions, "query_positions"), (k, key_positions, "key_positions")):
            p = as_positions(pos, x.shape[-2], lead=(x.shape[0],), name=name).to(x.device)  # (n,) or (batch, n)
            out.append(rope_unchecked(x, p[:, None, :] if p.ndim == 2 else p, "interleaved", BASE))  # (batch, h, n, d_k)
        return out[0], out[1]

    @torch.no_grad()
    def load_from_torch(self, mha: nn.MultiheadAttention) -> MultiHeadAttention:
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
