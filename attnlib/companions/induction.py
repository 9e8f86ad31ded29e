"""Watch an induction head form: the float64 twin of the widget of "Two layers that compose".

An attention-only transformer (token embedding + learned positions, ``layers`` layers of ``heads`` causal
heads whose outputs are added to the residual stream, an unembedding; no MLP, no LayerNorm) learns to
predict the next token of random sequences in which one random segment is repeated right after itself.
The reader's settings go in; the data, the initial weights and every Adam step come out the same in
Python and in the page (``attnlib/widgets/induction_core.js`` repeats this module line for line):

* every random number is a draw of :class:`attnlib.companions.sampler.Mulberry32` (normals: the Box–Muller
  pairs of ``attnlib.companions.trainer.normal_draws``);
* the forward and backward passes are written out in NumPy, the gradients by hand (equal to torch
  autograd: tests/lib/test_induction.py);
* the update is ``attnlib.companions.trainer.adam_update`` (the book's Adam, ``learning.adam_step``).

Each step trains on a fresh batch and measures, on that batch and at the weights before the update, the
loss, the loss on the second copy and on the first, and every head's previous-token and prefix-matching
scores (``attnlib.companions.head_scores``).

Chapter: "Two layers that compose" (book/20_induction_heads.ipynb).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from . import head_scores
from .checks import completed_settings
from .sampler import Mulberry32
from .trainer import DIVERGED, WEIGHT_STREAM, AdamRun, normal_draws

#: The settings the widget opens with, those of the chapter's run.
DEFAULTS: dict[str, Any] = {"layers": 2, "heads": 2, "d_model": 32, "vocab": 32, "context": 16,
                            "repeat_min": 3, "repeat_max": 8, "batch": 32, "lr": 0.01, "steps": 500, "seed": 0}
#: The ranges the page accepts, both ends included.
LIMITS: dict[str, tuple[int, int]] = {"layers": (1, 2), "heads": (1, 4), "d_model": (1, 64), "vocab": (2, 64),
                                      "context": (4, 64), "repeat_min": (2, 32), "repeat_max": (2, 32),
                                      "batch": (1, 64), "steps": (1, 3000)}
WATCH_STREAM = 0x85EBCA6B  # the watched sequence comes from Mulberry32((seed + this) mod 2**32)


# --- settings ---------------------------------------------------------------------------------------------
def _int_in(s: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    value = s[key]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
        raise ValueError(f"{key} must be a whole number from {lo} to {hi}, got {value!r:.40}")
    return int(value)


def check_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings completed from ``DEFAULTS`` and checked; ``ValueError`` in the reader's terms."""
    s = completed_settings(settings, DEFAULTS)
    out = {k: _int_in(s, k, *LIMITS[k]) for k in LIMITS}
    out["seed"] = _int_in(s, "seed", 0, 2**32 - 1)
    lr = s["lr"]
    if isinstance(lr, bool) or not isinstance(lr, (int, float)) or not (math.isfinite(lr) and lr > 0):
        raise ValueError(f"the learning rate must be a finite number > 0, got {lr!r:.40}")
    out["lr"] = float(lr)
    if out["d_model"] % out["heads"]:
        raise ValueError(f"d_model ({out['d_model']}) must split evenly into {out['heads']} heads")
    if out["repeat_min"] > out["repeat_max"]:
        raise ValueError(f"the shortest repeat ({out['repeat_min']}) is longer than the longest ({out['repeat_max']})")
    if 2 * out["repeat_max"] > out["context"]:
        raise ValueError(f"a repeat of {out['repeat_max']} tokens, twice, does not fit in a context of "
                         f"{out['context']} tokens: make the repeat at most {out['context'] // 2}")
    return out


# --- the data ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Batch:
    """``tokens`` ``(B, n)`` int64; ``start`` and ``length`` ``(B,)``: the first copy is ``tokens[b, start :
    start + length]`` and the second copy follows it at once."""

    tokens: np.ndarray
    start: np.ndarray
    length: np.ndarray

    def copies(self) -> tuple[np.ndarray, np.ndarray]:
        """``(second, first)``, each ``(B, n)`` booleans: the positions whose next token is a predictable
        token of the second copy (all but its first), and the positions at the same places in the first."""
        i = np.arange(self.tokens.shape[1])[None, :]
        s, m = self.start[:, None], self.length[:, None]
        return (i >= s + m) & (i <= s + 2 * m - 2), (i >= s) & (i <= s + m - 2)

    def second_copy(self) -> np.ndarray:
        """``(B, n)`` booleans: the positions of the second copy (the queries of the prefix-matching score)."""
        i = np.arange(self.tokens.shape[1])[None, :]
        return (i >= (self.start + self.length)[:, None]) & (i < (self.start + 2 * self.length)[:, None])


def draw_batch(draw: Mulberry32, size: int, vocab: int, context: int, repeat_min: int, repeat_max: int) -> Batch:
    """``size`` sequences, each from the next draws: the repeat's length in [repeat_min, repeat_max], its
    start, then ``context`` random tokens; the tokens after the first copy are overwritten by it."""
    tokens = np.zeros((size, context), dtype=np.int64)
    start, length = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
    for b in range(size):
        m = repeat_min + math.floor(draw() * (repeat_max - repeat_min + 1))
        s = math.floor(draw() * (context - 2 * m + 1))
        row = [math.floor(draw() * vocab) for _ in range(context)]
        row[s + m: s + 2 * m] = row[s: s + m]
        tokens[b], start[b], length[b] = row, s, m
    return Batch(tokens, start, length)


def watched(settings: Mapping[str, Any]) -> Batch:
    """The one sequence whose attention patterns the page draws (from its own stream)."""
    s = check_settings(settings)
    draw = Mulberry32((s["seed"] + WATCH_STREAM) & 0xFFFFFFFF)
    return draw_batch(draw, 1, s["vocab"], s["context"], s["repeat_max"], s["repeat_max"])


# --- the model --------------------------------------------------------------------------------------------
def param_names(layers: int) -> tuple[str, ...]:
    """The parameters in the order they are drawn and updated."""
    per_layer = [f"{w}{layer}" for layer in range(layers) for w in ("w_q", "w_k", "w_v", "w_o")]
    return ("embed", "pos", *per_layer, "unembed")


def init_weights(settings: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Normals from ``Mulberry32((seed + WEIGHT_STREAM) mod 2**32)``, filled in the order of
    ``param_names``, row by row; every matrix but the embedding and positions divided by √d_model."""
    s = check_settings(settings)
    d, v, n = s["d_model"], s["vocab"], s["context"]
    normal = normal_draws(Mulberry32((s["seed"] + WEIGHT_STREAM) & 0xFFFFFFFF))
    shapes = {"embed": (v, d), "pos": (n, d), "unembed": (d, v)}
    w = {}
    for name in param_names(s["layers"]):
        shape = shapes.get(name, (d, d))
        w[name] = np.array([normal() for _ in range(math.prod(shape))]).reshape(shape)
        if name not in ("embed", "pos"):
            w[name] = w[name] / math.sqrt(d)
    return w


def _heads(x: np.ndarray, h: int) -> np.ndarray:
    b, n, d = x.shape
    return x.reshape(b, n, h, d // h).transpose(0, 2, 1, 3)  # (B, H, n, d_head)


def _merge(z: np.ndarray) -> np.ndarray:
    b, h, n, dh = z.shape
    return z.transpose(0, 2, 1, 3).reshape(b, n, h * dh)  # (B, n, d)


def forward(w: Mapping[str, np.ndarray], tokens: np.ndarray, heads: int,
            keep: np.ndarray | None = None) -> dict[str, Any]:
    """The model on ``tokens`` ``(B, n)``. ``keep`` ``(layers, heads)`` multiplies each head's output (0
    switches a head off). Returns the residual stream after each layer, every layer's q, k, v and
    attention weights ``a`` ``(B, H, n, n)``, the logits, the probabilities, the loss at each position
    ``(B, n - 1)`` and its mean."""
    layers = (len(w) - 3) // 4
    keep = np.ones((layers, heads)) if keep is None else np.asarray(keep, dtype=np.float64)
    n, d = tokens.shape[1], w["embed"].shape[1]
    allowed = np.tril(np.ones((n, n), dtype=bool))
    xs = [w["embed"][tokens] + w["pos"]]  # (B, n, d): the residual stream
    cache = []
    for layer in range(layers):
        x = xs[-1]
        q, k, v = (_heads(x @ w[f"{m}{layer}"], heads) for m in ("w_q", "w_k", "w_v"))
        scores = np.where(allowed, q @ k.transpose(0, 1, 3, 2) / math.sqrt(d // heads), -np.inf)
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        a = e / e.sum(axis=-1, keepdims=True)  # (B, H, n, n): each row sums to 1
        z = (a @ v) * keep[layer][None, :, None, None]  # a head switched off writes nothing
        xs.append(x + _merge(z) @ w[f"w_o{layer}"])  # the layer's output added to the stream
        cache.append({"q": q, "k": k, "v": v, "a": a, "z": z})
    logits = xs[-1] @ w["unembed"]  # (B, n, vocab)
    top = logits.max(axis=-1, keepdims=True)
    el = np.exp(logits - top)
    total = el.sum(axis=-1, keepdims=True)
    picked = np.take_along_axis(logits[:, :-1], tokens[:, 1:, None], axis=-1)[..., 0]
    losses = np.log(total[:, :-1, 0]) + top[:, :-1, 0] - picked  # (B, n - 1): -log p(next token)
    return {"xs": xs, "layers": cache, "keep": keep, "logits": logits, "probs": el / total,
            "losses": losses, "loss": float(losses.mean())}


def backward(w: Mapping[str, np.ndarray], tokens: np.ndarray, heads: int, f: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """The gradient of the mean loss on every parameter, by the chain rule written out (the softmax's
    Jacobian in one line, as chapter "Attention that learns" derives it)."""
    bsz, n = tokens.shape
    d = w["embed"].shape[1]
    dlogits = f["probs"].copy()
    dlogits[:, -1] = 0.0  # the last position predicts nothing
    np.put_along_axis(dlogits[:, :-1], tokens[:, 1:, None], np.take_along_axis(
        dlogits[:, :-1], tokens[:, 1:, None], axis=-1) - 1.0, axis=-1)
    dlogits /= bsz * (n - 1)
    g = {"unembed": f["xs"][-1].reshape(-1, d).T @ dlogits.reshape(bsz * n, -1)}
    dx = dlogits @ w["unembed"].T  # (B, n, d): the gradient on the residual stream
    for layer in reversed(range(len(f["layers"]))):
        c, x = f["layers"][layer], f["xs"][layer]
        g[f"w_o{layer}"] = _merge(c["z"]).reshape(-1, d).T @ dx.reshape(-1, d)
        dz = _heads(dx @ w[f"w_o{layer}"].T, heads) * f["keep"][layer][None, :, None, None]
        da = dz @ c["v"].transpose(0, 1, 3, 2)  # (B, H, n, n)
        dv = c["a"].transpose(0, 1, 3, 2) @ dz
        ds = c["a"] * (da - (c["a"] * da).sum(axis=-1, keepdims=True)) / math.sqrt(d // heads)
        dq, dk = ds @ c["k"], ds.transpose(0, 1, 3, 2) @ c["q"]
        dx = dx.copy()
        for name, dm in (("w_q", dq), ("w_k", dk), ("w_v", dv)):
            dm = _merge(dm)
            g[f"{name}{layer}"] = x.reshape(-1, d).T @ dm.reshape(-1, d)
            dx += dm @ w[f"{name}{layer}"].T
    g["embed"] = np.zeros_like(w["embed"])
    np.add.at(g["embed"], tokens, dx)
    g["pos"] = dx.sum(axis=0)
    return g


# --- the measures -----------------------------------------------------------------------------------------
def measure(f: Mapping[str, Any], batch: Batch) -> dict[str, Any]:
    """On one forward pass: the loss on the second copy and on the first (``Batch.copies``), and every
    head's previous-token, duplicate-token and prefix-matching scores (``head_scores``; the last two over
    the queries of the second copy), layer by layer, ``(layers, heads)``."""
    second, first = batch.copies()
    losses = f["losses"]
    tokens, queries = torch.from_numpy(batch.tokens), torch.from_numpy(batch.second_copy())
    prev, dup, pm = [], [], []
    for c in f["layers"]:
        a = torch.from_numpy(c["a"])
        prev.append(head_scores.previous_token_score(a).numpy())
        dup.append(head_scores.duplicate_token_score(a, tokens, queries).numpy())
        pm.append(head_scores.prefix_matching_score(a, tokens, queries).numpy())
    return {"second": float(losses[second[:, :-1]].mean()), "first": float(losses[first[:, :-1]].mean()),
            "previous": np.array(prev), "duplicate": np.array(dup), "prefix": np.array(pm)}


# --- training ---------------------------------------------------------------------------------------------
@dataclass
class Trainer(AdamRun):
    """A run that can stop and continue: ``run()`` trains until ``steps`` updates are done (or ``stop``
    returns True after a step, or the loss diverges). Index ``s`` of ``losses``, ``second``, ``first``,
    ``previous``, ``duplicate``, ``prefix`` is measured on the batch of step ``s`` at the weights after ``s`` updates.
    The widget "Watch an induction head form" computes the same numbers in the page."""

    settings: Mapping[str, Any]
    weights: dict[str, np.ndarray] | None = None  # None: ``init_weights``
    losses: list[float] = field(default_factory=list)
    second: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    previous: list[np.ndarray] = field(default_factory=list)
    duplicate: list[np.ndarray] = field(default_factory=list)
    prefix: list[np.ndarray] = field(default_factory=list)
    stopped: str | None = None

    def __post_init__(self) -> None:
        self.settings = s = check_settings(self.settings)
        self.names = param_names(s["layers"])
        self.weights = {k: np.array(x, dtype=np.float64) for k, x in (self.weights or init_weights(s)).items()}
        self.m = {k: np.zeros_like(x) for k, x in self.weights.items()}
        self.v = {k: np.zeros_like(x) for k, x in self.weights.items()}
        self.b1t, self.b2t, self._grads = 1.0, 1.0, None
        self.draw = Mulberry32(s["seed"])

    def _measure(self) -> bool:
        """The next batch: its loss, measures and gradients at the current weights; False if diverged."""
        s = self.settings
        batch = draw_batch(self.draw, s["batch"], s["vocab"], s["context"], s["repeat_min"], s["repeat_max"])
        f = forward(self.weights, batch.tokens, s["heads"])
        if not math.isfinite(f["loss"]) or (self.losses and f["loss"] > DIVERGED * self.losses[0]):
            self.stopped = (f"the loss diverged at step {len(self.losses)} ({f['loss']:.3g}, from {self.losses[0]:.3g} "
                            f"at step 0): the learning rate {s['lr']:g} is too large. The weights of step "
                            f"{len(self.losses) - 1} are kept") if self.losses else "the loss is not finite at step 0"
            return False
        got = measure(f, batch)
        self.losses.append(f["loss"])
        self.second.append(got["second"])
        self.first.append(got["first"])
        self.previous.append(got["previous"])
        self.duplicate.append(got["duplicate"])
        self.prefix.append(got["prefix"])
        self._grads = backward(self.weights, batch.tokens, s["heads"], f)
        return True


def train(settings: Mapping[str, Any] | None = None) -> Trainer:
    """Train with ``settings`` (missing keys from ``DEFAULTS``) to the end."""
    return Trainer(dict(settings or {})).run()


def crossing(values: Sequence[float], level: float = 0.4) -> int | None:
    """The first step from which ``values`` stays above ``level`` for 10 steps running (None if never)."""
    above = np.asarray(values) > level
    for s in range(len(above) - 9):
        if above[s: s + 10].all():
            return s
    return None
