"""The KV cache: the keys and values of the tokens seen so far, kept so that a decoding step projects
only the new tokens. ``MultiHeadAttention.step`` fills it; ``attnlib.decoding`` holds the loops.

Chapter: "Decoding: cross-attention and the KV cache".
"""

from __future__ import annotations

import torch

from ._validate import require_finite, require_positive_int


class KVCache:
    """Keys and values of the tokens seen so far, ``(batch, heads, length, d_k)`` and ``(..., d_v)``.

    Storage for ``capacity`` positions is allocated up front, so an append writes in place (no copy
    of the cache per token); when it is full it doubles, so the cache grows past its first capacity.
    ``append(k_new, v_new)`` takes ``(batch, heads, t, d)`` tensors of the cache's ``dtype`` (a
    float64 model needs ``dtype=torch.float64``: another dtype is refused, never rounded; ``device`` as
    the model's) and
    returns views of the whole cache so far. Under autograd (new keys that require grad) the cache
    is grown by concatenation instead of in place, so a loss can be backpropagated through it.
    ``heads`` may be fewer than the query heads (grouped-query or multi-query attention; pass
    ``enable_gqa=True`` to the attention). Used in: "Decoding: cross-attention and the KV cache".
    """

    def __init__(self, batch: int, heads: int, d_k: int, d_v: int | None = None, *, capacity: int = 16,
                 dtype: torch.dtype = torch.float32, device: torch.device | str | None = None) -> None:
        batch, heads, d_k = (require_positive_int(x, name) for x, name in ((batch, "batch"), (heads, "heads"), (d_k, "d_k")))
        d_v = d_k if d_v is None else require_positive_int(d_v, "d_v")
        capacity = require_positive_int(capacity, "capacity")
        if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
            raise TypeError(f"dtype must be a floating torch.dtype, got {dtype!r}")
        self._k = torch.empty(batch, heads, capacity, d_k, dtype=dtype, device=device)  # (batch, heads, capacity, d_k)
        self._v = torch.empty(batch, heads, capacity, d_v, dtype=dtype, device=device)  # (batch, heads, capacity, d_v)
        self.length = 0

    @property
    def capacity(self) -> int:
        """Positions the storage holds now (it doubles when an append needs more)."""
        return self._k.shape[2]

    @property
    def dtype(self) -> torch.dtype:
        return self._k.dtype

    def append(self, k_new: torch.Tensor, v_new: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Write ``t`` new positions; return ``(k, v)`` of all ``length`` positions so far (views).
        ``k_new`` and ``v_new`` are checked here (shape, dtype, finite): every later step can trust the cache."""
        for name, x, store in (("k_new", k_new, self._k), ("v_new", v_new, self._v)):
            if not isinstance(x, torch.Tensor):
                raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
            b, h, _, d = store.shape
            if x.ndim != 4 or (x.shape[0], x.shape[1], x.shape[3]) != (b, h, d) or x.shape[2] == 0:
                raise ValueError(f"{name} must have shape ({b}, {h}, t, {d}) with t > 0, got {tuple(x.shape)}")
            if x.dtype != store.dtype:
                raise TypeError(f"{name} is {x.dtype} but the cache holds {store.dtype}: make the cache with "
                                f"KVCache(..., dtype={x.dtype}) (a cache never rounds what it stores)")
            require_finite(x, name)
        if v_new.shape[2] != k_new.shape[2]:
            raise ValueError(f"k_new and v_new must add the same number of positions, got {tuple(k_new.shape)} "
                             f"and {tuple(v_new.shape)}")
        return self.write(k_new, v_new)

    def write(self, k_new: torch.Tensor, v_new: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``append`` without its checks, for a caller that checked where its inputs entered
        (``MultiHeadAttention.step_unchecked``, behind a door that called ``check_fits``)."""
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

    def check_fits(self, batch: int, heads: int, d: int) -> None:
        """Raise ``ValueError`` unless the cache holds ``batch`` sequences of ``heads`` heads ``d`` wide."""
        b, h, _, d_k = self._k.shape
        if (b, h, d_k, self._v.shape[3]) != (batch, heads, d, d):
            raise ValueError(f"the cache holds (batch, heads, d_k, d_v) = ({b}, {h}, {d_k}, {self._v.shape[3]}), "
                             f"the step needs ({batch}, {heads}, {d}, {d}): make it with KVCache({batch}, {heads}, {d})")

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
