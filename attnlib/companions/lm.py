"""Training and measuring the small language model of :mod:`attnlib.transformer` on :mod:`attnlib.companions.stories`.

* :func:`train_lm`: AdamW on the next-word cross-entropy, seeded, one thread, with a progress line;
  one update is :func:`train_step`, on a batch cut to its longest story (:func:`trim_padding`);
* :func:`recall_accuracy`: next-word accuracy on the positions that repeat something said far back;
* :func:`bigram_model`: the best a rule about the current word alone can do, counted on the training stories;
* :func:`attention_on_source`: how much of each head's weight lands where the book knows it should;
* :func:`time_per_token`: the time to produce each next word, with or without the KV cache.

Chapter: "A model that writes".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F

from .._validate import require_positive, require_positive_int
from ..transformer import TinyLM
from .checks import make_generator
from .learning import reproducible
from .stories import RECALLS, Stories

IGNORE = -100  # the target of a padding position: the loss skips it


def targets(stories: Stories) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(inputs (N, n-1), key_mask (N, n-1), next_words (N, n-1))``: each position predicts the word after
    it; the targets of padding are ``IGNORE``."""
    real = stories.key_mask  # (N, n)
    nxt = stories.ids[:, 1:].masked_fill(~real[:, 1:], IGNORE)  # (N, n-1)
    return stories.ids[:, :-1], real[:, :-1], nxt


def trim_padding(inputs: torch.Tensor, key_mask: torch.Tensor, nxt: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """``(inputs, key_mask, nxt)`` without the last columns, those that are padding in every row. They
    change nothing: the key mask hides them from every real position, and their targets are
    ``IGNORE``. A batch of short stories then costs what its longest story costs. A batch without a
    single word (no stories, or only padding) raises ValueError: its loss would be a silent NaN."""
    used = torch.nonzero(key_mask.any(dim=0))  # the columns some row really uses
    if len(used) == 0:
        raise ValueError(f"a batch of {len(key_mask)} stories without a single word (key_mask of shape "
                         f"{tuple(key_mask.shape)} is all False): there is nothing to learn from or score")
    n = int(used.max()) + 1
    return inputs[:, :n], key_mask[:, :n], nxt[:, :n]


def lm_loss(model: TinyLM, inputs: torch.Tensor, key_mask: torch.Tensor, nxt: torch.Tensor) -> torch.Tensor:
    """The mean cross-entropy of the next word, in nats, over every real position."""
    logits, _ = model(inputs, key_mask=key_mask)  # (batch, n, vocab)
    return F.cross_entropy(logits.flatten(0, 1), nxt.flatten(), ignore_index=IGNORE)


@dataclass
class LMRun:
    """One training run: the model, its settings, the training loss at every step, the held-out loss
    every ``eval_every`` steps, and the wall time."""

    model: TinyLM
    settings: dict[str, float | int]
    losses: list[float] = field(default_factory=list)
    held_out: list[tuple[int, float]] = field(default_factory=list)
    seconds: float = 0.0


def train_step(model: TinyLM, optimizer: torch.optim.Optimizer, data: tuple[torch.Tensor, ...],
               rows: torch.Tensor) -> float:
    """One update on the stories ``rows`` of ``data = targets(train)``: the next-word loss, its gradient,
    one optimizer step. Returns the loss before the step."""
    batch = trim_padding(*(t[rows] for t in data))  # (inputs, key_mask, nxt) of these stories
    loss = lm_loss(model, *batch)  # every position predicts the next word
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


@torch.no_grad()
def held_out_loss(model: TinyLM, held: tuple[torch.Tensor, ...]) -> float:
    """The next-word loss on ``held = targets(test)``, in eval mode; the model is put back in training
    mode, also when the loss fails."""
    batch = trim_padding(*held)
    model.eval()
    try:
        return lm_loss(model, *batch).item()
    finally:
        model.train()


def _check_training(steps: int, batch: int, lr: float, weight_decay: float, seed: int,
                    eval_every: int) -> tuple[dict[str, float | int], int]:
    """The run's settings, checked (what :class:`LMRun` records), and ``eval_every``."""
    steps, batch, eval_every = (require_positive_int(x, n) for x, n in ((steps, "steps"), (batch, "batch"),
                                                                         (eval_every, "eval_every")))
    lr = require_positive(lr, "lr")
    if not isinstance(weight_decay, (int, float)) or weight_decay < 0:
        raise ValueError(f"weight_decay must be a number >= 0, got {weight_decay!r}")
    return {"steps": steps, "batch": batch, "lr": lr, "weight_decay": weight_decay, "seed": seed}, eval_every


def train_lm(model: TinyLM, train: Stories, test: Stories, *, steps: int = 500, batch: int = 32, lr: float = 3e-3,
             weight_decay: float = 0.01, seed: int = 0, eval_every: int = 50,
             progress: Callable[[str], None] | None = print) -> LMRun:
    """Train ``model`` with AdamW on random batches of ``train`` (seeded), on one thread.

    Every ``eval_every`` steps the held-out loss on ``test`` is recorded and a progress line goes to
    ``progress`` (``None``: silent). Returns the :class:`LMRun`; the model is left in eval mode.
    """
    settings, eval_every = _check_training(steps, batch, lr, weight_decay, seed, eval_every)
    steps, batch = settings["steps"], settings["batch"]
    run = LMRun(model, settings)
    data, held, rng = targets(train), targets(test), make_generator(seed)
    start = time.perf_counter()
    with reproducible(threads=1):
        torch.manual_seed(seed)
        optimizer = torch.optim.AdamW(model.parameters(), lr=settings["lr"], weight_decay=settings["weight_decay"],
                                      foreach=True)  # all parameters in one call: the same numbers, sooner
        model.train()
        for step in range(1, steps + 1):
            rows = torch.from_numpy(rng.integers(len(train), size=batch))  # (batch,) stories of this step
            run.losses.append(train_step(model, optimizer, data, rows))
            if step % eval_every == 0 or step == steps:
                run.held_out.append((step, held_out_loss(model, held)))
                if progress is not None:
                    progress(f"step {step:4d}/{steps}: training loss {run.losses[-1]:.3f}, "
                             f"held-out {run.held_out[-1][1]:.3f} ({time.perf_counter() - start:.0f} s)")
    model.eval()
    run.seconds = time.perf_counter() - start
    return run


@torch.no_grad()
def predictions(model: TinyLM, stories: Stories) -> torch.Tensor:
    """The model's most likely next word at every position, ``(N, n-1)``."""
    inputs, mask, _ = targets(stories)
    logits, _ = model(inputs, key_mask=mask)
    return logits.argmax(dim=-1)


def recall_accuracy(predicted: torch.Tensor, stories: Stories) -> dict[str, float]:
    """Accuracy of ``predicted`` ``(N, n-1)`` next words at the recall positions, per item and overall,
    and at the positions before a closing bracket or quote."""
    right = predicted == stories.ids[:, 1:]  # (N, n-1)
    recall = stories.recall[:, :-1]  # (N, n-1)
    out = {item: float(right[recall == i].float().mean()) for i, item in enumerate(RECALLS)}
    out["all recall positions"] = float(right[recall >= 0].float().mean())
    out["closing marks"] = float(right[stories.closing[:, :-1]].float().mean())
    return out


@dataclass(frozen=True)
class Bigram:
    """Next-word probabilities given the current word alone, counted on training stories (add-one smoothed)."""

    log_probs: torch.Tensor  # (vocab, vocab): row = current word, column = next word

    def loss(self, stories: Stories) -> float:
        """Mean cross-entropy of the next word in nats, over every real position of ``stories``."""
        inputs, _, nxt = targets(stories)
        real = nxt != IGNORE
        return float(-self.log_probs[inputs[real], nxt[real]].mean())

    def predictions(self, stories: Stories) -> torch.Tensor:
        return self.log_probs.argmax(dim=-1)[targets(stories)[0]]  # (N, n-1)


def bigram_model(train: Stories, vocab_size: int) -> Bigram:
    """Count every (current word, next word) pair of ``train``; add one to every count."""
    inputs, _, nxt = targets(train)
    real = nxt != IGNORE
    counts = torch.ones(vocab_size, vocab_size, dtype=torch.float64)
    counts.index_put_((inputs[real], nxt[real]), torch.ones(int(real.sum()), dtype=torch.float64), accumulate=True)
    return Bigram(torch.log(counts / counts.sum(dim=1, keepdim=True)))


@torch.no_grad()
def attention_on_source(model: TinyLM, stories: Stories) -> torch.Tensor:
    """``(layers, heads)``: the mean weight each head puts on the position the book knows the next word
    comes from (the owner's name, the colour, the object, the number), over every recall position."""
    inputs, mask, _ = targets(stories)
    _, weights = model(inputs, key_mask=mask)  # per layer (N, h, n-1, n-1)
    rows, cols = torch.nonzero(stories.recall[:, :-1] >= 0, as_tuple=True)  # every recall position
    src = stories.source[rows, cols]
    return torch.stack([w[rows, :, cols, src].mean(dim=0) for w in weights])  # (layers, heads)


@torch.no_grad()
def time_per_token(model: TinyLM, length: int, *, repeats: int = 3, seed: int = 0) -> dict[str, np.ndarray]:
    """Seconds to produce the word at each position 1 .. length-1, with and without the KV cache,
    measured side by side (each repeat runs both), best of ``repeats``; ``{"cached": ..., "recomputed": ...}``.

    The words are random ids (the time does not depend on which words they are). Without the cache,
    the word at position t costs a forward pass over all t + 1 words; with it, over the new word only.
    """
    length = require_positive_int(length, "length")
    if length > model.context:
        raise ValueError(f"length {length} is beyond the model's context of {model.context}")
    ids = torch.from_numpy(make_generator(seed).integers(model.vocab_size, size=(1, length)))  # (1, length)
    best = {"cached": np.full(length - 1, np.inf), "recomputed": np.full(length - 1, np.inf)}
    with reproducible(threads=1):
        for _ in range(require_positive_int(repeats, "repeats")):
            caches = model.new_caches(1, capacity=length)
            model.step(ids[:, :1], caches, positions=torch.zeros(1, 1, dtype=torch.long))
            for t in range(1, length):
                start = time.perf_counter()
                model.step(ids[:, t:t + 1], caches, positions=torch.full((1, 1), t))
                best["cached"][t - 1] = min(best["cached"][t - 1], time.perf_counter() - start)
                start = time.perf_counter()
                model(ids[:, : t + 1])
                best["recomputed"][t - 1] = min(best["recomputed"][t - 1], time.perf_counter() - start)
    return best
