"""Generating words with a causal language model: greedy decoding and sampling, with and without a KV cache.

One generated word is three steps: run the model on the context, turn the last position's logits into
a choice (:func:`choose`), append the choice. Without a cache each step runs the whole context
again; with one (:func:`generate`, ``use_cache=True``) each step runs the new word only and attends
over the cached keys and values of the earlier ones.

The random numbers come from :class:`Mulberry32`, a 32-bit generator small enough to write again in
JavaScript, so the page's widget draws the same numbers as Python: the same seed gives the same words.

Chapter: "A model that writes".
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from ._validate import require_positive_int, require_seed
from .transformer import TinyLM

_MASK32 = 0xFFFFFFFF


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


def _finite_logits(logits: Sequence[float]) -> list[float]:
    """``logits`` as floats, or a ``ValueError`` that names the first value no choice can be made from.

    -inf is a word the model rules out (a masked word) and is kept; NaN and +inf come from a model
    that diverged, and a choice made from them would be a silent guess."""
    z = [float(x) for x in logits]
    if not z:
        raise ValueError("the logits are empty: there is no word to choose from")
    for i, x in enumerate(z):
        if math.isnan(x) or x == math.inf:
            raise ValueError(f"logit {i} is {x}: the logits must be finite (or -inf for a word ruled out); "
                             "a model whose logits are NaN or +inf has diverged")
    if all(x == -math.inf for x in z):
        raise ValueError(f"all {len(z)} logits are -inf: every word is ruled out, so none can be chosen")
    return z


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
        z = _finite_logits(logits)
        return max(range(len(z)), key=lambda i: (z[i], -i))  # the first of the largest
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


@dataclass
class Generation:
    """What :func:`generate` produced: the prompt and new word ids, the logits of every choice
    ``(steps, vocab)`` and, when a head was watched, its attention row of every choice (the last
    word's weights over the context then, one tensor ``(length,)`` per step; the cache grows by one)."""

    prompt: list[int]
    new: list[int]
    logits: torch.Tensor
    attention: list[torch.Tensor] | None = None


def word_ids(prompt: Sequence[int] | torch.Tensor) -> list[int]:
    """The prompt's word ids as ints; a ``ValueError`` naming the first id that is not a whole number
    (a float such as 1.7, a bool, a string). An id is never rounded: 1.7 is not word 1."""
    if isinstance(prompt, torch.Tensor):
        if prompt.dtype == torch.bool or prompt.is_floating_point() or prompt.is_complex() or prompt.ndim != 1:
            raise ValueError(f"the prompt must be one row of integer word ids, got a tensor of {prompt.dtype} "
                             f"with shape {tuple(prompt.shape)}")
        return [int(i) for i in prompt.tolist()]
    if isinstance(prompt, (str, bytes)):
        raise ValueError(f"the prompt must be a sequence of word ids, not text: encode it first ({prompt[:40]!r})")
    ids = list(prompt)
    for j, i in enumerate(ids):
        if isinstance(i, bool) or not isinstance(i, numbers.Integral):
            raise ValueError(f"prompt word {j} is {i!r}: word ids must be whole numbers (ints), never rounded")
    return [int(i) for i in ids]


def _check_prompt(model: TinyLM, prompt: Sequence[int], max_new: int) -> tuple[list[int], int]:
    if not isinstance(model, TinyLM):
        raise TypeError(f"model must be an attnlib TinyLM, got {type(model).__name__}")
    prompt = word_ids(prompt)
    if not prompt:
        raise ValueError("the prompt is empty: give at least one word (a story starts with <s>)")
    if any(not 0 <= i < model.vocab_size for i in prompt):
        raise ValueError(f"the prompt has ids outside the vocabulary [0, {model.vocab_size})")
    max_new = require_positive_int(max_new, "max_new")
    if len(prompt) > model.context:
        raise ValueError(f"the prompt has {len(prompt)} words; the model's context holds {model.context}")
    if len(prompt) + max_new > model.context:
        raise ValueError(f"{len(prompt)} prompt words + {max_new} new ones exceed the context of {model.context}")
    return prompt, max_new


def _check_watch(model: TinyLM, watch: tuple[int, int] | None) -> tuple[int, int] | None:
    if watch is None:
        return None
    ok = isinstance(watch, (tuple, list)) and len(watch) == 2 and all(isinstance(i, int) and not isinstance(i, bool)
                                                                      for i in watch)
    if not ok or not (0 <= watch[0] < model.n_layers and 0 <= watch[1] < model.blocks[0].attn.num_heads):
        raise ValueError(f"watch must be (block, head), counted from 0, of a model with {model.n_layers} blocks of "
                         f"{model.blocks[0].attn.num_heads if model.n_layers else 0} heads, got {watch!r}")
    return int(watch[0]), int(watch[1])


@torch.no_grad()
def generate(model: TinyLM, prompt: Sequence[int], max_new: int, rule: Rule = Rule(), *, seed: int = 0,
             use_cache: bool = True, stop: int | None = None, watch: tuple[int, int] | None = None) -> Generation:
    """Generate up to ``max_new`` words after ``prompt`` (word ids), choosing each by ``rule`` with
    random numbers from ``Mulberry32(seed)``; stop after the word ``stop`` (e.g. the end of a story).
    ``watch=(block, head)`` keeps that head's attention row of every choice (``Generation.attention``).

    With ``use_cache`` each step runs only the newest word through the model and its KV caches;
    without, each step runs the whole context again. Both give the same words.
    """
    prompt, max_new = _check_prompt(model, prompt, max_new)
    watch = _check_watch(model, watch)
    draw = Mulberry32(seed)
    ids, new, rows, looked = list(prompt), [], [], []
    if use_cache:
        caches = model.new_caches(1, capacity=len(prompt) + max_new)
        logits, weights = model.step(torch.tensor([prompt]), caches, positions=torch.arange(len(prompt))[None])
    for _ in range(max_new):
        if not use_cache:
            logits, weights = model(torch.tensor([ids]))  # (1, n, vocab): the whole context again
        last = logits[0, -1]  # (vocab,)
        choice = choose(last.tolist(), rule, None if rule.greedy else draw())
        rows.append(last)
        if watch is not None:
            looked.append(weights[watch[0]][0, watch[1], -1])  # (length,): the last word's row
        ids.append(choice)
        new.append(choice)
        if choice == stop or len(new) == max_new:
            break
        if use_cache:
            logits, weights = model.step(torch.tensor([[choice]]), caches, positions=torch.tensor([[len(ids) - 1]]))
    return Generation(prompt, new, torch.stack(rows), looked if watch is not None else None)


@torch.no_grad()
def generate_batch(model: TinyLM, prompts: Sequence[Sequence[int]], max_new: int, rule: Rule = Rule(), *,
                   seeds: Sequence[int] | None = None) -> list[list[int]]:
    """Generate ``max_new`` words after each prompt, all prompts in one batch through the KV caches.

    Prompts of different lengths are padded on the left, so that every prompt ends at the same step;
    the key mask hides the padding from every query, and each prompt's positions start at 0 at its
    own first word, so each row computes what it would alone. ``seeds`` gives each prompt its own
    random stream (default 0, 1, 2, ...). Returns the new word ids of each prompt.
    """
    if not prompts:
        raise ValueError("no prompts given")
    checked = [_check_prompt(model, p, max_new)[0] for p in prompts]
    seeds = list(range(len(checked))) if seeds is None else list(seeds)
    if len(seeds) != len(checked):
        raise ValueError(f"{len(checked)} prompts but {len(seeds)} seeds")
    draws = [Mulberry32(s) for s in seeds]
    b, width = len(checked), max(len(p) for p in checked)
    pads = torch.tensor([width - len(p) for p in checked])  # (b,)
    ids = torch.zeros(b, width, dtype=torch.long)
    for r, p in enumerate(checked):
        ids[r, pads[r]:] = torch.tensor(p)
    real = torch.arange(width)[None] >= pads[:, None]  # (b, width): False on the left padding
    positions = (torch.arange(width)[None] - pads[:, None]).clamp(min=0)  # (b, width)
    caches = model.new_caches(b, capacity=width + max_new)
    logits, _ = model.step(ids, caches, positions=positions, key_mask=real)
    new: list[list[int]] = [[] for _ in range(b)]
    for step in range(max_new):
        last = logits[:, -1]  # (b, vocab)
        chosen = [choose(last[r].tolist(), rule, None if rule.greedy else draws[r]()) for r in range(b)]
        for r, c in enumerate(chosen):
            new[r].append(c)
        if step == max_new - 1:
            break
        real = torch.cat([real, torch.ones(b, 1, dtype=torch.bool)], dim=1)  # (b, length)
        here = (width + step - pads)[:, None]  # (b, 1): each prompt's own position of the new word
        logits, _ = model.step(torch.tensor(chosen)[:, None], caches, positions=here, key_mask=real)
    return new
