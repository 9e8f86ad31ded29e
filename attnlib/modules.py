"""``nn.Module`` versions of attention.

Chapters: "Queries, keys and values" (SelfAttentionV1/V2), "Attention in PyTorch"
(ScaledDotProductAttention), "Multi-head attention and the causal mask" (MultiHeadAttention).
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from ._checks import check_positive_int
from .attention import scaled_dot_product_attention


def _check_input(x: Any, d_in: int, name: str = "x") -> None:
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
        self.d_in = check_positive_int(d_in, "d_in")
        self.d_out = check_positive_int(d_out, "d_out")
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x: torch.Tensor, *, mask: Any = None, return_weights: bool = False) -> Any:
        _check_input(x, self.d_in)
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
        self.d_in = check_positive_int(d_in, "d_in")
        self.d_out = check_positive_int(d_out, "d_out")
        self.W_query = nn.Linear(d_in, d_out, bias=bias)
        self.W_key = nn.Linear(d_in, d_out, bias=bias)
        self.W_value = nn.Linear(d_in, d_out, bias=bias)

    def forward(self, x: torch.Tensor, *, mask: Any = None, return_weights: bool = False) -> Any:
        _check_input(x, self.d_in)
        q = self.W_query(x)  # (..., n, d_out)
        k = self.W_key(x)  # (..., n, d_out)
        v = self.W_value(x)  # (..., n, d_out)
        out, w = scaled_dot_product_attention(q, k, v, mask=mask)
        return (out, w) if return_weights else out


class ScaledDotProductAttention(nn.Module):
    """Module wrapper of ``attnlib.scaled_dot_product_attention``: ``forward(q, k, v, mask=None)``
    returns ``(output, weights)``. ``mask`` is boolean, True = may attend; fully masked rows give
    zero weights and zero output. Used in: "Attention in PyTorch".
    """

    def __init__(self, scale: float | None = None) -> None:
        super().__init__()
        self.scale = scale

    def forward(
        self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: Any = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        return scaled_dot_product_attention(q, k, v, mask=mask, scale=self.scale)


class MultiHeadAttention(nn.Module):
    """Multi-head attention: ``h`` heads of size ``d_k = d_model / h``, concatenated, then ``W_o``.

    ``forward(query, key=None, value=None, *, mask=None)`` takes ``(batch, n, d_model)`` tensors
    (``key`` and ``value`` default to ``query``: self-attention) and returns
    ``(output (batch, n_q, d_model), weights (batch, h, n_q, n_k))``. ``mask`` is boolean, True =
    may attend, broadcastable to ``(batch, h, n_q, n_k)`` — note that ``torch.nn.MultiheadAttention``
    uses the opposite convention for boolean masks. ``load_from_torch`` copies the weights of a
    ``torch.nn.MultiheadAttention(d_model, h, batch_first=True)`` so both compute the same thing.
    Used in: "Multi-head attention and the causal mask".
    """

    def __init__(self, d_model: int, num_heads: int, bias: bool = True) -> None:
        super().__init__()
        d_model = check_positive_int(d_model, "d_model")
        num_heads = check_positive_int(num_heads, "num_heads")
        if d_model % num_heads != 0:
            raise ValueError(
                f"d_model must be divisible by num_heads, got d_model={d_model}, num_heads={num_heads}"
            )
        self.d_model, self.num_heads, self.d_k = d_model, num_heads, d_model // num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        b, n, _ = x.shape
        x = x.reshape(b, n, self.num_heads, self.d_k)  # (batch, n, h, d_k)
        return x.transpose(1, 2)  # (batch, h, n, d_k)

    def forward(
        self,
        query: torch.Tensor,
        key: torch.Tensor | None = None,
        value: torch.Tensor | None = None,
        *,
        mask: Any = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        key = query if key is None else key
        value = key if value is None else value
        for name, x in (("query", query), ("key", key), ("value", value)):
            _check_input(x, self.d_model, name)
            if x.ndim != 3:
                raise ValueError(f"{name} must have shape (batch, n, {self.d_model}), got {tuple(x.shape)}")
        q = self._split(self.W_q(query))  # (batch, h, n_q, d_k)
        k = self._split(self.W_k(key))  # (batch, h, n_k, d_k)
        v = self._split(self.W_v(value))  # (batch, h, n_k, d_k)
        heads, weights = scaled_dot_product_attention(q, k, v, mask=mask)  # (batch, h, n_q, d_k)
        b, _, n_q, _ = heads.shape
        concat = heads.transpose(1, 2).reshape(b, n_q, self.d_model)  # (batch, n_q, d_model)
        return self.W_o(concat), weights

    @torch.no_grad()
    def load_from_torch(self, mha: nn.MultiheadAttention) -> MultiHeadAttention:
        """Copy the weights of ``torch.nn.MultiheadAttention`` (same d_model and heads) into self."""
        if not isinstance(mha, nn.MultiheadAttention):
            raise TypeError(f"expected torch.nn.MultiheadAttention, got {type(mha).__name__}")
        if mha.embed_dim != self.d_model or mha.num_heads != self.num_heads:
            raise ValueError(
                f"shape mismatch: torch module has embed_dim={mha.embed_dim}, num_heads={mha.num_heads}; "
                f"this one has d_model={self.d_model}, num_heads={self.num_heads}"
            )
        w_q, w_k, w_v = mha.in_proj_weight.chunk(3, dim=0)  # each (d_model, d_model)
        for lin, w in ((self.W_q, w_q), (self.W_k, w_k), (self.W_v, w_v)):
            lin.weight.copy_(w)
        self.W_o.weight.copy_(mha.out_proj.weight)
        if self.W_q.bias is not None and mha.in_proj_bias is not None:
            for lin, b in zip((self.W_q, self.W_k, self.W_v), mha.in_proj_bias.chunk(3)):
                lin.bias.copy_(b)
            self.W_o.bias.copy_(mha.out_proj.bias)
        return self
