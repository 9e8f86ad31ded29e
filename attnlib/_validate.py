"""Input validation shared by every public function of attnlib.

Used by all chapters indirectly: every error message a reader sees comes from here.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Literal

import numpy as np
import torch

Backend = Literal["torch", "numpy"]


def backend_of(x: Any, name: str) -> Backend:
    """Return ``"torch"`` or ``"numpy"`` for ``x``; raise ``TypeError`` for anything else."""
    if isinstance(x, torch.Tensor):
        return "torch"
    if isinstance(x, np.ndarray):
        return "numpy"
    raise TypeError(
        f"{name} must be a torch.Tensor or a numpy.ndarray, got {type(x).__name__}"
    )


def require_floating(x: torch.Tensor | np.ndarray, name: str) -> None:
    """Raise ``ValueError`` unless ``x`` has a real floating dtype."""
    if isinstance(x, torch.Tensor):
        ok = x.is_floating_point()
    else:
        ok = np.issubdtype(x.dtype, np.floating)
    if not ok:
        raise ValueError(
            f"{name} must have a floating dtype, got {x.dtype} with shape {tuple(x.shape)}"
        )


def require_finite(x: torch.Tensor | np.ndarray, name: str) -> None:
    """Raise ``ValueError`` if ``x`` holds NaN or ±Inf (attnlib never returns a silent NaN)."""
    if isinstance(x, torch.Tensor) and x.is_floating_point() and x.numel() > 0:
        # one read-only pass: the smallest and largest value are finite exactly when every value is
        # (NaN propagates through both); torch.isfinite(x).all() would first write an x-sized mask
        lo, hi = torch.aminmax(x.detach())
        bad = not (math.isfinite(lo.item()) and math.isfinite(hi.item()))
    elif isinstance(x, torch.Tensor):
        bad = not bool(torch.isfinite(x).all())
    else:
        bad = not bool(np.isfinite(x).all())
    if bad:
        raise ValueError(
            f"{name} contains NaN or Inf (shape {tuple(x.shape)}); attnlib rejects "
            "non-finite inputs instead of propagating NaN"
        )


def require_min_ndim(x: torch.Tensor | np.ndarray, name: str, ndim: int = 2) -> None:
    if x.ndim < ndim:
        raise ValueError(
            f"{name} must have at least {ndim} dimensions (..., n, d), got shape {tuple(x.shape)}"
        )


def require_positive(value: Any, name: str) -> float:
    """Return ``value`` as a float; raise unless it is a finite number > 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value}")
    return value


def require_positive_int(value: Any, name: str) -> int:
    """Return ``value``; raise unless it is an ``int`` > 0 (bools are rejected)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}")
    return int(value)


def require_seed(seed: object) -> int:
    """``seed`` as an int; a ``ValueError`` naming it unless it is a whole number in [0, 2**32).

    The generator is mulberry32 (``attnlib.generation.Mulberry32``, the sliders' ``slider_math.uniforms``).
    JavaScript would reduce any number mod 2**32 (-5 becomes 4294967291, 1.5 becomes 1): two seeds a
    reader tells apart would then draw the same words, so both sides refuse such seeds, with this
    message (the page's ``requireSeed`` in ``attnlib/widgets/_common.js`` gives the same one)."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed < 2**32:
        raise ValueError(f"the seed must be a whole number from 0 to 4294967295 (2**32 - 1), got {seed!r}")
    return int(seed)


def quoted_word(word: str) -> str:
    """A word as a message quotes it; one longer than 24 characters is shortened to its first 20 and
    its length, so that a pasted paragraph cannot stretch the page (the page's ``quotedWord`` in ``attnlib/widgets/_common.js``)."""
    return f"'{word}'" if len(word) <= 24 else f"'{word[:20]}…' ({len(word)} characters)"


def quoted_words(words: list[str], limit: int = 5) -> str:
    """Words as a message lists them: each once, in the order given, quoted by :func:`quoted_word`, at
    most ``limit`` of them and then how many more (the page's ``quotedWords`` in ``_common.js``)."""
    unique = list(dict.fromkeys(words))
    shown = ", ".join(map(quoted_word, unique[:limit]))
    return shown if len(unique) <= limit else f"{shown} and {len(unique) - limit} more"


def require_non_negative_int(value: Any, name: str) -> int:
    """Return ``value``; raise unless it is an ``int`` >= 0 (bools are rejected)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return int(value)


def make_generator(seed: Any, *streams: int) -> np.random.Generator:
    """A NumPy generator for ``seed`` (an ``int`` >= 0, or a ``Generator`` passed through).

    An ``int`` seed is combined with ``streams`` (e.g. the dimension), so a draw depends only on
    ``(seed, *streams)`` and never on what was drawn before it. ``make_generator(s)`` equals
    ``np.random.default_rng(s)``. Used by ``attnlib.companions.scaling`` and ``attnlib.companions.scratch``.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or a numpy.random.Generator, got {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    return np.random.default_rng([int(seed), *streams])


# --- arrays of numbers that are not attention inputs (plots, text, widgets, the NumPy pipeline) ---
AxisSizes = tuple[int | None, ...]


def as_finite_array(
    x: Any,
    name: str,
    *,
    shape: AxisSizes | None = None,
    ndim: int | None = None,
    non_empty: bool = False,
    ndarray_only: bool = False,
) -> np.ndarray:
    """``x`` as a finite float64 NumPy array: the one check behind every array of numbers that is
    not a q/k/v input (those go through ``validate_qkv``).

    - A tensor is detached and copied to the CPU first; a list of numbers is accepted unless
      ``ndarray_only`` (the NumPy-from-scratch chapter asks for real floating arrays).
    - ``ndim`` fixes the number of axes; ``shape`` fixes the size of each axis (``None`` = any size,
      and it fixes ``ndim`` too); ``non_empty`` rejects an axis of size 0.

    Raises ``TypeError`` for something that is not numbers and ``ValueError`` naming the shape it got
    for a wrong shape, an empty array, or NaN/Inf.
    """
    if ndarray_only:
        if not isinstance(x, np.ndarray):
            raise TypeError(f"{name} must be a numpy.ndarray, got {type(x).__name__}")
        require_floating(x, name)
    if isinstance(x, torch.Tensor):
        x = x.detach().cpu().numpy()
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"{name} must be numeric (an array, a tensor or a list of numbers), got {type(x).__name__}"
        ) from None
    if shape is not None:
        ndim = len(shape)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-d, got shape {arr.shape}")
    if shape is not None and any(want is not None and got != want for got, want in zip(arr.shape, shape)):
        expected = ", ".join("?" if s is None else str(s) for s in shape) + ("," if len(shape) == 1 else "")
        raise ValueError(f"{name} must have shape ({expected}), got {arr.shape}")
    if non_empty and 0 in arr.shape:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or Inf (shape {arr.shape})")
    return arr


# --- attention inputs: q, k, v, mask, scale and the options of every attention function ------------
# (validate_qkv and its helpers; the readable path, the NumPy twin and chunked attention all call it,
# so they accept the same inputs and reject bad ones with the same messages)

Alignment = Literal["top_left", "bottom_right"]
ALIGNMENTS: tuple[str, ...] = ("top_left", "bottom_right")


def require_alignment(alignment: Any) -> Alignment:
    """Return ``alignment`` if it is ``"top_left"`` or ``"bottom_right"``; raise otherwise."""
    if not isinstance(alignment, str):
        raise TypeError(f"causal_alignment must be a str, got {type(alignment).__name__}")
    if alignment not in ALIGNMENTS:
        raise ValueError(f"causal_alignment must be 'top_left' or 'bottom_right', got {alignment!r}")
    return alignment  # type: ignore[return-value]


def require_bool(value: Any, name: str) -> bool:
    """Return ``value``; raise ``TypeError`` unless it is a ``bool``."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return bool(value)


def require_probability(p: Any, name: str) -> float:
    """Return ``p`` as a float; raise unless it is a real number in ``[0, 1)`` (a dropout rate)."""
    if isinstance(p, bool) or not isinstance(p, (int, float, np.floating, np.integer)):
        raise TypeError(f"{name} must be a real number, got {type(p).__name__}")
    p = float(p)
    if not (0.0 <= p < 1.0):
        raise ValueError(f"{name} must be in [0, 1), got {p}")
    return p


def require_dropout(dropout_p: Any, generator: Any, backend: Backend) -> float:
    """Return ``dropout_p`` as a float in ``[0, 1)``; when it is > 0, ``generator`` must be a
    ``torch.Generator`` (torch inputs) or a ``numpy.random.Generator`` (NumPy inputs)."""
    p = require_probability(dropout_p, "dropout_p")
    if p > 0:
        want, shown = (torch.Generator, "torch.Generator") if backend == "torch" else (
            np.random.Generator, "numpy.random.Generator")
        if generator is None:
            raise ValueError(
                f"dropout_p={p} needs an explicit generator ({shown}) so that the dropped weights are "
                "reproducible; attnlib never draws from the global RNG"
            )
        if not isinstance(generator, want):
            raise TypeError(f"generator must be a {shown} for {backend} inputs, got {type(generator).__name__}")
    return p


def as_attention_mask(mask: Any, backend: Backend, device: Any) -> Any:
    """Return ``mask`` as a tensor/array of ``backend``: boolean (True = may attend) stays boolean,
    a floating mask is an additive bias (``-inf`` = may not attend). NaN or ``+inf`` in a floating
    mask raise ``ValueError``; integer masks raise (0/1 is ambiguous: is 1 "keep" or "add 1"?)."""
    if isinstance(mask, torch.Tensor):
        is_bool, is_float = mask.dtype == torch.bool, mask.is_floating_point()
    elif isinstance(mask, np.ndarray):
        is_bool, is_float = mask.dtype == np.bool_, np.issubdtype(mask.dtype, np.floating)
    else:
        raise TypeError(
            f"mask must be a torch.Tensor or numpy.ndarray (boolean, or floating additive), got {type(mask).__name__}"
        )
    if not (is_bool or is_float):
        raise ValueError(
            f"mask must be boolean (True = may attend) or floating (added to the scores), got dtype {mask.dtype}"
        )
    if is_float:
        bad = (torch.isnan(mask) | torch.isposinf(mask)) if isinstance(mask, torch.Tensor) else (
            np.isnan(mask) | np.isposinf(mask))
        if bool(bad.any()):
            raise ValueError(
                f"a floating mask may hold finite numbers and -inf only; it contains NaN or +inf "
                f"(shape {tuple(mask.shape)})"
            )
    if backend == "torch":
        return mask.to(device) if isinstance(mask, torch.Tensor) else torch.from_numpy(mask).to(device)
    return mask.cpu().numpy() if isinstance(mask, torch.Tensor) else mask


def validate_qkv(
    q: Any, k: Any, v: Any, *, mask: Any = None, scale: Any = None, enable_gqa: Any = False,
) -> tuple[Backend, float, Any]:
    """Check q, k, v, mask, scale and the GQA flag; return ``(backend, scale, mask)`` with the mask as
    a boolean or floating tensor/array of the same backend as q (or ``None``).

    With ``enable_gqa=True``, q's head axis (-3) must be a multiple of k's and v's (grouped-query and
    multi-query attention); the leading dimensions are then checked with k's and v's head axis
    widened to q's. Every attention function in attnlib (readable, NumPy twin, chunked) calls this,
    so they all reject bad input with the same messages.
    """
    backend = backend_of(q, "q")
    for name, x in (("k", k), ("v", v)):
        if backend_of(x, name) != backend:
            raise TypeError(
                f"q, k and v must all be torch tensors or all numpy arrays; q is "
                f"{type(q).__name__} but {name} is {type(x).__name__}"
            )
    for name, x in (("q", q), ("k", k), ("v", v)):
        require_min_ndim(x, name)
        require_floating(x, name)
    if backend == "torch" and not q.dtype == k.dtype == v.dtype:
        raise TypeError(
            f"q, k and v must have the same dtype, got q {q.dtype}, k {k.dtype}, v {v.dtype} "
            f"(as torch does, attnlib does not promote silently: convert with .to(dtype))"
        )
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            f"q and k must share d_k (last dimension): q has shape {tuple(q.shape)}, "
            f"k has shape {tuple(k.shape)}"
        )
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(
            f"k and v must have the same number of positions n (dimension -2): "
            f"k has shape {tuple(k.shape)}, v has shape {tuple(v.shape)}"
        )
    for name, x in (("q", q), ("k", k), ("v", v)):
        if x.shape[-1] == 0:
            raise ValueError(f"{name} has no features: shape {tuple(x.shape)} (d_k and d_v must be > 0)")
    lead = [tuple(x.shape[:-2]) for x in (q, k, v)]
    if require_bool(enable_gqa, "enable_gqa"):
        lead = _gqa_lead(q, k, v)
    try:
        np.broadcast_shapes(*lead)
    except ValueError:
        raise ValueError(
            f"the leading (batch/head) dimensions of q, k and v do not broadcast: "
            f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}"
            + ("" if enable_gqa else "; for fewer key/value heads than query heads pass enable_gqa=True")
        ) from None
    for name, x in (("q", q), ("k", k), ("v", v)):
        require_finite(x, name)
    d_k = q.shape[-1]
    scale = 1.0 / math.sqrt(d_k) if scale is None else require_positive(scale, "scale")
    if mask is not None:
        mask = as_attention_mask(mask, backend, q.device if backend == "torch" else None)
        target = np.broadcast_shapes(*lead) + (q.shape[-2], k.shape[-2])
        try:
            full = np.broadcast_shapes(tuple(mask.shape), target)
        except ValueError:
            full = None
        if full != target:
            raise ValueError(
                f"mask of shape {tuple(mask.shape)} does not broadcast to (..., n_q, n_k) = {target}"
            )
    return backend, scale, mask


def _gqa_lead(q: Any, k: Any, v: Any) -> list[tuple[int, ...]]:
    """The leading shapes of q, k, v with k's and v's head axis widened to q's (enable_gqa=True)."""
    if min(q.ndim, k.ndim, v.ndim) < 3:
        raise ValueError(
            f"enable_gqa=True needs a head axis (..., heads, n, d) on q, k and v, got "
            f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}"
        )
    h_q, h_k, h_v = q.shape[-3], k.shape[-3], v.shape[-3]
    if h_k != h_v or h_q % h_k != 0:
        raise ValueError(
            f"enable_gqa=True needs k and v to have the same number of heads, dividing q's: "
            f"q has {h_q} heads {tuple(q.shape)}, k {h_k} {tuple(k.shape)}, v {h_v} {tuple(v.shape)}"
        )
    return [tuple(q.shape[:-2])] + [tuple(x.shape[:-3]) + (h_q,) for x in (k, v)]


def require_causal(is_causal: Any, causal_alignment: Any) -> Alignment | None:
    """``None`` without a causal rule, else the alignment (``"top_left"`` or ``"bottom_right"``).

    An alignment other than the default without ``is_causal=True`` raises: it would be silently ignored.
    """
    alignment = require_alignment(causal_alignment)
    if require_bool(is_causal, "is_causal"):
        return alignment
    if alignment != "top_left":
        raise ValueError(f"causal_alignment={alignment!r} has no effect without is_causal=True")
    return None


def mha_inputs(query: Any, key: Any, value: Any, *, widths: tuple[int, int, int], batch_first: bool,
               dtype: torch.dtype) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, bool]:
    """``MultiHeadAttention``'s query, key and value checked and put in the ``(batch, n, width)``
    layout; returns them and whether they were unbatched ``(n, width)``. ``key`` defaults to
    ``query`` and ``value`` to ``key``."""
    key = query if key is None else key
    value = key if value is None else value
    layout = "batch, n" if batch_first else "n, batch"
    ndims = set()
    for name, x, width in (("query", query, widths[0]), ("key", key, widths[1]), ("value", value, widths[2])):
        if not isinstance(x, torch.Tensor):
            raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
        if x.ndim not in (2, 3) or x.shape[-1] != width:
            raise ValueError(f"{name} must have shape ({layout}, {width}) or unbatched (n, {width}), got {tuple(x.shape)}")
        if x.dtype != dtype:
            raise TypeError(f"{name} is {x.dtype} but the module's weights are {dtype}: convert with .to({dtype})")
        require_finite(x, name)
        ndims.add(x.ndim)
    if len(ndims) > 1:
        raise ValueError(f"query, key and value must all be batched or all unbatched, got query "
                         f"{tuple(query.shape)}, key {tuple(key.shape)}, value {tuple(value.shape)}")
    unbatched = ndims == {2}
    if unbatched:
        query, key, value = (x[None] for x in (query, key, value))  # (1, n, width)
    elif not batch_first:
        query, key, value = (x.transpose(0, 1) for x in (query, key, value))  # (batch, n, width)
    if key.shape[:2] != value.shape[:2] or key.shape[0] != query.shape[0]:
        raise ValueError(f"query, key and value must share the batch size and key/value their length: "
                         f"got query {tuple(query.shape)}, key {tuple(key.shape)}, value {tuple(value.shape)} "
                         f"(batch_first={batch_first})")
    return query, key, value, unbatched


def mha_masks(mask: Any, key_mask: Any, *, batch: int, heads: int, n_q: int, n_k: int,
              unbatched: bool = False) -> tuple[torch.Tensor | None, torch.Tensor | None]:
    """``MultiHeadAttention``'s ``mask`` and ``key_mask`` checked and each put in its one layout:
    ``mask`` ``(batch|1, heads|1, n_q|1, n_k)`` and ``key_mask`` ``(batch, n_k)``, boolean (True = may
    attend) or floating (added to the scores). The module combines them (``MultiHeadAttention._mask``)."""
    if mask is not None:
        if not isinstance(mask, torch.Tensor):
            raise TypeError(f"mask must be a torch.Tensor, got {type(mask).__name__}")
        mask = as_attention_mask(mask, "torch", mask.device)
        if mask.ndim == 2:
            mask = mask[None, None]  # (1, 1, n_q, n_k)
        elif mask.ndim != 4:
            raise ValueError(
                f"mask of MultiHeadAttention must be (n_q, n_k) or (batch, heads, n_q, n_k) with size-1 "
                f"axes to broadcast, got shape {tuple(mask.shape)}; a {mask.ndim}-d mask is ambiguous. "
                f"For padding pass key_mask=(batch, n_k); for one mask per sequence use mask[:, None]"
            )
        if mask.shape[0] not in (1, batch) or mask.shape[1] not in (1, heads) or mask.shape[2] not in (1, n_q) \
                or mask.shape[3] != n_k:
            raise ValueError(
                f"mask of shape {tuple(mask.shape)} does not fit (batch|1, heads|1, n_q|1, n_k) = "
                f"({batch}|1, {heads}|1, {n_q}|1, {n_k})"
            )
    if key_mask is None:
        return mask, None
    if not isinstance(key_mask, torch.Tensor) or not (key_mask.dtype == torch.bool or key_mask.is_floating_point()):
        got = key_mask.dtype if isinstance(key_mask, torch.Tensor) else type(key_mask).__name__
        raise TypeError(f"key_mask must be a boolean (True = real key) or floating (additive) torch.Tensor, got {got}")
    key_mask = as_attention_mask(key_mask, "torch", key_mask.device)
    if unbatched and key_mask.ndim == 1:
        key_mask = key_mask[None]  # (1, n_k)
    if key_mask.ndim == 3 and key_mask.shape[1] == 1:
        key_mask = key_mask[:, 0]  # padding_mask's (batch, 1, n_k)
    if tuple(key_mask.shape) != (batch, n_k):
        raise ValueError(f"key_mask must have shape (batch, n_k) = ({batch}, {n_k}), got {tuple(key_mask.shape)}")
    return mask, key_mask


def mha_step_inputs(mha: Any, x_new: Any, cache: Any, key_mask: Any) -> torch.Tensor | None:
    """One cached step's inputs checked, once, where they enter ``MultiHeadAttention.step``: the module
    is batch-first self-attention, ``x_new`` ``(batch, t, d_in)`` finite and of the weights' dtype, the
    cache of that dtype, and ``key_mask`` ``(batch, length after the append)``, boolean or floating.
    Returns ``key_mask``."""
    if not mha.batch_first:
        raise ValueError("a cached step works with batch_first=True modules only")
    if mha.kdim != mha.d_in or mha.vdim != mha.d_in:
        raise ValueError(f"a cached step is self-attention (keys and values come from the new tokens): it needs "
                         f"kdim == vdim == d_in, got d_in={mha.d_in}, kdim={mha.kdim}, vdim={mha.vdim}")
    if not isinstance(x_new, torch.Tensor) or x_new.ndim != 3 or x_new.shape[-1] != mha.d_in:
        got = tuple(x_new.shape) if isinstance(x_new, torch.Tensor) else type(x_new).__name__
        raise ValueError(f"x_new must have shape (batch, t, {mha.d_in}), got {got}")
    if x_new.dtype != mha.W_q.weight.dtype:
        raise TypeError(f"x_new is {x_new.dtype} but the module's weights are {mha.W_q.weight.dtype}")
    if cache.dtype != x_new.dtype:
        raise TypeError(f"the cache holds {cache.dtype} but the model computes in {x_new.dtype}: "
                        f"make it with KVCache(..., dtype={x_new.dtype})")
    require_finite(x_new, "x_new")
    return None if key_mask is None else require_key_mask(key_mask, x_new.shape[0], cache.length + x_new.shape[1])


def require_key_mask(key_mask: Any, batch: int, length: int) -> torch.Tensor:
    """A decoding step's ``key_mask``: ``(batch, length)`` over every position so far, boolean (True =
    a real token) or floating (added to the scores)."""
    if not isinstance(key_mask, torch.Tensor) or not (key_mask.dtype == torch.bool or key_mask.is_floating_point()):
        got = key_mask.dtype if isinstance(key_mask, torch.Tensor) else type(key_mask).__name__
        raise TypeError(f"key_mask must be a boolean (True = real token) or floating torch.Tensor, got {got}")
    if tuple(key_mask.shape) != (batch, length):
        raise ValueError(f"key_mask must cover every position so far, (batch, length) = ({batch}, {length}), "
                         f"got {tuple(key_mask.shape)}")
    return key_mask


# --- positions: the width that pairs of features need, and the positions of a sequence ----------------
_INT_DTYPES = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def require_even_width(d: Any, name: str = "d") -> int:
    """Return ``d``; raise unless it is an even ``int`` > 0 (rotary and sinusoidal positions work on
    pairs of features, so an odd width leaves one feature without a partner)."""
    d = require_positive_int(d, name)
    if d % 2:
        raise ValueError(f"{name} must be even (the features are used in pairs), got {name}={d}")
    return d


def as_positions(positions: Any, n: int, *, lead: tuple[int, ...] = (), name: str = "positions") -> torch.Tensor:
    """``positions`` as an int64 tensor of shape ``(n,)`` or ``(*lead, n)`` (one position per vector;
    ``None`` gives ``0, 1, ..., n - 1``). Accepts a tensor, an array or a list of whole numbers >= 0;
    raises ``TypeError`` for something that is not numbers and ``ValueError`` naming the shape or the
    value for a wrong shape, a negative position or one that is not a whole number."""
    if positions is None:
        return torch.arange(n)
    if isinstance(positions, torch.Tensor):
        p = positions.detach().cpu()
    else:
        try:
            p = torch.as_tensor(np.asarray(positions))
        except (TypeError, ValueError, RuntimeError):
            raise TypeError(f"{name} must be whole numbers (a tensor, an array or a list), got {type(positions).__name__}") from None
    if not (p.is_floating_point() or p.dtype in _INT_DTYPES):
        raise TypeError(f"{name} must hold whole numbers, got dtype {p.dtype}")
    shapes = [(n,), (*lead, n)]
    if tuple(p.shape) not in shapes:
        want = " or ".join(str(s).replace(",)", ")") for s in dict.fromkeys(shapes))
        raise ValueError(f"{name} must have shape {want} (one position per vector), got {tuple(p.shape)}")
    if p.is_floating_point():
        if not bool(torch.isfinite(p).all()) or not bool((p == p.round()).all()):
            bad = p[~torch.isfinite(p) | (p != p.round())][0].item()
            raise ValueError(f"{name} must be whole numbers, got {bad} (shape {tuple(p.shape)})")
    if p.numel() and int(p.min()) < 0:
        raise ValueError(f"{name} must be >= 0, got {int(p.min())} (shape {tuple(p.shape)})")
    return p.to(torch.int64)
