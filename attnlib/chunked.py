"""Exact attention over blocks of keys with the online-softmax recurrence (flash-style), in plain torch.

The readable ``scaled_dot_product_attention`` builds the whole ``(n_q, n_k)`` score matrix, so its
memory grows with n². Here queries and keys are cut into blocks of ``block_size``. For one block of
queries the key blocks are visited in turn, and three running quantities per query replace the
matrix:

* ``run_max`` — the largest score seen so far,
* ``run_sum`` — the sum of ``exp(score - run_max)`` over the keys seen so far,
* ``acc`` — the sum of ``exp(score - run_max) · v`` over the keys seen so far (the accumulator).

When a new block raises the max from ``m`` to ``m'``, everything summed so far was computed against
the old max, so ``run_sum`` and ``acc`` are multiplied by ``exp(m - m')`` before the block is added.
After the last block, ``acc / run_sum`` is exactly ``softmax(scores) @ v``. Only one
``(block_size, block_size)`` score tile per batch·head exists at a time, so the working memory is the
output (linear in n) plus ``block_size²`` per batch·head — never the ``n_q × n_k`` matrix.
``online_softmax_update`` is the one step, public so that it can be run by hand.

Three choices make the loop fast in plain torch, none of them changes the arithmetic:

* **exp2 instead of exp.** ``q`` is multiplied by ``scale · log₂ e`` once, so every score comes out
  in base-2 units, ``s₂ = s · log₂ e``, and ``2 ** (s₂ - m₂) = e ** (s - m)``. On a CPU ``exp2_`` is
  about three times cheaper than ``exp_``, and the exponential is the costliest of the elementwise
  passes over a tile. FlashAttention does the same.
* **No allocation of tiles inside the loop.** Without autograd, the score tile is written into one
  buffer made once per call (``torch.bmm(..., out=buf)``), and every elementwise pass works in
  place: a fresh tile of tens of MiB each step would cost page faults.
* **Tiles of 256 queries × 1024 keys** (``DEFAULT_BLOCK_SIZE``). The matrix products of a tile
  are batched over every batch·head, and long, flat tiles keep them close to the machine's best
  matmul rate; fewer tiles also mean fewer separate torch calls, each of which makes the cores
  wait for each other. A bigger tile would break the memory target.

Chapter: "Attention at scale".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import torch

from ._validate import require_causal, require_min_ndim, require_positive_int, validate_qkv
from .attention import expand_kv_heads

DEFAULT_BLOCK_SIZE = (256, 1024)  # (queries, keys) per tile
LOG2E = math.log2(math.e)  # scores times log2(e) are in base-2 units: 2 ** (s * LOG2E) == e ** s


def chunked_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    mask: torch.Tensor | np.ndarray | None = None,
    is_causal: bool = False,
    causal_alignment: Literal["top_left", "bottom_right"] = "top_left",
    scale: float | None = None,
    enable_gqa: bool = False,
    block_size: int | tuple[int, int] = DEFAULT_BLOCK_SIZE,
) -> torch.Tensor:
    """``softmax(q kᵀ · scale + mask) v`` computed block by block with the online softmax; returns the output only.

    Same inputs and errors as ``attnlib.scaled_dot_product_attention`` (both call
    ``attnlib._validate.validate_qkv``), and the same answer for every mask that function accepts:
    ``q`` is ``(..., n_q, d_k)``, ``k`` is ``(..., n_k, d_k)``, ``v`` is ``(..., n_k, d_v)``, leading
    dimensions broadcast, ``scale`` defaults to ``1/√d_k``, ``mask`` is boolean (True = may attend)
    or floating (added to the scores), broadcastable to ``(..., n_q, n_k)`` like torch's ``attn_mask``
    (0-d and 1-d masks included); ``enable_gqa`` as there.

    * ``is_causal=True`` with ``causal_alignment`` ``"top_left"`` (query ``i`` sees keys ``0..i``,
      torch's rule) or ``"bottom_right"`` (keys ``0..i + n_k - n_q``, decoding with a cache); with
      ``mask`` as well, a key must pass both. Key blocks that lie entirely in the future of a query
      block are skipped, which saves about half the work.
    * ``block_size`` is the tile: an ``int`` > 0 for as many queries as keys per block, or a pair
      ``(queries, keys)``. The result does not depend on it beyond float rounding; ``n`` need not
      be a multiple of it.
    * **Returns only the output** ``(..., n_q, d_v)``. The weights are the ``(n_q, n_k)`` matrix
      this function exists to avoid storing; the output never needs them, only the running
      max and sum. Use ``scaled_dot_product_attention`` when you want to look at the weights.
      There is no ``dropout_p``: dropout acts on the weights, which are never formed here.
    * **Fully masked rows** give an output row of exact zeros, as in ``scaled_dot_product_attention``;
      a row masked with the large finite ``torch.finfo(dtype).min`` gets torch's uniform average.
    * A floating ``mask`` that requires grad (a learned bias) gets its gradient, as in torch.
    * Empty sequences (``n_q = 0`` or ``n_k = 0``) give an empty or all-zero output, as in torch.
    * Torch tensors only (a NumPy array raises ``TypeError``); float16/bfloat16 are computed in
      float32 and cast back. Scores that overflow to NaN/+inf raise ``ValueError``.

    Used in: "Attention at scale".
    """
    bq, bk = _validate_block_size(block_size)
    alignment = require_causal(is_causal, causal_alignment)
    backend, s, mask = validate_qkv(q, k, v, mask=mask, scale=scale, enable_gqa=enable_gqa)
    if backend != "torch":
        raise TypeError(
            f"chunked_attention works on torch tensors only, got {type(q).__name__}; "
            "convert with torch.from_numpy or use scaled_dot_product_attention"
        )
    q, k, v = expand_kv_heads(q, k, v) if enable_gqa else (q, k, v)
    out_dtype = q.dtype  # validate_qkv checked that q, k and v share it
    work = torch.float32 if out_dtype in (torch.float16, torch.bfloat16) else out_dtype
    q, k, v = q.to(work), k.to(work), v.to(work)
    if mask is not None:
        mask = mask.reshape((1,) * (2 - mask.ndim) + tuple(mask.shape))  # 0-d and 1-d masks become (1, n_k) or (1, 1)
        mask = mask if mask.dtype == torch.bool else _base2(mask.to(work))
    lead = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    n_q, n_k, d_v = q.shape[-2], k.shape[-2], v.shape[-1]
    # all batch·heads in one axis: a tile is then one batched matmul (a copy only where an input broadcasts)
    bh = math.prod(lead)
    q, k, v = (x.expand(*lead, *x.shape[-2:]).reshape(bh, *x.shape[-2:]) for x in (q, k, v))  # (bh, n, d)
    offset = None if alignment is None else (0 if alignment == "top_left" else n_k - n_q)
    grad = torch.is_grad_enabled() and any(x is not None and x.requires_grad for x in (q, k, v, mask))
    # torch.bmm(..., out=) does not support autograd: with it, each tile is a new tensor
    buffer = None if grad else q.new_empty(q.shape[0], min(bq, n_q), min(bk, n_k))  # (bh, bq, bk)
    job = _Job(q=q, k=k, v=v, mask=mask, causal_offset=offset, scale=s, lead=lead, bq=bq, bk=bk, buffer=buffer)
    out = q.new_empty(q.shape[0], n_q, d_v)  # (bh, n_q, d_v); filled one query block at a time
    for i0 in range(0, n_q, bq):
        out[:, i0:i1, :] = _query_block(job, i0, i1 := min(i0 + bq, n_q))
    return out.reshape(*lead, n_q, d_v).to(out_dtype)  # (..., n_q, d_v)


def _base2(mask: torch.Tensor) -> torch.Tensor:
    """An additive mask in the scores' base-2 units: ``mask · log₂ e``, where ``-inf`` stays ``-inf``
    and a large finite value stays finite. ``torch.finfo(dtype).min`` (how Hugging Face masks) times
    log₂ e would overflow to ``-inf`` and turn torch's uniform row into a row of zeros."""
    lowest = torch.finfo(mask.dtype).min
    scaled = (mask * LOG2E).clamp_min(lowest)  # (..., n_q|1, n_k|1)
    return torch.where(mask == float("-inf"), mask, scaled)


def _validate_block_size(block_size: object) -> tuple[int, int]:
    """``(queries, keys)`` per tile from an ``int`` or a pair of ``int``s, each > 0."""
    if isinstance(block_size, tuple):
        if len(block_size) != 2:
            raise ValueError(f"block_size must be an int or a pair (queries, keys), got {len(block_size)} numbers")
        return (require_positive_int(block_size[0], "block_size[0] (queries)"),
                require_positive_int(block_size[1], "block_size[1] (keys)"))
    size = require_positive_int(block_size, "block_size")
    return size, size


@dataclass(frozen=True)
class _Job:
    """Everything one call of ``chunked_attention`` shares between its query blocks."""

    q: torch.Tensor  # (bh, n_q, d_k), in the working dtype; bh = all leading dimensions in one
    k: torch.Tensor  # (bh, n_k, d_k)
    v: torch.Tensor  # (bh, n_k, d_v)
    mask: torch.Tensor | None  # at least 2-d, broadcastable to (*lead, n_q, n_k); boolean or additive
    causal_offset: int | None  # None: no causal rule; else query i sees keys 0..i + offset
    scale: float
    lead: torch.Size  # the leading dimensions that bh stands for
    bq: int  # queries per tile
    bk: int  # keys per tile
    buffer: torch.Tensor | None  # (bh, bq, bk): every score tile is written here; None under autograd


def _query_block(job: _Job, i0: int, i1: int) -> torch.Tensor:
    """Output rows ``i0:i1``: the online-softmax loop over the key blocks these queries may see."""
    q, k, v, n_k, bh = job.q, job.k, job.v, job.k.shape[-2], job.q.shape[0]
    # keys past the last query's causal limit are in the future of every query of this block
    last_key = n_k if job.causal_offset is None else max(min(i1 + job.causal_offset, n_k), 0)
    # scaling q is cheaper than scaling every score tile; log2(e) puts the scores in base-2 units
    q_blk = q[:, i0:i1, :] * (job.scale * LOG2E)  # (bh, bq, d_k)
    run_max = q.new_full((bh, i1 - i0, 1), float("-inf"))  # (bh, bq, 1), largest score so far
    run_sum = q.new_zeros((bh, i1 - i0, 1))  # (bh, bq, 1), sum of exp(score - run_max)
    acc = q.new_zeros((bh, i1 - i0, v.shape[-1]))  # (bh, bq, d_v), sum of exp(score - run_max) v
    for j0 in range(0, last_key, job.bk):
        j1 = min(j0 + job.bk, last_key)
        out = None if job.buffer is None else job.buffer[:, : i1 - i0, : j1 - j0]  # a last tile can be smaller
        scores = torch.bmm(q_blk, k[:, j0:j1, :].transpose(-2, -1), out=out)  # (bh, bq, bk), in base 2
        _apply_masks(scores.view(*job.lead, i1 - i0, j1 - j0), job, i0, i1, j0, j1)  # (..., bq, bk) view
        run_max, run_sum, acc = _update(scores, v[:, j0:j1, :], run_max, run_sum, acc, exp_=torch.Tensor.exp2_)
        del scores  # without the buffer, the tile is freed here, before the next one is made
    _require_finite_max(run_max, job, i0, i1)
    # rows with no allowed key have run_sum = 0 and acc = 0: divide by 1 so the output row is exactly 0
    return acc / torch.where(run_sum > 0, run_sum, torch.ones_like(run_sum))  # (bh, bq, d_v)



def _require_finite_max(run_max: torch.Tensor, job: _Job, i0: int, i1: int) -> None:
    """Raise ``ValueError`` if a row's scores overflowed: NaN or +inf anywhere in a row shows up in
    its running max (``torch.maximum`` and ``amax`` propagate NaN)."""
    if bool(torch.isnan(run_max).any()) or bool(torch.isposinf(run_max).any()):
        raise ValueError(
            f"attention scores overflowed to NaN or +inf in query rows {i0}..{i1 - 1} "
            f"(q {tuple(job.q.shape)}, k {tuple(job.k.shape)}); the inputs are finite but q·kᵀ·scale is not "
            f"representable in {job.q.dtype}: rescale q or k"
        )

def online_softmax_update(
    scores: torch.Tensor, v_blk: torch.Tensor, run_max: torch.Tensor, run_sum: torch.Tensor, acc: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Fold one block of scores into the running max, running sum and accumulator; return the new three.

    ``scores`` is ``(..., n_q, b)`` (already scaled; masked keys ``-inf``), ``v_blk`` is
    ``(..., b, d_v)``, ``run_max`` and ``run_sum`` are ``(..., n_q, 1)`` and ``acc`` is
    ``(..., n_q, d_v)``. Start from ``run_max = -inf``, ``run_sum = 0``, ``acc = 0``; after the last
    block, ``acc / run_sum`` is ``softmax(all scores) @ v``. ``scores`` is overwritten with the
    block's ``exp(score - new max)`` so that no second tile is needed: pass a copy to keep it.
    ``run_sum`` and ``acc`` are left as they are (the loop of ``chunked_attention`` updates its own
    in place).

    The one step of ``chunked_attention``, public so that "Attention at scale" can run it by hand.
    """
    for name, x in (("scores", scores), ("v_blk", v_blk), ("run_max", run_max), ("run_sum", run_sum), ("acc", acc)):
        if not isinstance(x, torch.Tensor):
            raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
        require_min_ndim(x, name)
    n_q, b, d_v = scores.shape[-2], scores.shape[-1], v_blk.shape[-1]
    if v_blk.shape[-2] != b:
        raise ValueError(f"scores {tuple(scores.shape)} has {b} keys but v_blk {tuple(v_blk.shape)} "
                         f"has {v_blk.shape[-2]} rows")
    for name, x, last in (("run_max", run_max, 1), ("run_sum", run_sum, 1), ("acc", acc, d_v)):
        if x.shape[-2:] != (n_q, last):
            raise ValueError(f"{name} must have shape (..., {n_q}, {last}) for scores {tuple(scores.shape)} "
                             f"and v_blk {tuple(v_blk.shape)}, got {tuple(x.shape)}")
    lead = torch.broadcast_shapes(*(x.shape[:-2] for x in (scores, v_blk, run_max, run_sum, acc)))
    # copies at the full broadcast shape: the step updates them in place
    run_sum, acc = run_sum.expand(*lead, n_q, 1).clone(), acc.expand(*lead, n_q, d_v).clone()  # (..., n_q, 1), (..., n_q, d_v)
    return _update(scores, v_blk, run_max, run_sum, acc)


def _update(
    scores: torch.Tensor, v_blk: torch.Tensor, run_max: torch.Tensor, run_sum: torch.Tensor, acc: torch.Tensor,
    *, exp_: Callable[[torch.Tensor], torch.Tensor] = torch.Tensor.exp_,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The online-softmax step; ``scores``, ``run_sum`` and ``acc`` are updated in place. ``exp_`` is
    ``Tensor.exp_`` for scores in natural units, ``Tensor.exp2_`` for scores in base-2 units."""
    # The running max is a constant shift that cancels in acc / run_sum, so it is computed without
    # autograd; gradients stay exact and the tile can be exponentiated in place.
    new_max = torch.maximum(run_max, scores.detach().amax(dim=-1, keepdim=True))  # (..., bq, 1)
    # a row that has seen only masked keys keeps max -inf; subtract 0 there so exp gives 0, not NaN
    shift = torch.where(new_max == float("-inf"), torch.zeros_like(new_max), new_max)
    p = exp_(scores.sub_(shift))  # (..., bq, bk), unnormalised weights of this block, in place
    alpha = exp_(run_max - shift)  # (..., bq, 1), rescales what was summed against the old max
    run_sum = run_sum.mul_(alpha).add_(p.sum(dim=-1, keepdim=True))  # (..., bq, 1)
    acc = acc.mul_(alpha).add_(p @ v_blk)  # (..., bq, d_v)
    return new_max, run_sum, acc


def _apply_masks(scores: torch.Tensor, job: _Job, i0: int, i1: int, j0: int, j1: int) -> None:
    """Apply tile ``[i0:i1, j0:j1]`` of the mask (boolean or additive) and the causal rule to ``scores``, in place."""
    mask = job.mask
    if mask is not None:
        rows = slice(None) if mask.shape[-2] == 1 else slice(i0, i1)  # a size-1 axis broadcasts
        cols = slice(None) if mask.shape[-1] == 1 else slice(j0, j1)
        tile = mask[..., rows, cols]  # (..., bq or 1, bk or 1)
        if tile.dtype == torch.bool:
            scores.masked_fill_(tile.logical_not(), float("-inf"))
        else:
            scores.add_(tile)  # the additive mask, already in the scores' base-2 units (_base2)
    offset = job.causal_offset
    if offset is not None and j1 - 1 > i0 + offset:  # some key of this tile is later than some query
        qi = torch.arange(i0, i1, device=scores.device)[:, None]  # (bq, 1)
        kj = torch.arange(j0, j1, device=scores.device)[None, :]  # (1, bk)
        scores.masked_fill_(kj > qi + offset, float("-inf"))  # (bq, bk) broadcasts over the tile
