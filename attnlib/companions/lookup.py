"""A task whose right attention is known exactly: key–value lookup.

A sequence lists ``N_ITEMS`` items, each a letter with a digit ("a 3", "b 7", ...), then a query
letter: ``a3 b7 c1 f5 | b`` → 7. Each item is one token with two one-hot parts (its letter and its
digit); the query token has its own one-hot part for the asked letter, so it never matches itself::

    item token  = [onehot(letter) | onehot(digit) | 0]           # (D_IN,)
    query token = [0              | 0             | onehot(letter)]

The ideal attention row of the query is one-hot on the item with the asked letter. A hand-built
layer does exactly that: ``W_Q`` and ``W_K`` send the query's letter and the item's letter to the
same coordinate (score β²/√d for the match, 0 otherwise), ``W_V`` copies the digit, ``W_c`` reads it.

Chapter: "Attention we can check" (book/18_known_attention.ipynb).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from .._validate import require_positive, require_positive_int
from .checks import make_generator
from .learning import AttentionReadout, TrainingRun, fit, reproducible

LETTERS = ("a", "b", "c", "d", "e", "f")
DIGITS = tuple(str(i) for i in range(10))
N_ITEMS = 4
D_IN = 2 * len(LETTERS) + len(DIGITS)
QUERY = N_ITEMS  # the query is the last token


@dataclass(frozen=True)
class LookupBatch:
    """N lookup sequences: the items as features and as ids, the letter asked, and its answer."""

    x: torch.Tensor  # (N, N_ITEMS + 1, D_IN) features: the items, then the query
    keys: torch.Tensor  # (N, N_ITEMS) letter ids of the items
    values: torch.Tensor  # (N, N_ITEMS) digit ids of the items
    asked: torch.Tensor  # (N,) the letter asked
    match: torch.Tensor  # (N,) position of the item with that letter
    labels: torch.Tensor  # (N,) its digit: the answer

    def __len__(self) -> int:
        return int(self.x.shape[0])

    def text(self, i: int) -> str:
        """Sequence ``i`` as text, e.g. ``"a3 b7 c1 f5 | b"``."""
        items = " ".join(LETTERS[k] + DIGITS[v] for k, v in zip(self.keys[i].tolist(), self.values[i].tolist()))
        return f"{items} | {LETTERS[int(self.asked[i])]}"


def _batch(rows: list[tuple[tuple[int, ...], tuple[int, ...], int]]) -> LookupBatch:
    keys = torch.tensor([r[0] for r in rows])  # (N, N_ITEMS)
    values = torch.tensor([r[1] for r in rows])  # (N, N_ITEMS)
    match = torch.tensor([r[2] for r in rows])  # (N,)
    asked = keys[torch.arange(len(rows)), match]
    n_l = len(LETTERS)
    x = torch.zeros(len(rows), N_ITEMS + 1, D_IN)
    x[:, :N_ITEMS] = torch.cat([nn.functional.one_hot(keys, n_l), nn.functional.one_hot(values, len(DIGITS)),
                                torch.zeros(len(rows), N_ITEMS, n_l, dtype=torch.long)], dim=-1).float()
    x[:, QUERY, n_l + len(DIGITS):] = nn.functional.one_hot(asked, n_l).float()
    return LookupBatch(x, keys, values, asked, match, values[torch.arange(len(rows)), match])


def make_lookup_data(n_train: int = 1000, n_test: int = 1000, *, seed: int = 0) -> tuple[LookupBatch, LookupBatch]:
    """Random lookup sequences (distinct letters, random digits, a random item asked): a training set
    and a held-out set with no sequence of the training set. Chapter "Attention we can check"."""
    n_train, n_test = require_positive_int(n_train, "n_train"), require_positive_int(n_test, "n_test")
    rng = make_generator(seed)
    seen: set[tuple] = set()
    train, test = [], []
    while len(test) < n_test:
        row = (tuple(rng.permutation(len(LETTERS))[:N_ITEMS].tolist()),
               tuple(rng.integers(len(DIGITS), size=N_ITEMS).tolist()), int(rng.integers(N_ITEMS)))
        if len(train) < n_train:
            train.append(row)
            seen.add(row)
        elif row not in seen:
            test.append(row)
    return _batch(train), _batch(test)


def ideal_model(beta: float = 6.0, gain: float = 10.0, *, d_model: int = 12) -> AttentionReadout:
    """The hand-built one-head solution: ``W_Q`` maps the asked letter and ``W_K`` the item's letter to
    the same coordinate (times ``beta``), ``W_V`` copies the digit and ``W_c`` reads it (times ``gain``).
    The weight on the matching item is ``e^s / (e^s + N_ITEMS)`` with ``s = beta² / √d_model``."""
    beta, gain = require_positive(beta, "beta"), require_positive(gain, "gain")
    d_model = require_positive_int(d_model, "d_model")
    if d_model < max(len(LETTERS), len(DIGITS)):
        raise ValueError(f"d_model must be at least {max(len(LETTERS), len(DIGITS))}, got {d_model}")
    model = AttentionReadout(D_IN, d_model, len(DIGITS))
    n_l, n_d = len(LETTERS), len(DIGITS)
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()
        for i in range(n_l):
            model.w_q[n_l + n_d + i, i] = beta
            model.w_k[i, i] = beta
        for j in range(n_d):
            model.w_v[n_l + j, j] = 1.0
            model.w_c[j, j] = gain
    return model


def train_lookup(train: LookupBatch, test: LookupBatch, *, n_heads: int = 1, d_model: int = 12, seed: int = 0,
                 steps: int = 150, lr: float = 0.05, n_checkpoints: int = 10) -> TrainingRun:
    """Train an ``AttentionReadout`` read at the query token (seeded, deterministic). Checkpoint
    metrics: held-out accuracy and the mean weight of each head on the matching item."""
    gen = torch.Generator().manual_seed(int(make_generator(seed, n_heads).integers(2**31)))
    query = torch.full((len(train),), QUERY)
    with reproducible():
        model = AttentionReadout(D_IN, d_model, len(DIGITS), n_heads=n_heads, generator=gen)
        return fit(model, lambda: nn.functional.cross_entropy(model(train.x, query)[0], train.labels),
                   steps=steps, lr=lr, n_checkpoints=n_checkpoints, metrics=lambda: lookup_metrics(model, test))


def lookup_metrics(model: AttentionReadout, batch: LookupBatch) -> dict[str, float]:
    """Accuracy, and per head the mean weight of the query on the matching item (1 is ideal) and the
    mean total-variation distance of its row from the ideal one-hot row (0 is ideal)."""
    with torch.no_grad():
        logits, weights = model(batch.x, torch.full((len(batch),), QUERY))
    rows = weights[:, :, QUERY]  # (N, heads, n)
    ideal = nn.functional.one_hot(batch.match, N_ITEMS + 1).double()[:, None, :]  # (N, 1, n)
    out = {"accuracy": float((logits.argmax(-1) == batch.labels).double().mean())}
    for h in range(rows.shape[1]):
        out[f"head{h + 1}_weight_on_match"] = float(rows[torch.arange(len(batch)), h, batch.match].mean())
        out[f"head{h + 1}_tv_distance"] = float(0.5 * (rows[:, h].double() - ideal[:, 0]).abs().sum(-1).mean())
    return out


def letter_match_matrix(model: AttentionReadout, head: int = 0) -> np.ndarray:
    """``(W_Q W_Kᵀ)`` of one head restricted to (asked letter) × (item letter): the score a query for
    letter i gives an item with letter j, before the 1/√d scaling. The hand-built layer's is β²·I."""
    h = require_positive_int(head + 1, "head + 1") - 1
    if h >= model.n_heads:
        raise ValueError(f"head must be in [0, {model.n_heads}), got {head}")
    n_l, n_d = len(LETTERS), len(DIGITS)
    d_head = model.w_q.shape[1] // model.n_heads
    cols = slice(h * d_head, (h + 1) * d_head)
    wq = model.w_q.detach().double()[n_l + n_d:, cols]  # (letters, d_head)
    wk = model.w_k.detach().double()[:n_l, cols]  # (letters, d_head)
    return (wq @ wk.T).numpy()  # (letters, letters)


def diagonal_cosine(m: np.ndarray) -> float:
    """Cosine similarity of a square matrix with the identity after removing each row's mean (what
    softmax ignores): 1 means the same pattern as the hand-built ``β²·I``, 0 no pattern at all."""
    m = np.asarray(m, dtype=np.float64)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] < 2:
        raise ValueError(f"m must be a square matrix of size >= 2, got shape {m.shape}")
    eye = np.eye(m.shape[0])
    a = m - m.mean(axis=1, keepdims=True)
    b = eye - eye.mean(axis=1, keepdims=True)
    norm = float(np.linalg.norm(a))
    return 0.0 if norm == 0 else float((a * b).sum() / (norm * np.linalg.norm(b)))  # a flat matrix has no pattern
