"""A transformer block built from attnlib's attention, and a small causal language model made of two.

The block is pre-norm, as in GPT-2 and torch's ``nn.TransformerEncoderLayer(norm_first=True)``::

    x = x + dropout(attention(LayerNorm(x)))       # causal multi-head self-attention
    x = x + dropout(W_2 GELU(W_1 LayerNorm(x)))    # the feed-forward network, position by position

``TransformerBlock.to_torch()`` copies the weights into torch's own layer, so the two can be compared
output for output. ``residual=False`` and ``layer_norm=False`` remove a piece, to measure what it is for.

Chapter: "A model that writes".
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from ._validate import require_bool, require_positive_int, require_probability
from .cache import KVCache
from .modules import MultiHeadAttention, key_mask_4d


def gelu(x: torch.Tensor) -> torch.Tensor:
    """GELU in its tanh form, 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³))), as in GPT-2: the page's
    JavaScript computes the same formula with ``Math.tanh``."""
    return F.gelu(x, approximate="tanh")


class TransformerBlock(nn.Module):
    """One pre-norm block: causal self-attention and a feed-forward network, each around a residual.

    ``TransformerBlock(d_model, num_heads, d_ff, *, dropout=0.0, residual=True, layer_norm=True, rope=False)``;
    ``rope=True`` turns the attention's queries and keys at their positions (``MultiHeadAttention(rope=True)``).
    ``forward(x, *, key_mask=None)`` takes ``(batch, n, d_model)`` and returns
    ``(out (batch, n, d_model), weights (batch, heads, n, n))``. ``step(x_new, cache, *, key_mask=None)``
    does the same for new tokens only, with the keys and values of earlier ones in ``cache``. Both check
    their inputs once and hand them to ``forward_unchecked`` / ``step_unchecked``, which ``TinyLM`` calls
    directly after checking once at its own door.
    """

    def __init__(self, d_model: int, num_heads: int, d_ff: int, *, dropout: float = 0.0, residual: bool = True,
                 layer_norm: bool = True, rope: bool = False) -> None:
        super().__init__()
        d_model, d_ff = require_positive_int(d_model, "d_model"), require_positive_int(d_ff, "d_ff")
        self.residual, self.layer_norm = require_bool(residual, "residual"), require_bool(layer_norm, "layer_norm")
        self.norm1 = nn.LayerNorm(d_model) if layer_norm else nn.Identity()
        self.attn = MultiHeadAttention(d_model, num_heads, rope=rope)
        self.norm2 = nn.LayerNorm(d_model) if layer_norm else nn.Identity()
        self.ff1 = nn.Linear(d_model, d_ff)
        self.ff2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(require_probability(dropout, "dropout"))

    def _add(self, x: torch.Tensor, branch: torch.Tensor) -> torch.Tensor:
        return x + self.dropout(branch) if self.residual else self.dropout(branch)

    def _feed_forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ff2(self.dropout(gelu(self.ff1(self.norm2(x)))))  # (batch, n, d_model)

    def forward(self, x: torch.Tensor, *, key_mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        mask, _ = self.attn._check(x, key_mask=key_mask, is_causal=True)  # checked once, here: (batch, 1, 1, n) or None
        return self.forward_unchecked(x, mask)  # the work trusts the door

    def forward_unchecked(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``forward``'s work on checked inputs (``TinyLM`` checks once, at its door, for every block)."""
        a, weights = self.attn.forward_unchecked(self.norm1(x), mask=mask, is_causal=True)  # (batch, n, d), (batch, h, n, n)
        x = self._add(x, a)
        return self._add(x, self._feed_forward(x)), weights

    def step(self, x_new: torch.Tensor, cache: KVCache, *,
             key_mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``forward`` for the new tokens ``x_new`` ``(batch, t, d_model)`` only; their keys and values join ``cache``."""
        return self.step_unchecked(x_new, cache, self.attn._check_step(x_new, cache, key_mask))  # checked once, here

    def step_unchecked(self, x_new: torch.Tensor, cache: KVCache,
                       mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``step``'s work on checked inputs; ``mask`` is ``(batch, 1, 1, length)`` or ``None``."""
        a, weights = self.attn.step_unchecked(self.norm1(x_new), cache, mask)  # (batch, t, d), (batch, h, t, length)
        x = self._add(x_new, a)
        return self._add(x, self._feed_forward(x)), weights

    @torch.no_grad()
    def to_torch(self) -> nn.TransformerEncoderLayer:
        """torch's ``nn.TransformerEncoderLayer(norm_first=True, batch_first=True)`` with this block's weights."""
        if not (self.residual and self.layer_norm):
            raise ValueError("torch's layer always has its residuals and LayerNorms: only a full block can be copied")
        if self.attn.rope:
            raise ValueError("torch's layer has no rotary positions: a block with rope=True cannot be copied")
        d_model, d_ff = self.ff1.in_features, self.ff1.out_features
        layer = nn.TransformerEncoderLayer(d_model, self.attn.num_heads, d_ff, dropout=self.dropout.p, activation=gelu,
                                           batch_first=True, norm_first=True, dtype=self.ff1.weight.dtype)
        mha = layer.self_attn
        mha.in_proj_weight.copy_(torch.cat([self.attn.W_q.weight, self.attn.W_k.weight, self.attn.W_v.weight]))
        mha.in_proj_bias.copy_(torch.cat([self.attn.W_q.bias, self.attn.W_k.bias, self.attn.W_v.bias]))
        mha.out_proj.weight.copy_(self.attn.W_o.weight)
        mha.out_proj.bias.copy_(self.attn.W_o.bias)
        # torch's layer would also drop attention weights (self_attn.dropout = dropout); this block drops
        # only the two branches and the feed-forward's hidden units, so the copy does the same.
        mha.dropout = 0.0
        for ours, theirs in ((self.norm1, layer.norm1), (self.norm2, layer.norm2), (self.ff1, layer.linear1),
                             (self.ff2, layer.linear2)):
            theirs.load_state_dict(ours.state_dict())
        return layer.eval() if not self.training else layer


class TinyLM(nn.Module):
    """A causal language model: token embeddings plus learned positions, ``n_layers`` blocks, a last
    LayerNorm, and a readout tied to the token embeddings (the logit of word w is ``h · e_w``).

    ``TinyLM(vocab_size, *, d_model=48, num_heads=4, d_ff=192, n_layers=2, context=256, dropout=0.0,
    residual=True, layer_norm=True, rope=False)``; ``rope=True`` drops the learned position table and
    gives every block rotary positions instead (a score then depends on how far apart two tokens are). ``forward(ids, *, key_mask=None, positions=None)`` takes word
    ids ``(batch, n)`` and returns ``(logits (batch, n, vocab), weights)``, one ``(batch, h, n, n)``
    tensor per block. ``step(ids_new, caches, *, positions, key_mask=None)`` runs new tokens through
    the KV caches (see :mod:`attnlib.generation`). Both check their inputs once (``_check``,
    ``_check_step``) and the blocks trust them. ``n_layers=0`` is a model that sees only the
    current token. Chapter: "A model that writes".
    """

    def __init__(self, vocab_size: int, *, d_model: int = 48, num_heads: int = 4, d_ff: int = 192, n_layers: int = 2,
                 context: int = 256, dropout: float = 0.0, residual: bool = True, layer_norm: bool = True,
                 rope: bool = False) -> None:
        super().__init__()
        self.vocab_size = require_positive_int(vocab_size, "vocab_size")
        self.context = require_positive_int(context, "context")
        if not isinstance(n_layers, int) or n_layers < 0:
            raise ValueError(f"n_layers must be an int >= 0, got {n_layers!r}")
        self.embed = nn.Embedding(vocab_size, d_model)
        self.rope = require_bool(rope, "rope")
        self.pos = None if self.rope else nn.Embedding(context, d_model)
        self.blocks = nn.ModuleList(TransformerBlock(d_model, num_heads, d_ff, dropout=dropout, residual=residual,
                                                     layer_norm=layer_norm, rope=self.rope) for _ in range(n_layers))
        self.norm = nn.LayerNorm(d_model) if layer_norm else nn.Identity()
        nn.init.normal_(self.embed.weight, std=0.1)
        if self.pos is not None:
            nn.init.normal_(self.pos.weight, std=0.1)

    @property
    def n_layers(self) -> int:
        return len(self.blocks)

    def _check(self, ids: object, positions: object, key_mask: object) -> tuple[torch.Tensor, torch.Tensor | None]:
        """The door of ``forward`` and ``step``: word ids ``(batch, n)`` int64 in the vocabulary, positions
        of their shape in the context (default ``0 .. n-1``), ``key_mask`` ``(batch, n)``. Returns the
        positions and the key mask as ``(batch, 1, 1, n)`` (or ``None``), which every block then trusts."""
        if not isinstance(ids, torch.Tensor) or ids.ndim != 2 or ids.dtype != torch.long:
            got = f"{tuple(ids.shape)} {ids.dtype}" if isinstance(ids, torch.Tensor) else type(ids).__name__
            raise ValueError(f"ids must be a (batch, n) tensor of int64 word ids, got {got}")
        if ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= self.vocab_size):
            raise ValueError(f"word ids must be in [0, {self.vocab_size}), got {int(ids.min())} to {int(ids.max())}")
        if positions is None:
            positions = torch.arange(ids.shape[1], device=ids.device).expand_as(ids)  # (batch, n)
        elif (not isinstance(positions, torch.Tensor) or positions.shape != ids.shape
              or positions.dtype != torch.long):
            got = f"{tuple(positions.shape)} {positions.dtype}" if isinstance(positions, torch.Tensor) else type(positions).__name__
            raise ValueError(f"positions must be an int64 tensor of the ids' shape {tuple(ids.shape)}, got {got}")
        if positions.numel() and int(positions.min()) < 0:
            raise ValueError(f"positions count from 0; got position {int(positions.min())}")
        if positions.numel() and int(positions.max()) >= self.context:
            raise ValueError(f"the context holds {self.context} positions; position {int(positions.max())} is beyond it")
        return positions, key_mask_4d(key_mask, *ids.shape)

    def _embed(self, ids: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        if self.pos is None:  # rotary: the blocks turn queries and keys; a shift of every position changes nothing
            return self.embed(ids)  # (batch, n, d_model)
        return self.embed(ids) + self.pos(positions)  # (batch, n, d_model)

    def _logits(self, h: torch.Tensor) -> torch.Tensor:
        return self.norm(h) @ self.embed.weight.T  # (batch, n, vocab): the readout tied to the embeddings

    def forward(self, ids: torch.Tensor, *, key_mask: torch.Tensor | None = None,
                positions: torch.Tensor | None = None) -> tuple[torch.Tensor, list[torch.Tensor]]:
        positions, mask = self._check(ids, positions, key_mask)  # checked once, here: every block trusts them
        h = self._embed(ids, positions)  # (batch, n, d_model)
        weights = []
        for block in self.blocks:
            h, w = block.forward_unchecked(h, mask)  # (batch, n, d_model), (batch, h, n, n)
            weights.append(w)
        return self._logits(h), weights

    def new_caches(self, batch: int, capacity: int = 64) -> list[KVCache]:
        """One empty KV cache per block, in the model's dtype and on its device."""
        return [KVCache(batch, b.attn.num_heads, b.attn.d_k, capacity=capacity, dtype=self.embed.weight.dtype,
                        device=self.embed.weight.device)
                for b in self.blocks]

    def step(self, ids_new: torch.Tensor, caches: list[KVCache], *, positions: torch.Tensor,
             key_mask: torch.Tensor | None = None) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """Logits ``(batch, t, vocab)`` of the new tokens ``ids_new`` ``(batch, t)`` at ``positions``
        ``(batch, t)``; their keys and values join ``caches``. ``key_mask`` ``(batch, length)`` marks
        the real tokens among all positions so far (padding of batched prompts)."""
        positions, mask = self._check_step(ids_new, caches, positions, key_mask)  # checked once, here
        h = self._embed(ids_new, positions)  # (batch, t, d_model)
        weights = []
        for block, cache in zip(self.blocks, caches):
            h, w = block.step_unchecked(h, cache, mask)  # (batch, t, d_model), (batch, h, t, length)
            weights.append(w)
        return self._logits(h), weights

    def _check_step(self, ids_new: object, caches: object, positions: object,
                    key_mask: object) -> tuple[torch.Tensor, torch.Tensor | None]:
        """The door of ``step``: ``_check``'s, and one ``KVCache`` per block, each of this model's batch,
        heads, head width and dtype, all holding the same number of positions."""
        positions, _ = self._check(ids_new, positions, None)
        if not isinstance(caches, (list, tuple)) or len(caches) != self.n_layers or \
                not all(isinstance(c, KVCache) for c in caches):
            raise TypeError(f"caches must be a list of {self.n_layers} attnlib.KVCache, one per block "
                            f"(model.new_caches(batch)), got {type(caches).__name__}")
        dtype, b = self.embed.weight.dtype, ids_new.shape[0]
        for block, cache in zip(self.blocks, caches):
            if cache.dtype != dtype:
                raise TypeError(f"the model is {dtype} but a cache holds {cache.dtype}: make them one dtype "
                                f"(model.new_caches(batch))")
            cache.check_fits(b, block.attn.num_heads, block.attn.d_k)
        if len({c.length for c in caches}) > 1:
            raise ValueError(f"the caches hold different numbers of positions: {[c.length for c in caches]}")
        if not caches:  # no block attends: there is no key for a mask to hide
            return positions, None
        return positions, key_mask_4d(key_mask, b, caches[0].length + ids_new.shape[1])
