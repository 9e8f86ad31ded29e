"""Generating words with a causal language model, with and without a KV cache.

One generated word is three steps: run the model on the context, turn the last position's logits into
a choice (``choose``: :func:`greedy` by default, or any function of one row of logits), append the
choice. Without a cache each step runs the whole context again; with one (:func:`generate`,
``use_cache=True``) each step runs the new word only and attends over the cached keys and values of
the earlier ones. The chapter's sampler (temperature, top-k, top-p, seeded as the page is) is
``attnlib.companions.sampler.Sampler``.

Chapter: "A model that writes".
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch

from ._validate import require_positive_int
from .transformer import TinyLM

#: One row of logits (a list of floats) in, the index of the chosen word out.
Chooser = Callable[[Sequence[float]], int]


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


def greedy(logits: Sequence[float]) -> int:
    """The first of the largest logits (greedy decoding). Raises ``ValueError`` for logits that are
    empty, NaN, +inf or all -inf: never a silent pick."""
    z = _finite_logits(logits)
    return max(range(len(z)), key=lambda i: (z[i], -i))


def _check_choose(choose: object) -> Chooser:
    if not callable(choose):
        raise TypeError(f"choose must be a function of one row of logits (e.g. greedy), got {type(choose).__name__}")
    return choose  # type: ignore[return-value]


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
def generate(model: TinyLM, prompt: Sequence[int], max_new: int, choose: Chooser = greedy, *,
             use_cache: bool = True, stop: int | None = None, watch: tuple[int, int] | None = None) -> Generation:
    """Generate up to ``max_new`` words after ``prompt`` (word ids), each chosen by ``choose`` from the
    last position's logits (:func:`greedy` by default; the chapter's sampler is
    ``attnlib.companions.sampler.Sampler(rule, seed)``); stop after the word ``stop`` (e.g. the end of a story).
    ``watch=(block, head)`` keeps that head's attention row of every choice (``Generation.attention``).

    With ``use_cache`` each step runs only the newest word through the model and its KV caches;
    without, each step runs the whole context again. Both give the same words.
    """
    prompt, max_new = _check_prompt(model, prompt, max_new)
    watch, choose = _check_watch(model, watch), _check_choose(choose)
    ids, new, rows, looked = list(prompt), [], [], []
    if use_cache:
        caches = model.new_caches(1, capacity=len(prompt) + max_new)
        logits, weights = model.step(torch.tensor([prompt]), caches, positions=torch.arange(len(prompt))[None])
    for _ in range(max_new):
        if not use_cache:
            logits, weights = model(torch.tensor([ids]))  # (1, n, vocab): the whole context again
        last = logits[0, -1]  # (vocab,)
        choice = choose(last.tolist())
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
def generate_batch(model: TinyLM, prompts: Sequence[Sequence[int]], max_new: int,
                   choose: Chooser | Sequence[Chooser] = greedy) -> list[list[int]]:
    """Generate ``max_new`` words after each prompt, all prompts in one batch through the KV caches.

    Prompts of different lengths are padded on the left, so that every prompt ends at the same step;
    the key mask hides the padding from every query, and each prompt's positions start at 0 at its
    own first word, so each row computes what it would alone. ``choose`` is one chooser for every
    prompt or a sequence of them, one per prompt (each its own random stream). Returns the new word
    ids of each prompt.
    """
    if not prompts:
        raise ValueError("no prompts given")
    checked = [_check_prompt(model, p, max_new)[0] for p in prompts]
    chooses = [choose] * len(checked) if callable(choose) else [_check_choose(c) for c in choose]
    if len(chooses) != len(checked):
        raise ValueError(f"{len(checked)} prompts but {len(chooses)} choosers")
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
        chosen = [chooses[r](last[r].tolist()) for r in range(b)]
        for r, c in enumerate(chosen):
            new[r].append(c)
        if step == max_new - 1:
            break
        real = torch.cat([real, torch.ones(b, 1, dtype=torch.bool)], dim=1)  # (b, length)
        here = (width + step - pads)[:, None]  # (b, 1): each prompt's own position of the new word
        logits, _ = model.step(torch.tensor(chosen)[:, None], caches, positions=here, key_mask=real)
    return new
