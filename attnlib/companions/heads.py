"""Heads: seeded, untrained multi-head attention maps, and a task that needs two heads.

- ``untrained_head_weights``: what heads look like before learning (chapter "Multi-head attention and
  the causal mask", and the errata rows for document 002's illustrative head weights).
- The *pair lookup* (chapter "Attention we can check"): the key–value lookup of ``attnlib.companions.lookup``
  asked for two letters at once, ``a3 b7 c1 f5 | b f`` → (7, 5). The right attention row for the first
  answer is one-hot on one item and for the second on another item, so one row cannot be right for
  both: one head must blend the two items, two heads can each take one::

      item token  = [onehot(letter) | onehot(digit) | 0              | 0             ]   # (PAIR_D_IN,)
      query token = [0              | 0             | onehot(first)  | onehot(second)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import nn

from .._validate import require_positive_int
from ..modules import MultiHeadAttention
from .checks import make_generator
from .learning import AttentionReadout, TrainingRun, fit, reproducible
from .lookup import DIGITS, LETTERS, N_ITEMS, QUERY


def untrained_head_weights(
    tokens: Sequence[str], *, d_model: int = 32, num_heads: int = 8, seed: int = 0
) -> torch.Tensor:
    """Attention weights ``(num_heads, n, n)`` of a freshly initialised ``MultiHeadAttention``.

    The token embeddings are seeded random vectors (one per position, ``N(0, 1)``), and the
    module's projections are PyTorch's default initialisation under ``torch.manual_seed(seed)``.
    Nothing is trained, so the maps show what heads look like *before* learning: different from
    each other only by chance. The global RNG state is restored afterwards.

    Used in: "Multi-head attention and the causal mask".
    """
    if isinstance(tokens, (str, bytes)) or not isinstance(tokens, Sequence) or len(tokens) == 0:
        raise ValueError(f"tokens must be a non-empty sequence of strings, got {tokens!r}")
    d_model = require_positive_int(d_model, "d_model")
    num_heads = require_positive_int(num_heads, "num_heads")
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        mha = MultiHeadAttention(d_model, num_heads)
        x = torch.randn(1, len(tokens), d_model)  # (1, n, d_model)
        with torch.no_grad():
            _, weights = mha(x)  # (1, h, n, n)
    return weights[0]  # (h, n, n)


# --- a task that needs two heads: the pair lookup -------------------------------------------------
PAIR_D_IN = 3 * len(LETTERS) + len(DIGITS)


@dataclass(frozen=True)
class PairBatch:
    """N pair-lookup sequences: features, the items, where the two asked items stand, their digits."""

    x: torch.Tensor  # (N, N_ITEMS + 1, PAIR_D_IN): the items, then the query
    keys: torch.Tensor  # (N, N_ITEMS) letter ids of the items
    values: torch.Tensor  # (N, N_ITEMS) digit ids of the items
    asked: torch.Tensor  # (N, 2) positions of the first and of the second asked item
    labels: torch.Tensor  # (N, 2) their digits: the two answers

    def __len__(self) -> int:
        return int(self.x.shape[0])

    def text(self, i: int) -> str:
        """Sequence ``i`` as text, e.g. ``"a3 b7 c1 f5 | b f"``."""
        items = " ".join(LETTERS[k] + DIGITS[v] for k, v in zip(self.keys[i].tolist(), self.values[i].tolist()))
        return f"{items} | " + " ".join(LETTERS[int(self.keys[i, int(p)])] for p in self.asked[i])


def _pair_batch(rows: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, int]]]) -> PairBatch:
    n_l, n_d, n = len(LETTERS), len(DIGITS), len(rows)
    keys, values, asked = (torch.tensor([r[k] for r in rows]) for k in range(3))  # (n, items), (n, items), (n, 2)
    b = torch.arange(n)
    x = torch.zeros(n, N_ITEMS + 1, PAIR_D_IN)
    x[:, :N_ITEMS, :n_l] = nn.functional.one_hot(keys, n_l).float()
    x[:, :N_ITEMS, n_l:n_l + n_d] = nn.functional.one_hot(values, n_d).float()
    for j in range(2):  # the query carries the first and the second asked letter in parts of their own
        x[:, QUERY, n_l + n_d + j * n_l:n_l + n_d + (j + 1) * n_l] = nn.functional.one_hot(keys[b, asked[:, j]], n_l).float()
    labels = torch.stack([values[b, asked[:, 0]], values[b, asked[:, 1]]], dim=1)  # (n, 2)
    return PairBatch(x, keys, values, asked, labels)


def make_pair_data(n_train: int = 2000, n_test: int = 1000, *, seed: int = 0) -> tuple[PairBatch, PairBatch]:
    """Random pair-lookup sequences (distinct letters, random digits, two different items asked): a
    training set and a held-out set with no sequence of the training set. Chapter "Attention we can check"."""
    n_train, n_test = require_positive_int(n_train, "n_train"), require_positive_int(n_test, "n_test")
    rng = make_generator(seed)

    def draw(count: int) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
        return [(tuple(rng.permutation(len(LETTERS))[:N_ITEMS].tolist()), tuple(rng.integers(len(DIGITS), size=N_ITEMS).tolist()),
                 tuple(rng.permutation(N_ITEMS)[:2].tolist())) for _ in range(count)]

    train = draw(n_train)
    seen, test = set(train), []
    while len(test) < n_test:  # a repeat of a training sequence is drawn again
        test += [row for row in draw(n_test - len(test)) if row not in seen]
    return _pair_batch(train), _pair_batch(test)


def pair_loss(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of the first answer (logits ``[:, :10]``) plus that of the second (``[:, 10:]``)."""
    n_d = len(DIGITS)
    if logits.ndim != 2 or logits.shape[1] != 2 * n_d or labels.shape != (logits.shape[0], 2):
        raise ValueError(f"logits must be (N, {2 * n_d}) and labels (N, 2), got {tuple(logits.shape)} and {tuple(labels.shape)}")
    return nn.functional.cross_entropy(logits[:, :n_d], labels[:, 0]) + nn.functional.cross_entropy(logits[:, n_d:], labels[:, 1])


def train_pair_lookup(train: PairBatch, test: PairBatch, *, n_heads: int, d_model: int = 12, seed: int = 0,
                      steps: int = 200, lr: float = 0.05, n_checkpoints: int = 4) -> TrainingRun:
    """Train an ``AttentionReadout`` (``n_heads`` heads, ``2 × 10`` logits) read at the query token,
    seeded and deterministic; the checkpoints carry ``pair_metrics`` on ``test``, and the run its
    hyperparameters. Chapter "Attention we can check"."""
    n_heads, d_model = require_positive_int(n_heads, "n_heads"), require_positive_int(d_model, "d_model")
    for name, batch in (("train", train), ("test", test)):
        if not isinstance(batch, PairBatch):
            raise TypeError(f"{name} must be a PairBatch (from make_pair_data), got {type(batch).__name__}")
    gen = torch.Generator().manual_seed(int(make_generator(seed).integers(2**31)))
    query = torch.full((len(train),), QUERY)
    with reproducible():
        model = AttentionReadout(PAIR_D_IN, d_model, 2 * len(DIGITS), n_heads=n_heads, generator=gen)
        run = fit(model, lambda: pair_loss(model(train.x, query)[0], train.labels), steps=steps, lr=lr,
                  n_checkpoints=n_checkpoints, metrics=lambda: pair_metrics(model, test))
    run.hyperparameters.update(d_model=d_model, heads=n_heads, seed=seed, training_sequences=len(train))
    return run


def pair_metrics(model: AttentionReadout, batch: PairBatch) -> dict[str, float]:
    """Held-out accuracy (both answers right, and each answer alone) and per head ``k``: the mean weight
    of the query on the first and on the second asked item, and their difference ``head{k}_preference``
    (+1: the head reads the first asked item only, -1: the second only, 0: both alike)."""
    if not isinstance(model, AttentionReadout) or not isinstance(batch, PairBatch):
        raise TypeError(f"pair_metrics needs an AttentionReadout and a PairBatch, got {type(model).__name__} "
                        f"and {type(batch).__name__}")
    with torch.no_grad():
        logits, weights = model(batch.x, torch.full((len(batch),), QUERY))  # (N, 20), (N, heads, n, n)
    n_d, b = len(DIGITS), torch.arange(len(batch))
    right = torch.stack([logits[:, :n_d].argmax(-1), logits[:, n_d:].argmax(-1)], dim=1) == batch.labels  # (N, 2)
    out = {"accuracy": float(right.all(dim=1).double().mean()), "first_accuracy": float(right[:, 0].double().mean()),
           "second_accuracy": float(right[:, 1].double().mean())}
    rows = weights[:, :, QUERY].double()  # (N, heads, n)
    for h in range(rows.shape[1]):
        first, second = (float(rows[b, h, batch.asked[:, j]].mean()) for j in range(2))
        out.update({f"head{h + 1}_on_first": first, f"head{h + 1}_on_second": second,
                    f"head{h + 1}_preference": first - second})
    return out
