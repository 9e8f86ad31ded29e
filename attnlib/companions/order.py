"""The chapter's measured comparison of position schemes: one small model, four ways to give it positions.

The task, *echo*: at every position, name the token ``shift`` places back. It needs order (which
token is two places back is a fact about positions, not about the set of tokens), and its rule is
the same at every length, so a model trained on short sequences can be tested on longer ones.

- ``echo_batch``: seeded sequences and their targets;
- ``PositionModel``: token embeddings, one head of attention over the whole sequence and a readout,
  with no positions, sinusoidal or learned position vectors added, or rotary positions;
- ``train_echo``: full-batch Adam (``attnlib.companions.learning.fit``) in float64; ``echo_accuracy``.

Chapter: "Where words are: positions" (book/14_positions.ipynb).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from .._validate import require_positive_int
from ..modules import MultiHeadAttention
from ..positions import require_even_width, sinusoidal_table
from .checks import make_generator, require_non_negative_int
from .learning import TrainingRun, fit, reproducible

SCHEMES: tuple[str, ...] = ("none", "sinusoidal", "learned", "rope")


@dataclass(frozen=True)
class EchoBatch:
    """Sequences of random tokens and, at every position from ``shift`` on, the token ``shift`` places
    back (the positions before have no target, ``-100``). ``tokens`` and ``targets`` are ``(N, n)``."""

    tokens: torch.Tensor
    targets: torch.Tensor


IGNORE = -100  # the target of a position with nothing ``shift`` places back (torch's ignore_index)


def echo_batch(count: int, n: int, *, vocab: int, shift: int, seed: int) -> EchoBatch:
    """``count`` seeded sequences of ``n`` tokens drawn from ``0 .. vocab-1`` and their echo targets."""
    count, n = require_positive_int(count, "count"), require_positive_int(n, "n")
    vocab, shift = require_positive_int(vocab, "vocab"), require_positive_int(shift, "shift")
    rng = make_generator(seed, n)
    tokens = torch.from_numpy(rng.integers(0, vocab, size=(count, n)))  # (count, n)
    targets = torch.full_like(tokens, IGNORE)
    targets[:, shift:] = tokens[:, :-shift]  # (count, n): the token shift places back
    return EchoBatch(tokens, targets)


class PositionModel(nn.Module):
    """Token embeddings (plus position vectors, for ``"sinusoidal"`` and ``"learned"``), one head of
    attention over the whole sequence (``MultiHeadAttention``, with ``rope=True`` for ``"rope"``) and
    a linear readout to one logit per token. ``"none"`` gives the attention no position at all.
    ``forward(tokens (batch, n), start=0)`` (the tokens at positions ``start`` onwards) returns ``(logits (batch, n, vocab), weights (batch, 1, n, n))``."""

    def __init__(self, vocab: int, d_model: int, scheme: str, *, max_len: int) -> None:
        super().__init__()
        if scheme not in SCHEMES:
            raise ValueError(f"scheme must be one of {SCHEMES}, got {scheme!r}")
        self.scheme, self.max_len = scheme, require_positive_int(max_len, "max_len")
        self.embed = nn.Embedding(require_positive_int(vocab, "vocab"), require_even_width(d_model, "d_model"))
        self.pos = nn.Parameter(torch.randn(max_len, d_model), requires_grad=scheme == "learned")
        if scheme == "sinusoidal":
            self.pos.data = sinusoidal_table(max_len, d_model, dtype=self.pos.dtype)
        self.attn = MultiHeadAttention(d_model, 1, rope=scheme == "rope")
        self.readout = nn.Linear(d_model, vocab)

    def forward(self, tokens: torch.Tensor, *, start: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
        n = tokens.shape[1]
        start = require_non_negative_int(start, "start")
        if start + n > self.max_len:
            raise ValueError(f"the model has {self.max_len} positions, got {n} tokens at positions {start} to {start + n - 1}")
        at = torch.arange(start, start + n)  # (n,): the positions of the tokens
        x = self.embed(tokens)  # (batch, n, d)
        if self.scheme in ("sinusoidal", "learned"):
            x = x + self.pos[at]  # (batch, n, d): the position vectors, added
        a, weights = self.attn(x, positions=at if self.scheme == "rope" else None)  # (batch, n, d), (batch, 1, n, n)
        return self.readout(a), weights  # (batch, n, vocab)


def echo_accuracy(model: PositionModel, batch: EchoBatch, *, start: int = 0) -> float:
    """The share of positions with a target where the model's most likely token is that target (the
    sequences placed at positions ``start`` onwards)."""
    with torch.no_grad():
        logits, _ = model(batch.tokens, start=start)  # (N, n, vocab)
    has = batch.targets != IGNORE
    return float((logits.argmax(-1) == batch.targets)[has].float().mean())


def train_echo(scheme: str, *, seed: int, vocab: int = 12, d_model: int = 16, shift: int = 2,
               train_len: int = 12, count: int = 128, max_len: int = 64, steps: int = 150,
               lr: float = 0.02) -> TrainingRun:
    """Train a ``PositionModel`` with ``scheme`` on ``count`` echo sequences of length ``train_len``
    (full-batch Adam, ``attnlib.companions.learning.fit``, float64, one thread, ``torch.manual_seed(seed)``). The run records
    the model's, the data's and the optimizer's hyperparameters."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = PositionModel(vocab, d_model, scheme, max_len=max_len).double()
    data = echo_batch(count, train_len, vocab=vocab, shift=shift, seed=seed)
    loss_fn = nn.CrossEntropyLoss(ignore_index=IGNORE)

    def loss() -> torch.Tensor:
        logits, _ = model(data.tokens)  # (count, n, vocab)
        return loss_fn(logits.flatten(0, 1), data.targets.flatten())

    with reproducible():  # one thread: the kernels sum in the same order on every run
        run = fit(model, loss, steps=steps, lr=lr, n_checkpoints=1, metrics=dict)
    run.hyperparameters.update({"scheme": scheme, "seed": seed, "vocab": vocab, "d_model": d_model,
                                "heads": 1, "shift": shift, "train_len": train_len, "sequences": count,
                                "positions": max_len})
    return run


def chance(vocab: int) -> float:
    """The accuracy of a guess: one token in ``vocab``."""
    return 1.0 / require_positive_int(vocab, "vocab")


__all__ = ["IGNORE", "SCHEMES", "EchoBatch", "PositionModel", "chance", "echo_accuracy", "echo_batch", "train_echo"]
