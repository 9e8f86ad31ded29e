"""Scaled dot-product attention: one entry point, a torch backend and a float64 NumPy twin.

Chapters: "Dot products and the magnitude problem", the worked examples, "Attention in PyTorch",
"Decoding: cross-attention and the KV cache".
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import torch

from ._validate import Alignment, require_causal, require_dropout, validate_qkv
from .attention_np import attention_numpy
from .masks import causal_allowed
from .softmax import ArrayT, softmax_unchecked


def scaled_dot_product_attention(
    q: ArrayT, k: ArrayT, v: ArrayT, *, mask: torch.Tensor | np.ndarray | None = None, is_causal: bool = False,
    causal_alignment: Literal["top_left", "bottom_right"] = "top_left", scale: float | None = None, dropout_p: float = 0.0,
    generator: torch.Generator | np.random.Generator | None = None, enable_gqa: bool = False,
) -> tuple[ArrayT, ArrayT]:
    """``softmax(q kᵀ · scale + mask) v`` and the attention weights.

    Shapes: ``q`` is ``(..., n_q, d_k)``, ``k`` is ``(..., n_k, d_k)``, ``v`` is ``(..., n_k, d_v)``;
    any leading batch/head dimensions that broadcast. Returns ``(output, weights)`` with shapes
    ``(..., n_q, d_v)`` and ``(..., n_q, n_k)``. The arguments are those of
    ``torch.nn.functional.scaled_dot_product_attention`` (``mask`` is its ``attn_mask``):

    * Torch tensors in → torch tensors out (float16/bfloat16 are computed in float32 and cast back).
      NumPy arrays in → float64 NumPy arrays out (the reference twin, see ``attention_np``).
    * ``scale`` defaults to ``1/√d_k``.
    * ``mask`` broadcasts to ``(..., n_q, n_k)`` as torch's ``attn_mask`` does. **Boolean**: True =
      may attend. **Floating**: added to the scaled scores (an ALiBi-style bias; ``-inf`` excludes
      a key); NaN or ``+inf`` in it raise. Integer masks raise (is 1 "keep" or "add 1"?).
    * ``is_causal=True``: query i may not attend to keys after i, aligned as ``causal_alignment``
      says: ``"top_left"`` (torch's ``is_causal``: query i sees keys ``0..i``) or ``"bottom_right"``
      (query i sees keys ``0..i + n_k - n_q``; the newest query sees the whole KV cache). The two
      agree when ``n_q == n_k``. See ``attnlib.causal_mask``.
    * ``dropout_p``: after the softmax, each weight is zeroed with probability ``dropout_p`` and the
      others are divided by ``1 - dropout_p``; the returned weights are the dropped ones (as in
      ``torch.nn.MultiheadAttention``), and the output uses them. A ``generator``
      (``torch.Generator`` or ``numpy.random.Generator``) is required when ``dropout_p > 0``.
    * ``enable_gqa=True``: q may have more heads (axis -3) than k and v, a multiple of them; query
      head ``i`` uses key/value head ``i // (h_q / h_kv)`` (grouped-query; one kv head = multi-query).
    * **Fully masked rows:** a query with no allowed key attends to nothing. Its weights are all
      exactly 0 and its output row is exactly 0 — never NaN, never a uniform average.
    * **Empty sequences** (``n_q = 0`` or ``n_k = 0``) give empty or all-zero results, as in torch.
    * NaN or Inf in q, k or v raises ``ValueError``; so do bad shapes and non-floating dtypes.
      Inputs that are not tensors/arrays raise ``TypeError``, and so do torch inputs of different
      dtypes (torch refuses them too; nothing is promoted silently).
    * ``q`` is multiplied by ``scale`` before ``q kᵀ``, as torch does, so products that would
      overflow before scaling (``q = k = 1e19`` in float32) still give a finite answer.

    **Deliberate differences from torch:** fully masked rows give 0 where torch gives NaN;
    ``is_causal`` may be combined with ``mask`` (a key must pass both; torch refuses the pair);
    ``causal_alignment`` is new; dropout needs an explicit generator and runs whenever
    ``dropout_p > 0`` (there is no training flag in a function); the weights are returned.

    Used in: "Dot products and the magnitude problem", "Attention in PyTorch", the worked examples,
    "Decoding: cross-attention and the KV cache".
    """
    backend, s, mask = validate_qkv(q, k, v, mask=mask, scale=scale, enable_gqa=enable_gqa)
    causal = require_causal(is_causal, causal_alignment)
    p = require_dropout(dropout_p, generator, backend)
    if backend == "numpy":
        return attention_numpy(q, k, v, mask=mask, causal=causal, scale=s, dropout_p=p, generator=generator,
                               enable_gqa=enable_gqa)
    q, k, v = expand_kv_heads(q, k, v) if enable_gqa else (q, k, v)
    return attention_torch(q, k, v, mask=mask, causal=causal, scale=s, dropout_p=p, generator=generator)


def expand_kv_heads(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Repeat each key/value head ``h_q / h_kv`` times along axis -3 (grouped-query attention).

    Query head ``i`` then meets key/value head ``i // (h_q / h_kv)``, as with torch's ``enable_gqa``.
    Used by ``scaled_dot_product_attention`` and ``chunked_attention``.
    """
    groups = q.shape[-3] // k.shape[-3]
    k = k.repeat_interleave(groups, dim=-3)  # (..., h_q, n_k, d_k)
    v = v.repeat_interleave(groups, dim=-3)  # (..., h_q, n_k, d_v)
    return q, k, v


def attention_torch(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, mask: torch.Tensor | None, causal: Alignment | None,
    scale: float, dropout_p: float = 0.0, generator: torch.Generator | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """The arithmetic of ``scaled_dot_product_attention`` for torch tensors, without its checks.

    For callers that validated their inputs where they entered (``scaled_dot_product_attention``,
    ``MultiHeadAttention``, the decoding step): q, k, v of one floating dtype and matching shapes,
    ``mask`` boolean or additive or ``None``, ``causal`` ``None``, ``"top_left"`` or
    ``"bottom_right"``. Returns ``(output, weights)``.
    """
    out_dtype = q.dtype
    work = torch.float32 if out_dtype in (torch.float16, torch.bfloat16) else out_dtype
    q, k, v = q.to(work), k.to(work), v.to(work)
    scores = (q * scale) @ k.transpose(-2, -1)  # (..., n_q, n_k); scaled first: q kᵀ alone may overflow
    allowed = None if causal is None else causal_allowed(q.shape[-2], k.shape[-2], causal, device=q.device)  # (n_q, n_k)
    if mask is not None and mask.dtype != torch.bool:
        scores.add_(mask.to(work))  # an additive bias; -inf entries exclude keys
    elif mask is not None:
        allowed = mask if allowed is None else mask & allowed  # a key must pass both: one pass over the scores
    if allowed is not None:
        scores.masked_fill_(~allowed, float("-inf"))  # excluded keys get weight exactly 0
    if scores.shape[-1] == 0:  # no keys at all: every query attends to nothing
        weights = scores  # (..., n_q, 0)
    else:
        weights = softmax_unchecked(scores, dim=-1)  # (..., n_q, n_k); an all -inf row gives zeros
    if dropout_p > 0:
        keep = torch.rand(weights.shape, generator=generator, dtype=work).to(weights.device) >= dropout_p
        weights = weights * keep / (1.0 - dropout_p)  # (..., n_q, n_k)
    output = weights @ v  # (..., n_q, d_v); all zeros when n_k == 0
    return output.to(out_dtype), weights.to(out_dtype)
