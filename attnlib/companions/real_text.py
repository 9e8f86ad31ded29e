"""A character-level language model on a real text: the text, its tokenizer, n-gram baselines, the
model's training, and what its heads do with text it never trained on.

* :func:`load_text` and :func:`split`: Shakespeare (``data/tinyshakespeare.txt``, public domain; see
  ``data/README.md``), cut once into a training part and a held-out part that training never reads;
* :class:`Chars`: the tokenizer, one id per character seen in the training text;
* :class:`NGram`: next-character probabilities counted on the training text (Witten-Bell smoothing,
  each order backing off to the one below, the unigram add-one smoothed), scored in bits per character;
* :func:`make_model`, :func:`train_char_lm`, :func:`load_model`: the book's ``TinyLM`` with rotary
  positions, trained with AdamW on random windows of the training text; the committed weights and
  per-step log (``python -m tools.train_real_text`` writes them);
* :func:`bits_per_char`, :func:`ablate`: the model scored on held-out windows, with a head's output
  set to zero;
* :func:`stream_loss`: a stream longer than the context decoded with a sliding window, a window plus
  the first tokens kept (the *attention sink* of Xiao et al. 2023), or each window recomputed.

Chapter: "Attention on real text".
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from ..positions import apply_rope
from ..transformer import TinyLM, gelu
from .learning import reproducible

DATA = Path(__file__).resolve().parent / "data"
TEXT = DATA / "tinyshakespeare.txt"
WEIGHTS = DATA / "real_text_lm.npz"
LOG = DATA / "real_text_lm_log.json"
HELD_OUT = 0.1  # the last tenth of the text is never trained on
#: The model's shape and its training, as ``python -m tools.train_real_text`` ran them.
SHAPE = {"d_model": 64, "num_heads": 4, "d_ff": 256, "n_layers": 2, "context": 64}
TRAINING = {"steps": 2000, "batch": 32, "lr": 3e-3, "weight_decay": 0.01, "seed": 0}


def load_text() -> str:
    """The whole text, as committed (1,115,394 characters)."""
    return TEXT.read_text(encoding="utf-8")


def split(text: str, held_out: float = HELD_OUT) -> tuple[str, str]:
    """``(train, held)``: the text cut once, the last ``held_out`` of it kept for measuring only."""
    if not 0 < held_out < 1:
        raise ValueError(f"held_out must be a fraction between 0 and 1, got {held_out!r}")
    cut = int(len(text) * (1 - held_out))
    return text[:cut], text[cut:]


class Chars:
    """Characters to ids and back: the vocabulary is every character of ``text``, sorted."""

    def __init__(self, text: str) -> None:
        self.chars = sorted(set(text))
        self.index = {c: i for i, c in enumerate(self.chars)}

    def __len__(self) -> int:
        return len(self.chars)

    def encode(self, s: str) -> list[int]:
        unknown = sorted(set(s) - set(self.index))
        if unknown:
            shown = "".join(unknown[:10]) + ("…" if len(unknown) > 10 else "")
            raise ValueError(f"{len(unknown)} character(s) the text never uses: {shown!r}")
        return [self.index[c] for c in s]

    def decode(self, ids: list[int]) -> str:
        return "".join(self.chars[i] for i in ids)


class NGram:
    """Next-character probabilities from the ``order - 1`` characters before, counted on ``train``.

    Witten-Bell smoothing: after a context ``h`` seen ``N(h)`` times with ``T(h)`` different next
    characters, ``P(c | h) = (N(h, c) + T(h) P(c | h')) / (N(h) + T(h))``, where ``h'`` drops the oldest
    character; the unigram is add-one smoothed over the vocabulary, so no character has probability 0.
    """

    def __init__(self, train: str, order: int, vocab: list[str]) -> None:
        if not isinstance(order, int) or order < 1:
            raise ValueError(f"order must be an int >= 1, got {order!r}")
        self.order, self.vocab = order, list(vocab)
        self.unigram = Counter(train)
        self.grams = [Counter(train[i:i + k + 1] for i in range(len(train) - k)) for k in range(1, order)]
        self.contexts, self.types = [], []
        for k, grams in enumerate(self.grams, start=1):
            ctx, types = Counter(), Counter()
            for g, n in grams.items():
                ctx[g[:k]] += n
                types[g[:k]] += 1
            self.contexts.append(ctx)
            self.types.append(types)
        self.total = len(train)

    def prob(self, history: str, c: str) -> float:
        p = (self.unigram[c] + 1) / (self.total + len(self.vocab))
        for k in range(1, min(self.order - 1, len(history)) + 1):
            h = history[-k:]
            n, t = self.contexts[k - 1][h], self.types[k - 1][h]
            if n == 0:
                break
            p = (self.grams[k - 1][h + c] + t * p) / (n + t)
        return p

    def bits_per_char(self, text: str) -> float:
        """The mean of ``-log2 P(next | before)`` over every character of ``text`` after the first."""
        w = self.order - 1
        return -sum(math.log2(self.prob(text[max(0, i - w):i], text[i])) for i in range(1, len(text))) / (len(text) - 1)


def make_model(vocab_size: int, seed: int = 0) -> TinyLM:
    """The chapter's model, seeded: ``TinyLM`` with rotary positions and :data:`SHAPE`."""
    torch.manual_seed(seed)
    return TinyLM(vocab_size, rope=True, **SHAPE)


def windows(ids: torch.Tensor, starts: np.ndarray, length: int) -> tuple[torch.Tensor, torch.Tensor]:
    """``(inputs, next)``, both ``(len(starts), length)``: the characters at each start and the ones after."""
    idx = torch.from_numpy(starts)[:, None] + torch.arange(length + 1)  # (batch, length + 1)
    cut = ids[idx]
    return cut[:, :-1], cut[:, 1:]


class Bar:
    """A progress bar on stderr: ``bar(step, text)``."""

    def __init__(self, total: int, width: int = 30) -> None:
        self.total, self.width, self.start = total, width, time.perf_counter()

    def __call__(self, step: int, text: str = "") -> None:
        full = self.width * step // self.total
        sys.stderr.write(f"\r[{'#' * full}{'.' * (self.width - full)}] {step}/{self.total} {text} "
                         f"({time.perf_counter() - self.start:.0f} s)")
        if step == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def train_char_lm(model: TinyLM, train_ids: torch.Tensor, *, steps: int, batch: int, lr: float,
                  weight_decay: float, seed: int, stop_after: int | None = None,
                  progress: Callable[[int, str], None] | None = None) -> list[float]:
    """AdamW on random windows of ``train_ids`` (the windows drawn from ``seed``), one thread, the
    learning rate warmed up over 100 steps then on a cosine to 0 at ``steps``; returns the training
    loss (nats) before every update. ``stop_after`` stops early (the schedule is still ``steps``
    long: the first updates are those of the full run). The model is left in eval mode."""
    rng, n = np.random.default_rng(seed), model.context
    losses = []
    with reproducible(threads=1):
        opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay, foreach=True)
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 100)
                                                  * 0.5 * (1 + math.cos(math.pi * s / steps)))
        model.train()
        for step in range(1, (stop_after or steps) + 1):
            x, y = windows(train_ids, rng.integers(len(train_ids) - n - 1, size=batch), n)  # (batch, n) each
            logits, _ = model(x)
            loss = F.cross_entropy(logits.flatten(0, 1), y.flatten())
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            losses.append(loss.item())
            if progress is not None and (step % 10 == 0 or step == (stop_after or steps)):
                progress(step, f"loss {losses[-1]:.3f}")
    model.eval()
    return losses


def save_model(model: TinyLM, losses: list[float], path: Path = WEIGHTS, log: Path = LOG) -> None:
    """The weights as float32 arrays (``.npz``, no pickle) and the log as JSON."""
    np.savez_compressed(path, **{k: v.detach().numpy().astype(np.float32) for k, v in model.state_dict().items()})
    log.write_text(json.dumps({"shape": SHAPE, "training": TRAINING, "losses": [round(x, 6) for x in losses]},
                              indent=0) + "\n")


def load_model(vocab_size: int, path: Path = WEIGHTS, dtype: torch.dtype = torch.float32) -> TinyLM:
    """The committed model, in eval mode, in ``dtype``."""
    model = make_model(vocab_size)
    with np.load(path, allow_pickle=False) as arrays:
        model.load_state_dict({k: torch.from_numpy(arrays[k]) for k in arrays.files})
    return model.to(dtype).eval()


def training_log(path: Path = LOG) -> dict:
    return json.loads(path.read_text())


@torch.no_grad()
def held_out_windows(ids: torch.Tensor, count: int, length: int, seed: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    """``count`` windows of ``length`` characters (and the next ones) from ``ids``, starts drawn from ``seed``."""
    starts = np.random.default_rng(seed).integers(len(ids) - length - 1, size=count)
    return windows(ids, starts, length)


@torch.no_grad()
def bits_per_char(model: TinyLM, x: torch.Tensor, y: torch.Tensor) -> float:
    """The mean next-character cross-entropy over every position of the windows, in bits."""
    logits, _ = model(x)
    return F.cross_entropy(logits.flatten(0, 1), y.flatten()).item() / math.log(2)


@contextmanager
def ablate(model: TinyLM, layer: int, head: int) -> Iterator[None]:
    """Inside the block, head ``head`` of block ``layer`` adds nothing: its output is set to zero
    before the heads are joined by ``W_o``."""
    attn = model.blocks[layer].attn
    lo, hi = head * attn.d_k, (head + 1) * attn.d_k

    def zero(_module, args):
        (heads,) = args
        heads = heads.clone()
        heads[..., lo:hi] = 0
        return (heads,)

    handle = attn.W_o.register_forward_pre_hook(zero)
    try:
        yield
    finally:
        handle.remove()


@dataclass(frozen=True)
class Stream:
    """How a stream longer than the context is decoded: keep the ``sinks`` first tokens and the
    ``window`` latest (a cache), or recompute each ``window`` from scratch."""

    window: int
    sinks: int = 0
    recompute: bool = False


@torch.no_grad()
def stream_loss(model: TinyLM, ids: list[int], how: Stream) -> np.ndarray:
    """The loss (nats) of predicting ``ids[t + 1]`` at every ``t``, decoding ``ids`` one token at a time.

    With a cache, each block keeps the keys and values of at most ``how.sinks`` first tokens and the
    ``how.window`` latest ones; as in StreamingLLM, the keys are kept before rotation and turned at
    their place in the cache, so no distance exceeds the cache's length. With ``recompute``, every
    prediction runs the model afresh on the ``window`` latest tokens.
    """
    if how.recompute:
        out = []
        for t in range(len(ids) - 1):
            x = torch.tensor([ids[max(0, t + 1 - how.window):t + 1]])
            logits, _ = model(x)
            out.append(F.cross_entropy(logits[0, -1:], torch.tensor([ids[t + 1]])).item())
        return np.array(out)
    kept: list[list[torch.Tensor]] = [[] for _ in model.blocks]  # per block, per token (k, v), each (h, d_k)
    out = []
    for t in range(len(ids) - 1):
        h = model.embed(torch.tensor([ids[t]]))  # (1, d_model)
        for b, block in enumerate(model.blocks):
            a = block.attn
            z = block.norm1(h)
            q, k, v = (w(z).view(a.num_heads, 1, a.d_k) for w in (a.W_q, a.W_k, a.W_v))  # (h, 1, d_k)
            kept[b].append((k, v))
            if len(kept[b]) > how.sinks + how.window:
                del kept[b][how.sinks]  # the oldest token after the sinks leaves the cache
            keys = torch.cat([kk for kk, _ in kept[b]], dim=1)  # (h, m, d_k)
            vals = torch.cat([vv for _, vv in kept[b]], dim=1)
            m = keys.shape[1]
            keys = apply_rope(keys, torch.arange(m))
            q = apply_rope(q, torch.tensor([m - 1]))
            w = torch.softmax(q @ keys.transpose(-1, -2) / math.sqrt(a.d_k), dim=-1)  # (h, 1, m)
            h = h + a.W_o((w @ vals).transpose(0, 1).reshape(1, -1))
            h = h + block.ff2(gelu(block.ff1(block.norm2(h))))
        logits = model.norm(h) @ model.embed.weight.T  # (1, vocab)
        out.append(F.cross_entropy(logits, torch.tensor([ids[t + 1]])).item())
    return np.array(out)
