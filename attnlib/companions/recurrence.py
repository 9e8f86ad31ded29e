"""Recurrence versus attention (document 004, Part 3).

An RNN recurrence next to the self-attention layer of ``attnlib.companions.scratch``: how many sequential
steps and how long a path information needs from one word to another, how much each output moves
when one input is nudged, the multiply-adds of each, and a timing of the recurrence's dependent
loop against attention's batched matrix products.

Core module: NumPy only, no plotting. Chapter: "Why attention is parallel" (12).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .._validate import require_positive, require_positive_int
from .checks import as_finite_array, make_generator
from .cost import best_time
from .scratch import Seed, init_projections, self_attention


def word_position(tokens: Sequence[str], word: str) -> int:
    """1-based position of the first occurrence of ``word`` (the documents count words from 1).

    Used in: "Why attention is parallel".
    """
    try:
        return list(tokens).index(word) + 1
    except ValueError:
        raise ValueError(f"word {word!r} is not among the tokens {list(tokens)}") from None


@dataclass(frozen=True)
class PathCounts:
    """How information from one word reaches a later word, RNN versus self-attention.

    Used in: "Why attention is parallel".
    """

    source: int  # 1-based position of the earlier word
    target: int  # 1-based position of the later word
    n_tokens: int

    @property
    def rnn_steps_to_target(self) -> int:
        """Sequential updates h_1 … h_target before the target word's state exists."""
        return self.target

    @property
    def rnn_steps_total(self) -> int:
        """Sequential updates to read the whole sentence."""
        return self.n_tokens

    @property
    def rnn_chain(self) -> list[int]:
        """Hidden-state indices the source's information passes, h_source → … → h_target."""
        return list(range(self.source, self.target + 1))

    @property
    def rnn_path_length(self) -> int:
        """Recurrent updates between h_source and h_target (edges of ``rnn_chain``)."""
        return len(self.rnn_chain) - 1

    @property
    def rnn_intermediate_states(self) -> list[int]:
        """Hidden states strictly between the source's and the target's."""
        return self.rnn_chain[1:-1]

    @property
    def attention_steps_total(self) -> int:
        """One layer, whatever the length; all pairs are compared in the same matrix product."""
        return 1

    @property
    def attention_path_length(self) -> int:
        """The target's output reads the source's value directly, in the same layer."""
        return 1


def path_counts(tokens: Sequence[str], source: str, target: str) -> PathCounts:
    """``PathCounts`` for the first ``source`` and first ``target`` word in ``tokens``.

    Used in: "Why attention is parallel".
    """
    s, t = word_position(tokens, source), word_position(tokens, target)
    if s >= t:
        raise ValueError(f"source {source!r} (word {s}) must come before target {target!r} (word {t})")
    return PathCounts(source=s, target=t, n_tokens=len(tokens))


def rnn_forward(x: np.ndarray, w_x: np.ndarray, w_h: np.ndarray) -> np.ndarray:
    """The recurrence ``h_t = tanh(x_t W_x + h_{t-1} W_h)``, ``h_0 = 0``; returns all states ``(n, d_h)``.

    Each step needs the previous one, so the loop runs exactly ``n`` times, one after the other.
    Used in: "Why attention is parallel".
    """
    x = as_finite_array(x, "x", ndim=2, ndarray_only=True)
    w_x = as_finite_array(w_x, "w_x", shape=(x.shape[1], None), ndarray_only=True)
    w_h = as_finite_array(w_h, "w_h", shape=(w_x.shape[1], w_x.shape[1]), ndarray_only=True)
    xw = x @ w_x  # (n, d_h): the input part has no dependency and is done for all steps at once
    h = np.zeros(w_x.shape[1])
    states = np.empty_like(xw)
    for t in range(x.shape[0]):
        h = np.tanh(xw[t] + h @ w_h)  # (d_h,)
        states[t] = h
    return states  # (n, d_h)


def nudge_response(
    layer: Callable[[np.ndarray], np.ndarray], x: np.ndarray, position: int, *, eps: float = 1e-6, seed: Seed = 0
) -> np.ndarray:
    """How much each output row of ``layer`` moves per unit nudge of input row ``position``, shape ``(n,)``.

    ``x[position]`` is moved by ``eps`` along a seeded random unit direction; the result is
    ``‖layer(x')[t] - layer(x)[t]‖ / eps`` for every row ``t`` (a directional derivative).
    Used in: "Why attention is parallel".
    """
    x = as_finite_array(x, "x", ndim=2, ndarray_only=True)
    if isinstance(position, bool) or not isinstance(position, (int, np.integer)) or not 0 <= position < x.shape[0]:
        raise ValueError(f"position must be an int in [0, {x.shape[0]}), got {position!r}")
    eps = require_positive(eps, "eps")
    direction = make_generator(seed).normal(size=x.shape[1])
    direction /= np.linalg.norm(direction)
    nudged = x.copy()
    nudged[position] += eps * direction
    base = layer(x)  # (n, d_out)
    return np.linalg.norm(layer(nudged) - base, axis=1) / eps  # (n,)


def multiply_adds(n: int, d: int) -> dict[str, int]:
    """Multiply-adds of one RNN pass and one self-attention layer over ``n`` positions of width ``d``.

    RNN: ``x_t W_x`` and ``h_{t-1} W_h`` at each step, ``2 n d²``. Attention (``d_k = d_v = d``): three
    projections ``3 n d²``, the scores ``Q Kᵀ`` ``n² d`` and the weighted sum ``n² d``.
    Used in: "Why attention is parallel".
    """
    n, d = require_positive_int(n, "n"), require_positive_int(d, "d")
    return {"rnn": 2 * n * d * d, "attention": 3 * n * d * d + 2 * n * n * d}


class Timing(NamedTuple):
    """Best-of-``repeats`` wall times (seconds) at one sequence length. Used in: "Why attention is parallel"."""

    n: int
    rnn_loop: float  # the recurrence, n dependent steps
    batched: float  # the same multiply-adds as the loop, without the dependency: one batched product
    attention: float  # one self-attention layer over all n positions


def time_sequential_vs_parallel(
    lengths: Sequence[int], d: int = 32, *, seed: int = 0, repeats: int = 3
) -> list[Timing]:
    """Time the recurrence, the same arithmetic batched, and attention, for each length in ``lengths``.

    ``batched`` computes ``tanh(X W_x + H W_h)`` for all rows at once with a given ``H``: exactly the
    multiply-adds of the loop, minus the dependency of each step on the previous one. Each time is the
    best of ``repeats`` measurements of at least 50 ms each (a short call is repeated and averaged),
    so that the clock's resolution and a busy machine's jitter do not decide a ratio. Timings vary
    by machine: compare ratios, not absolute values. Used in: "Why attention is parallel".
    """
    d = require_positive_int(d, "d")
    repeats = require_positive_int(repeats, "repeats")
    rng = make_generator(seed)
    w_x, w_h = rng.normal(0, 1 / math.sqrt(d), size=(2, d, d))
    w_q, w_k, w_v = init_projections(d, d, seed=rng)
    rows = []
    for n in lengths:
        n = require_positive_int(n, "n")
        x = rng.normal(size=(n, d))  # (n, d)
        h_prev = rng.normal(size=(n, d))  # (n, d): stands in for the previous states
        t_rnn = best_time(lambda x=x: rnn_forward(x, w_x, w_h), repeats, min_seconds=0.05)
        t_batched = best_time(lambda x=x, h=h_prev: np.tanh(x @ w_x + h @ w_h), repeats, min_seconds=0.05)  # (n, d)
        t_att = best_time(lambda x=x: self_attention(x, w_q, w_k, w_v), repeats, min_seconds=0.05)
        rows.append(Timing(n, t_rnn, t_batched, t_att))
    return rows

