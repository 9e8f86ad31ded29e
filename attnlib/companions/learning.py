"""Attention that learns: a template corpus of ambiguous words, a one-layer self-attention model that
predicts their sense, a seeded and reproducible training loop with checkpoints, and a float64 NumPy
twin of the trained model (the reference of the book's "ask the trained model" widget).

The sense of "bank" (river or money) or "bat" (animal or sport) depends on one cue word that may
stand anywhere in the sentence; the other words are fillers shared by every sense. The model::

    x = E[word] + P[position]                    # (batch, n, d)
    Q, K, V = x W_Q, x W_K, x W_V                # (batch, n, d)
    A = softmax(Q Kᵀ / √d) over the real words   # (batch, n, n)
    c = (A V)[ambiguous position]                # (batch, d), the context vector of the word
    logits = c W_c + b_c                         # (batch, senses)

Chapters: "Attention that learns" (book/17_learning.ipynb) and "Attention we can check"
(book/18_known_attention.ipynb, through ``AttentionReadout`` and ``fit``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from torch import nn

from .._validate import require_positive, require_positive_int
from ..attention import scaled_dot_product_attention
from ..attention_np import scaled_dot_product_attention_np
from ..masks import padding_mask
from ..softmax import softmax
from .checks import as_finite_array, make_generator, quoted_words
from .text import tokenize

#: Each ambiguous word, its senses, and the cue words that select each sense.
CUES: dict[str, dict[str, tuple[str, ...]]] = {
    "bank": {
        "river": ("river", "water", "shore", "fish", "boat", "stream"),
        "money": ("money", "loan", "cash", "deposit", "account", "coins"),
    },
    "bat": {
        "animal": ("cave", "wings", "night", "fur", "insects", "roost"),
        "sport": ("ball", "cricket", "swing", "game", "team", "pitch"),
    },
}
#: Words that occur with every sense equally often, so they carry no information about the sense.
FILLERS: tuple[str, ...] = (
    "the", "a", "we", "i", "she", "he", "saw", "near", "by", "old", "big", "small", "walked", "sat",
    "went", "to", "there", "today", "then", "was", "is", "on", "at", "with", "and", "very", "quiet",
    "new", "morning", "again",
)
AMBIGUOUS: tuple[str, ...] = tuple(CUES)
#: The sense of each cue word. Every cue word belongs to exactly one sense, so in the corpus the
#: label is a function of the cue word alone.
CUE_SENSE: dict[str, str] = {c: f"{w}:{s}" for w, senses in CUES.items() for s, cues in senses.items() for c in cues}
#: The classes the readout predicts, each an ambiguous word and one of its senses.
SENSES: tuple[str, ...] = tuple(f"{w}:{s}" for w, senses in CUES.items() for s in senses)
VOCAB: tuple[str, ...] = AMBIGUOUS + tuple(c for s in CUES.values() for cues in s.values() for c in cues) + FILLERS
MAX_LEN = 8
MIN_LEN = 4
_PUNCTUATION = re.compile(r"[.,!?;:]")


# --- the corpus ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SenseBatch:
    """N sentences as padded word ids, with where the ambiguous word and its cue stand."""

    ids: torch.Tensor  # (N, MAX_LEN) word ids, padded after each sentence's end
    lengths: torch.Tensor  # (N,) words in each sentence
    query: torch.Tensor  # (N,) position of the ambiguous word
    cue: torch.Tensor  # (N,) position of the word that decides its sense
    labels: torch.Tensor  # (N,) the sense id

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    def words(self, i: int) -> list[str]:
        """Sentence ``i`` as words."""
        return [VOCAB[j] for j in self.ids[i, : int(self.lengths[i])].tolist()]


@dataclass(frozen=True)
class SenseCorpus:
    """A training and a held-out split whose (ambiguous position, cue position) pairs do not overlap."""

    train: SenseBatch
    test: SenseBatch
    held_out_pairs: tuple[tuple[int, int], ...]


def sample_sentences(rng: np.random.Generator, count: int, pairs: Sequence[tuple[int, int]]) -> SenseBatch:
    """``count`` sentences: a sense, a length and an (ambiguous, cue) position pair drawn from
    ``pairs``, then fillers everywhere and the two words in their places. Chapter "Attention that learns"."""
    ids = np.zeros((count, MAX_LEN), dtype=np.int64)
    rows = []
    index = {w: i for i, w in enumerate(VOCAB)}
    for r in range(count):
        q, c = pairs[rng.integers(len(pairs))]
        length = int(rng.integers(max(MIN_LEN, q + 1, c + 1), MAX_LEN + 1))
        label = int(rng.integers(len(SENSES)))
        word, sense = SENSES[label].split(":")
        cues = CUES[word][sense]
        words = [FILLERS[j] for j in rng.integers(len(FILLERS), size=length)]
        words[q], words[c] = word, cues[int(rng.integers(len(cues)))]
        ids[r, :length] = [index[w] for w in words]
        rows.append((length, q, c, label))
    lengths, query, cue, labels = (torch.tensor(col) for col in zip(*rows))
    return SenseBatch(torch.from_numpy(ids), lengths, query, cue, labels)


def make_corpus(n_train: int = 1000, n_test: int = 1000, *, seed: int = 0, held_out: float = 0.25) -> SenseCorpus:
    """Template sentences of 4 to 8 words: one ambiguous word, one cue word, fillers.

    The ordered (ambiguous position, cue position) pairs are split at random (seeded): a fraction
    ``held_out`` of them occurs only in the test sentences, so every test sentence puts the two words
    in places, and in an order, that no training sentence has. Chapter "Attention that learns".
    """
    n_train, n_test = require_positive_int(n_train, "n_train"), require_positive_int(n_test, "n_test")
    if not isinstance(held_out, float) or not 0 < held_out < 1:
        raise ValueError(f"held_out must be a float in (0, 1), got {held_out!r}")
    rng = make_generator(seed)
    pairs = [(q, c) for q in range(MAX_LEN) for c in range(MAX_LEN) if q != c]
    order = rng.permutation(len(pairs))
    cut = int(round(held_out * len(pairs)))
    test_pairs = sorted(pairs[i] for i in order[:cut])
    train_pairs = sorted(pairs[i] for i in order[cut:])
    return SenseCorpus(sample_sentences(rng, n_train, train_pairs), sample_sentences(rng, n_test, test_pairs), tuple(test_pairs))


# --- the model ---------------------------------------------------------------------------------------
class AttentionReadout(nn.Module):
    """One self-attention layer (``n_heads`` heads of width ``d_model / n_heads``) whose context vector
    at one position per sequence goes through a linear readout to class logits.

    ``forward(x, query, lengths=None)``: ``x`` (batch, n, d_in), ``query`` (batch,) positions,
    ``lengths`` (batch,) real lengths (keys beyond are masked). Returns ``(logits, weights)`` with
    shapes (batch, classes) and (batch, heads, n, n). Chapters "Attention that learns",
    "Attention we can check".
    """

    def __init__(self, d_in: int, d_model: int, n_classes: int, *, n_heads: int = 1,
                 generator: torch.Generator | None = None) -> None:
        super().__init__()
        d_in, d_model = require_positive_int(d_in, "d_in"), require_positive_int(d_model, "d_model")
        n_classes, n_heads = require_positive_int(n_classes, "n_classes"), require_positive_int(n_heads, "n_heads")
        if d_model % n_heads:
            raise ValueError(f"d_model={d_model} must be divisible by n_heads={n_heads}")
        self.n_heads = n_heads

        def init(*shape: int) -> nn.Parameter:
            return nn.Parameter(torch.randn(*shape, generator=generator) / shape[0] ** 0.5)

        self.w_q, self.w_k, self.w_v = init(d_in, d_model), init(d_in, d_model), init(d_in, d_model)
        self.w_c = init(d_model, n_classes)
        self.b_c = nn.Parameter(torch.zeros(n_classes))

    def forward(self, x: torch.Tensor, query: torch.Tensor,
                lengths: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        b, n, _ = x.shape
        h = self.n_heads

        def split(w: torch.Tensor) -> torch.Tensor:
            return (x @ w).view(b, n, h, -1).transpose(1, 2)  # (b, h, n, d_head)

        mask = None if lengths is None else padding_mask(lengths, n).unsqueeze(1)  # (b, 1, 1, n)
        ctx, weights = scaled_dot_product_attention(split(self.w_q), split(self.w_k), split(self.w_v), mask=mask)
        ctx = ctx.transpose(1, 2).reshape(b, n, -1)  # (b, n, d_model)
        c = ctx[torch.arange(b), query]  # (b, d_model)
        return c @ self.w_c + self.b_c, weights  # (b, classes), (b, h, n, n)


class SenseModel(nn.Module):
    """Word embeddings plus learned position embeddings, then ``AttentionReadout`` (one head) read at
    the ambiguous word. ``forward(batch)`` returns ``(logits, weights)``; weights (batch, n, n).
    Chapter "Attention that learns"."""

    def __init__(self, d_model: int = 16, *, generator: torch.Generator | None = None) -> None:
        super().__init__()
        d_model = require_positive_int(d_model, "d_model")
        self.embed = nn.Parameter(torch.randn(len(VOCAB), d_model, generator=generator))
        self.pos = nn.Parameter(torch.randn(MAX_LEN, d_model, generator=generator))
        self.attn = AttentionReadout(d_model, d_model, len(SENSES), generator=generator)

    def inputs(self, ids: torch.Tensor) -> torch.Tensor:
        """``E[word] + P[position]`` (batch, n, d): the vectors before attention."""
        return self.embed[ids] + self.pos[: ids.shape[1]]  # (b, n, d)

    def forward(self, batch: SenseBatch) -> tuple[torch.Tensor, torch.Tensor]:
        logits, weights = self.attn(self.inputs(batch.ids), batch.query, batch.lengths)
        return logits, weights[:, 0]  # (b, senses), (b, n, n)


# --- training ------------------------------------------------------------------------------------------
@contextlib.contextmanager
def reproducible(threads: int = 1) -> Iterator[None]:
    """A fixed thread count inside the block (restored after), so the CPU kernels sum in the same
    order on every run. (``torch.use_deterministic_algorithms`` is not needed for these CPU kernels,
    and turning it on imports torch's compiler stack: seconds of build time.)"""
    old_threads = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(old_threads)


@dataclass
class Checkpoint:
    """The model's parameters (float64 NumPy copies) and its figures after ``step`` updates."""

    step: int
    state: dict[str, np.ndarray]
    loss: float
    metrics: dict[str, float] = field(default_factory=dict)


@dataclass
class TrainingRun:
    """The trained model, the loss before every update, the checkpoints (step 0 = initialisation) and
    the hyperparameters the training used (``fit`` records its own; a training function adds the
    model's and the data's), so that a chapter prints them from the run itself."""

    model: nn.Module
    losses: list[float]
    checkpoints: list[Checkpoint]
    hyperparameters: dict[str, Any] = field(default_factory=dict)

    def checkpoint(self, index: int) -> Checkpoint:
        """Checkpoint ``index`` (0 = initialisation, -1 = the end); a clear error when out of range."""
        n = len(self.checkpoints)
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"checkpoint index must be an int, got {type(index).__name__}")
        if not -n <= index < n:
            raise IndexError(f"checkpoint index {index} is out of range: this run has {n} checkpoints (0 to {n - 1})")
        return self.checkpoints[index]


def _state(model: nn.Module) -> dict[str, np.ndarray]:
    return {k.replace("attn.", ""): v.detach().double().numpy().copy() for k, v in model.state_dict().items()}


#: Adam's decay rates of the running mean and of the running mean square of the gradient, and the
#: small number that keeps its division finite (the usual values; ``fit`` records them in its run).
ADAM_BETAS = (0.9, 0.999)
ADAM_EPS = 1e-8


def adam_step(params: Sequence[torch.Tensor], grads: Sequence[torch.Tensor], m: Sequence[torch.Tensor],
              v: Sequence[torch.Tensor], t: int, *, lr: float, weight_decay: float) -> None:
    """Update ``params`` in place by Adam step number ``t`` (1, 2, ...), with decoupled weight decay
    (as AdamW: each weight also shrinks by ``lr · weight_decay`` times itself). ``m`` and ``v`` are the
    running means of the gradient and of its square, updated in place. Written out rather than
    ``torch.optim.AdamW``, whose first use imports torch's compiler stack (seconds).
    Chapters "Attention that learns", "Attention we can check"."""
    if isinstance(t, bool) or not isinstance(t, int) or t < 1:
        raise ValueError(f"t must be the step number, an int >= 1, got {t!r}")
    if not len(params) == len(grads) == len(m) == len(v):
        raise ValueError(f"params, grads, m and v must have one entry per parameter, got lengths "
                         f"{len(params)}, {len(grads)}, {len(m)}, {len(v)}")
    b1, b2 = ADAM_BETAS
    with torch.no_grad():
        for p, g, m_, v_ in zip(params, grads, m, v):
            m_.mul_(b1).add_(g, alpha=1 - b1)  # running mean of the gradient
            v_.mul_(b2).addcmul_(g, g, value=1 - b2)  # running mean of its square
            m_hat = m_ / (1 - b1**t)  # the running means start at 0: undo that bias
            v_hat = v_ / (1 - b2**t)
            p.sub_(lr * (m_hat / (v_hat.sqrt() + ADAM_EPS) + weight_decay * p))


def _fit_arguments(steps: int, lr: float, n_checkpoints: int, weight_decay: float) -> tuple[int, float, int, float]:
    steps, n_checkpoints = require_positive_int(steps, "steps"), require_positive_int(n_checkpoints, "n_checkpoints")
    lr = require_positive(lr, "lr")
    if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)) or not 0 <= weight_decay < 10:
        raise ValueError(f"weight_decay must be a number in [0, 10), got {weight_decay!r}")
    return steps, lr, n_checkpoints, float(weight_decay)


def fit(model: nn.Module, loss_fn: Callable[[], torch.Tensor], *, steps: int, lr: float, n_checkpoints: int,
        metrics: Callable[[], dict[str, float]], weight_decay: float = 0.0) -> TrainingRun:
    """Full-batch Adam (``adam_step``) for ``steps`` updates; ``n_checkpoints`` + 1 evenly spaced
    checkpoints (step 0 and the end included), each with ``metrics()``. The run records ``steps``,
    ``lr``, ``weight_decay``, ``betas`` and ``eps``. Chapters "Attention that learns", "Attention we can check"."""
    steps, lr, n_checkpoints, weight_decay = _fit_arguments(steps, lr, n_checkpoints, weight_decay)
    at = {round(i * steps / n_checkpoints) for i in range(n_checkpoints + 1)}
    params = [p for p in model.parameters() if p.requires_grad]
    m, v = [torch.zeros_like(p) for p in params], [torch.zeros_like(p) for p in params]
    run = TrainingRun(model, [], [], {"optimizer": "Adam, full batch", "steps": steps, "lr": lr,
                                      "weight_decay": weight_decay, "betas": ADAM_BETAS, "eps": ADAM_EPS})
    for step in range(steps + 1):
        loss = loss_fn()
        run.losses.append(float(loss.detach()))
        if step in at:
            with torch.no_grad():
                run.checkpoints.append(Checkpoint(step, _state(model), run.losses[-1], metrics()))
        if step < steps:
            adam_step(params, torch.autograd.grad(loss, params), m, v, step + 1, lr=lr, weight_decay=weight_decay)
    return run


def positional_scores(state: Mapping[str, Any]) -> np.ndarray:
    """The part of the trained model's scores that depends on the two positions alone,
    ``(P W_Q)(P W_K)ᵀ / √d`` (``MAX_LEN``, ``MAX_LEN``): row i is what a query at position i adds to each
    key position whatever the words. A flat row is no positional pattern; a large spread is a sharp
    one. Chapter "Attention that learns" (what weight decay does)."""
    s = check_state(state)
    q, k = s["pos"] @ s["w_q"], s["pos"] @ s["w_k"]  # (MAX_LEN, d) each
    return q @ k.T / np.sqrt(q.shape[1])  # (MAX_LEN, MAX_LEN)


def attention_to_cue(weights: torch.Tensor, batch: SenseBatch) -> float:
    """Mean attention weight from the ambiguous word to its cue word. Chapter "Attention that learns"."""
    b = torch.arange(len(batch))
    return float(weights[b, batch.query, batch.cue].mean())


def sense_metrics(model: SenseModel, batch: SenseBatch) -> dict[str, float]:
    """Loss, accuracy and mean attention to the cue word of ``model`` on ``batch``."""
    with torch.no_grad():
        logits, weights = model(batch)
        return {
            "loss": float(nn.functional.cross_entropy(logits, batch.labels)),
            "accuracy": float((logits.argmax(-1) == batch.labels).double().mean()),
            "attention_to_cue": attention_to_cue(weights, batch),
        }


def train_sense_model(corpus: SenseCorpus, *, seed: int = 0, d_model: int = 16, steps: int = 150,
                      lr: float = 0.02, weight_decay: float = 0.5, n_checkpoints: int = 30) -> TrainingRun:
    """Train ``SenseModel`` on ``corpus.train`` (seeded, one thread: reproducible). The checkpoints
    carry the held-out loss, accuracy and attention to the cue word under ``metrics``.

    ``weight_decay`` (decoupled, as AdamW) shrinks every weight at each step; the chapter measures
    what that does to the positional part of the scores (``positional_scores``) and shows a run
    without it. Chapter "Attention that learns"."""
    gen = torch.Generator().manual_seed(int(make_generator(seed).integers(2**31)))
    with reproducible():
        model = SenseModel(d_model, generator=gen)
        run = fit(model, lambda: nn.functional.cross_entropy(model(corpus.train)[0], corpus.train.labels),
                  steps=steps, lr=lr, n_checkpoints=n_checkpoints, weight_decay=weight_decay,
                  metrics=lambda: sense_metrics(model, corpus.test))
    run.hyperparameters.update(d_model=d_model, heads=1, seed=seed, training_sentences=len(corpus.train))
    return run


# --- the trained model in float64 NumPy (the widget's reference) -----------------------------------------
def words_of(sentence: str | Sequence[str]) -> list[str]:
    """A sentence as lower-case words with ``.,!?;:`` removed (as the widget's ES module does)."""
    if isinstance(sentence, str):
        return tokenize(_PUNCTUATION.sub(" ", sentence.lower()))
    if isinstance(sentence, Sequence) and all(isinstance(w, str) for w in sentence):
        return [w.lower() for w in sentence]
    raise TypeError(f"sentence must be a str or a sequence of words, got {type(sentence).__name__}")


def encode(sentence: str | Sequence[str]) -> tuple[list[int], int]:
    """Word ids of ``sentence`` and the position of its ambiguous word. Raises ``ValueError`` for an
    empty sentence, more than ``MAX_LEN`` words, an unknown word, or not exactly one ambiguous word."""
    words = words_of(sentence)
    if not words:
        raise ValueError(f"the sentence is empty: give 1 to {MAX_LEN} words, one of them "
                         + " or ".join(repr(w) for w in AMBIGUOUS))
    if len(words) > MAX_LEN:
        raise ValueError(f"the sentence has {len(words)} words; the model reads at most {MAX_LEN}")
    index = {w: i for i, w in enumerate(VOCAB)}
    unknown = [w for w in words if w not in index]
    if unknown:
        raise ValueError(f"unknown word(s) [{quoted_words(unknown)}]: the model knows only its "
                         f"{len(VOCAB)}-word vocabulary")
    amb = [i for i, w in enumerate(words) if w in AMBIGUOUS]
    if len(amb) != 1:
        raise ValueError(f"the sentence needs exactly one ambiguous word ({' or '.join(AMBIGUOUS)}), got {len(amb)}")
    return [index[w] for w in words], amb[0]


def outside_training(words: Sequence[str], query: int) -> str | None:
    """Why the model's answer on ``words`` (ambiguous word at ``query``) means nothing, or ``None``.

    Every training sentence has exactly one cue word, of one sense of its ambiguous word. A sentence
    with no cue word, or with cue words of two senses, or with a cue of the other ambiguous word, lies
    outside that pattern: the model still outputs probabilities, but no training sentence tested them.
    Chapter "Attention that learns" and the "ask the trained model" widget (its ES module says the same)."""
    if isinstance(words, str) or not isinstance(words, Sequence) or not all(isinstance(w, str) for w in words):
        raise TypeError(f"words must be a sequence of words (str), got {words!r:.60}")
    if isinstance(query, bool) or not isinstance(query, (int, np.integer)) or not 0 <= query < len(words):
        raise ValueError(f"query must be a position in [0, {len(words)}), got {query!r}")
    word = words[query]
    found = [(w, CUE_SENSE[w]) for w in words if w in CUE_SENSE]
    senses = sorted({s for _, s in found}, key=SENSES.index)
    if not found:
        return (f"no cue word: every training sentence had one word that decides the sense of '{word}', "
                "so this answer is a guess that training never tested")
    if len(senses) > 1:
        listed = ", ".join(f"'{w}' ({s})" for w, s in found)
        return f"cue words of two senses: {listed}; no training sentence mixed them, so this answer means nothing"
    if not senses[0].startswith(f"{word}:"):
        return (f"'{found[0][0]}' is a cue of {senses[0]}, not of '{word}'; no training sentence had them "
                "together, so this answer means nothing")
    return None


def check_state(state: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """The parameters of a ``SenseModel`` as float64 arrays, shapes checked."""
    keys = ("embed", "pos", "w_q", "w_k", "w_v", "w_c", "b_c")
    if not isinstance(state, Mapping) or any(k not in state for k in keys):
        raise ValueError(f"state must be a mapping with keys {list(keys)}, got {sorted(state) if isinstance(state, Mapping) else type(state).__name__}")
    d = np.shape(state["embed"])[-1] if np.ndim(state["embed"]) == 2 else None
    want = {"embed": (len(VOCAB), d), "pos": (MAX_LEN, d), "w_q": (d, d), "w_k": (d, d), "w_v": (d, d),
            "w_c": (d, len(SENSES)), "b_c": (len(SENSES),)}
    s = {k: as_finite_array(state[k], f"state[{k!r}]", shape=shape) for k, shape in want.items()}
    return s


def predict_np(state: Mapping[str, Any], sentence: str | Sequence[str]) -> dict[str, Any]:
    """The trained model on one sentence, in float64 NumPy: the words, the ambiguous word's position,
    its attention row, the sense probabilities, the predicted sense, and under ``outside`` why the answer
    means nothing when the sentence lies outside the training pattern (``outside_training``, else
    ``None``). Chapter "Attention that learns"
    and the "ask the trained model" widget (its ES module computes the same)."""
    s = check_state(state)
    ids, query = encode(sentence)
    x = s["embed"][ids] + s["pos"][: len(ids)]  # (n, d)
    ctx, weights = scaled_dot_product_attention_np(x @ s["w_q"], x @ s["w_k"], x @ s["w_v"])  # (n, d), (n, n)
    probs = softmax(ctx[query] @ s["w_c"] + s["b_c"])  # (senses,)
    words = [VOCAB[i] for i in ids]
    return {"words": words, "query": query, "weights": weights, "row": weights[query], "probs": probs,
            "sense": SENSES[int(np.argmax(probs))], "input": x[query], "context": ctx[query],
            "outside": outside_training(words, query)}


def replay_frame(run: TrainingRun, index: int, sentence: str | Sequence[str]) -> dict[str, Any]:
    """What the training-replay widget shows at checkpoint ``index`` for ``sentence``: the step, the
    training loss, held-out accuracy, the attention map and the sense probabilities."""
    cp = run.checkpoint(index)
    out = predict_np(cp.state, sentence)
    return {"step": cp.step, "loss": cp.loss, **{f"test_{k}": v for k, v in cp.metrics.items()}, **out}

