"""The word chooser of "A model that writes" and of its page: a rule (greedy, temperature, top-k,
top-p) and a seeded stream of random numbers, written in the order of the page's JavaScript
(``attnlib/widgets/writer.js``) so that Python and the page choose the same words.

- :class:`Mulberry32`: a 32-bit generator that JavaScript computes identically (``Math.imul``).
- :class:`Rule`, :func:`candidates` and :func:`choose`: the rule, the words it keeps with their
  probabilities, and one choice, as loops over plain floats summed in the page's order.
- :class:`Sampler`: a rule and a seed as the ``choose`` argument of :func:`attnlib.generation.generate`.

A reader's own sampler would draw with torch (``torch.multinomial``); this one exists so that the
page and Python draw the same words. The core's :func:`attnlib.generation.generate` takes any chooser.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass

from ..generation import _finite_logits, greedy

_MASK32 = 0xFFFFFFFF


def require_seed(seed: object) -> int:
    """``seed`` as an int; a ``ValueError`` naming it unless it is a whole number in [0, 2**32).

    The generator is mulberry32 (:class:`Mulberry32` here, the sliders' ``slider_math.uniforms``).
    JavaScript would reduce any number mod 2**32 (-5 becomes 4294967291, 1.5 becomes 1): two seeds a
    reader tells apart would then draw the same words, so both sides refuse such seeds, with this
    message (the page's ``requireSeed`` in ``attnlib/widgets/_common.js`` gives the same one)."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed < 2**32:
        raise ValueError(f"the seed must be a whole number from 0 to 4294967295 (2**32 - 1), got {seed!r}")
    return int(seed)


class Mulberry32:
    """A seeded stream of uniform numbers in [0, 1): the generator ``mulberry32``, 32-bit integer steps
    that JavaScript computes identically (``Math.imul``), so Python and the page draw the same numbers.
    ``seed`` is a whole number in [0, 2**32); JavaScript would wrap any other number, so both refuse it."""

    def __init__(self, seed: int) -> None:
        self.state = require_seed(seed)

    def __call__(self) -> float:
        self.state = (self.state + 0x6D2B79F5) & _MASK32
        a = self.state
        t = ((a ^ (a >> 15)) * (1 | a)) & _MASK32
        t = ((t + (((t ^ (t >> 7)) * (61 | t)) & _MASK32)) & _MASK32) ^ t
        return ((t ^ (t >> 14)) & _MASK32) / 2**32


@dataclass(frozen=True)
class Rule:
    """How the next word is chosen from the logits.

    ``Rule()`` is greedy (the most likely word). ``Rule(temperature=0.8, top_k=5, top_p=0.9)`` samples:
    the logits are divided by the temperature, only the ``top_k`` most likely words are kept, then
    only the smallest set of most likely words whose probability reaches ``top_p``, and one of them
    is drawn with its renormalised probability. ``None`` leaves a filter out. Any temperature > 0
    works, however small: as it goes to 0 the choice becomes the greedy one.

    Ties are broken by the smaller word index, and this is where the book's rules deliberately differ
    from Hugging Face's ``generate``: top-k keeps exactly ``top_k`` words when several share the k-th
    largest logit (Hugging Face keeps every tied word), and top-p's prefix takes tied words in the
    order of their index. A rule then names one set of words, the same in Python and on the page.
    """

    temperature: float | None = None
    top_k: int | None = None
    top_p: float | None = None

    def __post_init__(self) -> None:
        t, k, p = self.temperature, self.top_k, self.top_p
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or not t > 0 or math.isinf(t)):
            raise ValueError(f"temperature must be a number > 0 (None for greedy decoding), got {t!r}")
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
            raise ValueError(f"top_k must be an int >= 1 (None keeps every word), got {k!r}")
        if p is not None and (isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p <= 1):
            raise ValueError(f"top_p must be a number in (0, 1] (None keeps every word), got {p!r}")
        if t is None and (k is not None or p is not None):
            raise ValueError("top_k and top_p filter a sampled choice: give a temperature too")

    @property
    def greedy(self) -> bool:
        return self.temperature is None


def candidates(logits: Sequence[float], rule: Rule) -> tuple[list[int], list[float]]:
    """The words ``rule`` chooses among, most likely first (ties: the smaller index first), and their
    probabilities. Greedy keeps every word with its softmax probability (and takes the first);
    sampling divides by the temperature, keeps ``top_k``, then the top-p prefix, and renormalises.
    A word whose probability is 0 (a -inf logit, or one that underflows) is never a candidate.

    Written as loops over plain floats, in the order the page's JavaScript uses, so that both compute
    the same numbers: the unnormalised weights ``exp((z - top) / T)`` are summed one after the other.
    Subtracting the largest logit before dividing keeps every exponent <= 0, so that a tiny
    temperature gives weights 1 for the largest logit and 0 for the others (greedy), never inf / inf.
    Raises ``ValueError`` for logits that are empty, NaN, +inf or all -inf.
    """
    z = _finite_logits(logits)
    order = sorted(range(len(z)), key=lambda i: (-z[i], i))  # most likely first
    t = 1.0 if rule.greedy else rule.temperature
    if rule.top_k is not None:
        order = order[: rule.top_k]
    top = z[order[0]]
    weights = [math.exp((z[i] - top) / t) for i in order]  # unnormalised probabilities, the first is 1
    kept = sum(1 for w in weights if w > 0)  # sorted, so the words of weight 0 come last
    order, weights = order[:kept], weights[:kept]
    total = 0.0
    for w in weights:  # summed in order, as the page sums them (no compensated sum there)
        total += w
    if rule.top_p is not None and rule.top_p < 1:
        kept, running = 0, 0.0
        while kept < len(weights) and running < rule.top_p * total:
            running += weights[kept]
            kept += 1
        order, weights, total = order[:kept], weights[:kept], running
    return order, [w / total for w in weights]


def choose(logits: Sequence[float], rule: Rule, uniform: float | None = None) -> int:
    """The index chosen from one row of logits by ``rule``; ``uniform`` in [0, 1) draws a sampled one.

    Greedy takes the first of the largest logits. Sampling walks the cumulative probability of
    :func:`candidates` until it passes ``uniform``: the page's JavaScript does the same, in the same order.
    Raises ``ValueError`` for logits that are empty, NaN, +inf or all -inf: never a silent pick.
    """
    if rule.greedy:
        return greedy(logits)  # the first of the largest
    if isinstance(uniform, bool) or not isinstance(uniform, (int, float)) or not 0 <= uniform < 1:
        raise ValueError(f"a sampled choice needs a uniform number in [0, 1), got {uniform!r}")
    order, probs = candidates(logits, rule)
    running = 0.0
    for i, p in zip(order, probs):
        running += p
        if running > uniform:
            return i
    # The probabilities summed to just under 1 by rounding and ``uniform`` sat above them: the last
    # candidate, whose probability is > 0 (candidates keeps no word of probability 0).
    return order[-1]


class Sampler:
    """``Sampler(rule=Rule(), seed=0)``: the ``choose`` of :func:`attnlib.generation.generate` that picks each word
    by ``rule`` with the random numbers of ``Mulberry32(seed)`` (one per sampled word, none for greedy),
    as the page does. A fresh sampler starts the stream again: ``generate(model, prompt, n,
    Sampler(rule, seed=1))`` gives the same words every time."""

    def __init__(self, rule: Rule = Rule(), seed: int = 0) -> None:
        if not isinstance(rule, Rule):
            raise TypeError(f"rule must be an attnlib.companions.sampler.Rule, got {type(rule).__name__}")
        self.rule, self.draw = rule, Mulberry32(seed)

    def __call__(self, logits: Sequence[float]) -> int:
        return choose(logits, self.rule, None if self.rule.greedy else self.draw())
