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
* :func:`bits_per_char`, :func:`held_out_bits`, :func:`ablate`: the model scored on held-out text, and
  with a head's output set to zero;
* :func:`stream_loss`: a stream longer than the context decoded with a sliding window, a window plus
  the first tokens kept (the *attention sink* of Xiao et al. 2023), or each window recomputed.

Chapter: "Attention on real text".
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from ..positions import BASE, rope_unchecked
from ..transformer import TinyLM, gelu
from .learning import reproducible

DATA = Path(__file__).resolve().parent / "data"
TEXT = DATA / "tinyshakespeare.txt"
WEIGHTS = DATA / "real_text_lm.npz"
LOG = DATA / "real_text_lm_log.json"
HELD_OUT = 0.1  # the last tenth of the text is never trained on
#: The model's shape and its training, as ``python -m tools.train_real_text`` ran them.
SHAPE = {"d_model": 64, "num_heads": 4, "d_ff": 256, "n_layers": 2, "context": 64}
TRAINING = {"steps": 4000, "batch": 32, "lr": 3e-3, "weight_decay": 0.01, "seed": 0}


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
    A string of ``k`` characters is counted under one number, its characters' ids as digits in base ``V``.
    """

    def __init__(self, train: str, order: int, vocab: list[str]) -> None:
        if not isinstance(order, int) or order < 1:
            raise ValueError(f"order must be an int >= 1, got {order!r}")
        self.order, self.vocab, self.index = order, list(vocab), {c: i for i, c in enumerate(vocab)}
        ids = self._ids(train)
        V = len(self.vocab)
        self.unigram = np.bincount(ids, minlength=V) + 1.0  # add-one
        self.unigram /= self.unigram.sum()
        self.levels = []  # per context length k: sorted gram codes, their counts; context codes, N, T
        for k in range(1, order):
            codes = self._codes(ids, k + 1)  # every (k+1)-gram of the text
            grams, counts = np.unique(codes, return_counts=True)
            contexts, first, types = np.unique(grams // V, return_index=True, return_counts=True)
            self.levels.append((grams, counts, contexts, np.add.reduceat(counts, first), types))

    def _ids(self, s: str) -> np.ndarray:
        return np.array([self.index[c] for c in s], dtype=np.int64)

    def _codes(self, ids: np.ndarray, k: int) -> np.ndarray:
        """The code of the ``k`` characters ending at each position ``k - 1 ..``."""
        V, out = len(self.vocab), np.zeros(len(ids) - k + 1, dtype=np.int64)
        for j in range(k):
            out = out * V + ids[j:len(ids) - k + 1 + j]
        return out

    @staticmethod
    def _count(sorted_codes: np.ndarray, values: np.ndarray, codes: np.ndarray) -> np.ndarray:
        at = np.clip(np.searchsorted(sorted_codes, codes), 0, len(sorted_codes) - 1)
        return np.where(sorted_codes[at] == codes, values[at], 0)

    def prob(self, history: str, c: str) -> float:
        """``P(c | history)``, one character at a time."""
        V, ids = len(self.vocab), self._ids(history[max(0, len(history) - self.order + 1):] if self.order > 1 else "")
        p = float(self.unigram[self.index[c]])
        for k in range(1, min(self.order - 1, len(ids)) + 1):
            grams, counts, contexts, n, t = self.levels[k - 1]
            h = int(self._codes(ids[-k:], k)[0])  # the last k characters
            n_h, t_h = (int(self._count(contexts, x, np.array([h]))[0]) for x in (n, t))
            if n_h == 0:  # never seen: no longer context was seen either
                break
            p = (int(self._count(grams, counts, np.array([h * V + self.index[c]]))[0]) + t_h * p) / (n_h + t_h)
        return p

    def bits_per_char(self, text: str) -> float:
        """The mean of ``-log2 P(next | before)`` over every character of ``text`` after the first:
        :meth:`prob` at every position at once."""
        ids, V = self._ids(text), len(self.vocab)
        p = self.unigram[ids[1:]]  # (len - 1,)
        for k in range(1, self.order):
            grams, counts, contexts, n, t = self.levels[k - 1]
            if len(ids) <= k:
                break
            h = self._codes(ids[:-1], k)  # the k characters before each position k ..
            n_h, t_h = self._count(contexts, n, h), self._count(contexts, t, h)
            g = self._count(grams, counts, h * V + ids[k:])
            seen = n_h > 0
            p[k - 1:] = np.where(seen, (g + t_h * p[k - 1:]) / np.maximum(n_h + t_h, 1), p[k - 1:])
        return float(-np.log2(p).mean())


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


@torch.no_grad()
def held_out_bits(model: TinyLM, ids: torch.Tensor, *, chunk: int = 256) -> float:
    """Bits per character of ``ids`` ``(length,)``, each character predicted from between half a context
    and a full context before it: windows of the context overlapping by half, each scoring its second half
    (and the first window its first half too)."""
    n, half = model.context, model.context // 2
    starts = np.arange(0, len(ids) - n, half)
    if len(starts) == 0:
        raise ValueError(f"{len(ids)} characters: need more than the context of {n}")
    total, count = 0.0, 0
    for part in np.array_split(starts, max(1, len(starts) // chunk)):
        x, y = windows(ids, part, n)  # (windows, n) each
        logits, _ = model(x)
        keep = torch.ones_like(y, dtype=torch.bool)
        keep[:, :half] = torch.from_numpy(part == 0)[:, None]  # a first half is scored in the first window only
        total += F.cross_entropy(logits[keep], y[keep], reduction="sum").item()
        count += int(keep.sum())
    return total / count / math.log(2)


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
def stream_loss(model: TinyLM, ids: torch.Tensor, how: Stream) -> np.ndarray:
    """The loss (nats) of predicting ``ids[:, t + 1]`` at every ``t``, ``(streams, length - 1)``, each
    stream of ``ids`` ``(streams, length)`` decoded one token at a time.

    With a cache, each block keeps the keys and values of at most ``how.sinks`` first tokens and the
    ``how.window`` latest ones; as in StreamingLLM, the keys are kept before rotation and turned at
    their place in the cache, so no distance exceeds the cache's length. With ``recompute``, every
    prediction runs the model afresh on the ``window`` latest tokens.
    """
    losses = []
    if how.recompute:  # while the stream fits the window, one pass gives every prediction
        logits, _ = model(ids[:, :how.window])  # (streams, <= window, vocab)
        losses.extend(F.cross_entropy(logits[:, :-1].transpose(1, 2), ids[:, 1:how.window], reduction="none").T)
        for t in range(how.window - 1, ids.shape[1] - 1):
            logits, _ = model(ids[:, t + 1 - how.window:t + 1])  # (streams, window, vocab): the latest only
            losses.append(F.cross_entropy(logits[:, -1], ids[:, t + 1], reduction="none"))
        return torch.stack(losses, dim=1).numpy()
    caches = [[] for _ in model.blocks]  # per block, per kept token: (k, v), each (streams, heads, 1, d_k)
    for t in range(ids.shape[1] - 1):
        h = model.embed(ids[:, t])  # (streams, d_model)
        for block, kept in zip(model.blocks, caches):
            a, z = block.attn, block.norm1(h)
            q, k, v = (w(z).view(-1, a.num_heads, 1, a.d_k) for w in (a.W_q, a.W_k, a.W_v))
            kept.append((k, v))
            if len(kept) > how.sinks + how.window:
                del kept[how.sinks]  # the oldest token after the kept first ones leaves the cache
            m = len(kept)
            keys = rope_unchecked(torch.cat([kk for kk, _ in kept], dim=2), torch.arange(m), "interleaved", BASE)
            q = rope_unchecked(q, torch.tensor([m - 1]), "interleaved", BASE)  # the newest sits last
            w = torch.softmax(q @ keys.transpose(-1, -2) / math.sqrt(a.d_k), dim=-1)  # (streams, heads, 1, m)
            out = w @ torch.cat([vv for _, vv in kept], dim=2)  # (streams, heads, 1, d_k)
            h = h + a.W_o(out.flatten(1))
            h = h + block.ff2(gelu(block.ff1(block.norm2(h))))
        logits = model.norm(h) @ model.embed.weight.T  # (streams, vocab)
        losses.append(F.cross_entropy(logits, ids[:, t + 1], reduction="none"))
    return torch.stack(losses, dim=1).numpy()
