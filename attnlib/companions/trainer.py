"""Train the bank/river model yourself: the float64 twin of the "Train it yourself" widget.

The reader's settings (the cue words of each sense, the ambiguous words, how many training sentences,
sentences of their own, d_model, the learning rate, the weight decay, the steps and the seed) go in;
the corpus, the initial weights and every Adam step come out the same in Python and in the page
(``attnlib/widgets/trainer_core.js`` repeats this module line for line):

* every random number is a draw of :class:`attnlib.companions.sampler.Mulberry32`, whose 32-bit integer
  steps JavaScript computes identically; normals are Box–Muller pairs of two draws;
* the model is ``attnlib.companions.learning.SenseModel`` (embedding + position, one attention head read at the
  ambiguous word, a linear readout), in float64;
* the gradients are the chapter's hand-derived ones (``attnlib.companions.grads``) for the one row that is read,
  grouped as ``(X W_K) q = X (W_K q)`` and ``A (X W_V) = (A X) W_V``, which is the same sum in another
  order and costs the page six times fewer multiplications;
* the update is ``attnlib.companions.learning.adam_step`` (Adam with the decoupled weight decay of AdamW), with
  the bias corrections kept as running products so that no ``pow`` is needed.

Chapter: "Attention that learns" (book/17_learning.ipynb).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validate import require_positive
from .checks import completed_settings, quoted_word, quoted_words
from .learning import ADAM_BETAS, ADAM_EPS, CUES, FILLERS, MAX_LEN, MIN_LEN, SENSES, VOCAB, words_of
from .sampler import Mulberry32

#: The settings the widget opens with, those of the chapter's run (its cue words, 1000 training and 1000
#: held-out sentences, d_model 16, 150 full-batch Adam steps at lr 0.02 with weight decay 0.5, seed 0).
DEFAULTS: dict[str, Any] = {
    "senses": [{"word": w, "sense": s, "cues": list(cues)} for w, senses in CUES.items() for s, cues in senses.items()],
    "sentences": [],
    "n_train": 1000, "n_test": 1000, "d_model": 16, "lr": 0.02, "weight_decay": 0.5, "steps": 150, "seed": 0,
    "watch": "we sat on the bank by the river",
}
#: The ranges the page accepts, both ends included (large enough to explore, small enough to train in seconds).
LIMITS: dict[str, tuple[int, int]] = {"n_train": (0, 3000), "n_test": (1, 3000), "d_model": (1, 32), "steps": (1, 1000)}
HELD_OUT = 0.25  # the fraction of (ambiguous position, cue position) pairs seen only in held-out sentences
DIVERGED = 10.0  # the loss diverged: it is not finite, or more than this many times the loss at step 0
WEIGHT_STREAM = 0x9E3779B9  # the initial weights come from Mulberry32((seed + this) mod 2**32)
_WORD = re.compile(r"^[a-z']+$")


# --- settings ----------------------------------------------------------------------------------------
def short_number(x: float, digits: int) -> str:
    """``x`` as ``f"{x:.{digits}g}"`` writes it, its exponent written short (1e308, 1e-5, not 1e+308 or
    1e-05), as a reader types it; the page's ``shortNumber`` in ``trainer_core.js`` writes the same."""
    text = f"{x:.{digits}g}"
    mantissa, _, exponent = text.partition("e")
    return f"{mantissa}e{int(exponent)}" if exponent else text


def _shown(value: Any) -> str:
    """A value as a message quotes it: a string by :func:`quoted_word` (a pasted paragraph shortened),
    anything else by its repr, cut at 40 characters."""
    return quoted_word(value) if isinstance(value, str) else f"{value!r:.40}"


def _int_in(settings: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    value = settings[key]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
        raise ValueError(f"{key} must be a whole number from {lo} to {hi}, got {_shown(value)}")
    return int(value)


def _senses(raw: Any) -> list[dict[str, Any]]:
    if not isinstance(raw, Sequence) or isinstance(raw, str) or not raw:
        raise ValueError(f"senses must be a non-empty list of {{word, sense, cues}}, got {raw!r:.80}")
    out, seen = [], set()
    for item in raw:
        if not isinstance(item, Mapping) or not {"word", "sense", "cues"} <= set(item):
            raise ValueError(f"each sense needs a word, a sense name and cue words, got {item!r:.80}")
        word, sense = str(item["word"]).strip().lower(), str(item["sense"]).strip().lower()
        name = quoted_word(f"{word}:{sense}")
        cues = [str(c).strip().lower() for c in item["cues"]]
        for w in (word, sense, *cues):
            if not _WORD.match(w):
                raise ValueError(f"{quoted_word(w)} is not a word: use the letters a to z (sense {name})")
        if f"{word}:{sense}" in seen:
            raise ValueError(f"the sense {name} is listed twice")
        seen.add(f"{word}:{sense}")
        out.append({"word": word, "sense": sense, "cues": list(dict.fromkeys(cues))})
    if len(out) < 2:
        raise ValueError(f"give at least two senses to tell apart, got {len(out)}")
    ambiguous = {s["word"] for s in out}
    for s in out:
        for c in s["cues"]:
            if c in ambiguous:
                name = quoted_word(s["word"] + ":" + s["sense"])
                raise ValueError(f"{quoted_word(c)} is an ambiguous word and a cue of {name}: it cannot be both")
    return out


@dataclass(frozen=True)
class Corpus:
    """The vocabulary, the class names and the training and held-out sentences as padded arrays."""

    vocab: tuple[str, ...]
    senses: tuple[str, ...]  # "word:sense", in the order of the settings
    train: dict[str, np.ndarray]  # ids (N, MAX_LEN), lengths, query, labels (N,)
    test: dict[str, np.ndarray]
    held_out_pairs: tuple[tuple[int, int], ...]


def _encode(text: str, vocab: Mapping[str, int], ambiguous: Sequence[str], what: str) -> tuple[list[int], int]:
    words = words_of(text)  # lower case, .,!?;: removed, as the page does
    if not words or len(words) > MAX_LEN:
        raise ValueError(f"{what} {quoted_word(text)} has {len(words)} words: give 1 to {MAX_LEN}")
    unknown = [w for w in words if w not in vocab]
    if unknown:
        raise ValueError(f"{what} {quoted_word(text)} has the unknown word(s) [{quoted_words(unknown)}]: use cue words, ambiguous words "
                         "or the filler words")
    amb = [i for i, w in enumerate(words) if w in ambiguous]
    if len(amb) != 1:
        raise ValueError(f"{what} {quoted_word(text)} needs exactly one ambiguous word ({quoted_words(list(ambiguous)).replace(', ', ' or ')}), "
                         f"got {len(amb)}")
    return [vocab[w] for w in words], amb[0]


def check_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings completed from ``DEFAULTS`` and checked; ``ValueError`` naming the bad value."""
    s = completed_settings(settings, DEFAULTS)
    out = {"senses": _senses(s["senses"]), **{k: _int_in(s, k, *LIMITS[k]) for k in LIMITS}}
    lr = s["lr"]
    if isinstance(lr, (int, float)) and not isinstance(lr, bool) and not (math.isfinite(lr) and lr > 0):
        raise ValueError(f"the learning rate must be a finite number > 0, got {short_number(lr, 6)}")
    out["lr"] = require_positive(lr, "lr")
    wd = s["weight_decay"]
    if isinstance(wd, bool) or not isinstance(wd, (int, float)) or not 0 <= wd < 10:
        raise ValueError(f"weight_decay must be a number in [0, 10), got {_shown(wd)}")
    out["weight_decay"] = float(wd)
    out["seed"] = _int_in(s, "seed", 0, 2**32 - 1)
    raw = s["sentences"]
    if isinstance(raw, str) or not isinstance(raw, Sequence) or not all(
            isinstance(r, Mapping) and isinstance(r.get("sense"), str) and isinstance(r.get("text"), str) for r in raw):
        raise ValueError(f"sentences must be a list of {{sense, text}}, got {raw!r:.80}")
    out["sentences"] = [{"sense": r["sense"].strip().lower(), "text": r["text"]} for r in raw]
    if not isinstance(s["watch"], str):
        raise ValueError(f"watch must be a sentence (str), got {s['watch']!r:.60}")
    out["watch"] = s["watch"]
    return out


def vocabulary(senses: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """The ambiguous words, then the cue words, then the fillers, each once, in that order."""
    words = [s["word"] for s in senses] + [c for s in senses for c in s["cues"]] + list(FILLERS)
    return tuple(dict.fromkeys(words))


def _pairs(draw: Mulberry32) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The ordered (ambiguous, cue) position pairs, shuffled (Fisher–Yates) and split: held out, training."""
    pairs = [(q, c) for q in range(MAX_LEN) for c in range(MAX_LEN) if q != c]
    for i in range(len(pairs) - 1, 0, -1):
        j = math.floor(draw() * (i + 1))
        pairs[i], pairs[j] = pairs[j], pairs[i]
    cut = round(HELD_OUT * len(pairs))
    return sorted(pairs[:cut]), sorted(pairs[cut:])


def _sample(draw: Mulberry32, count: int, pairs: Sequence[tuple[int, int]], senses: Sequence[Mapping[str, Any]],
            vocab: Mapping[str, int]) -> list[tuple[list[int], int, int]]:
    """``count`` sentences (word ids, ambiguous position, label): a position pair, a length, a sense
    among those with cue words, the fillers, then its cue word, each from the next draws."""
    cued = [i for i, s in enumerate(senses) if s["cues"]]
    out = []
    for _ in range(count):
        q, c = pairs[math.floor(draw() * len(pairs))]
        lo = max(MIN_LEN, q + 1, c + 1)
        length = lo + math.floor(draw() * (MAX_LEN + 1 - lo))
        label = cued[math.floor(draw() * len(cued))]
        words = [FILLERS[math.floor(draw() * len(FILLERS))] for _ in range(length)]
        cues = senses[label]["cues"]
        words[q], words[c] = senses[label]["word"], cues[math.floor(draw() * len(cues))]
        out.append(([vocab[w] for w in words], q, label))
    return out


def _arrays(rows: Sequence[tuple[list[int], int, int]]) -> dict[str, np.ndarray]:
    ids = np.zeros((len(rows), MAX_LEN), dtype=np.int64)
    for r, (words, _, _) in enumerate(rows):
        ids[r, : len(words)] = words
    return {"ids": ids, "lengths": np.array([len(w) for w, _, _ in rows], dtype=np.int64),
            "query": np.array([q for _, q, _ in rows], dtype=np.int64),
            "labels": np.array([y for _, _, y in rows], dtype=np.int64)}


def make_corpus(settings: Mapping[str, Any]) -> Corpus:
    """The held-out sentences, then the training sentences, from ``Mulberry32(seed)``; the reader's own
    sentences are added to the training sentences. ``ValueError`` for an empty corpus, a sense with no
    sentence, or an own sentence that is unknown, too long, or lacks its ambiguous word."""
    s = check_settings(settings)
    senses, vocab = s["senses"], vocabulary(s["senses"])
    names = [f"{x['word']}:{x['sense']}" for x in senses]
    index = {w: i for i, w in enumerate(vocab)}
    ambiguous = list(dict.fromkeys(x["word"] for x in senses))
    own = []
    for r in s["sentences"]:
        if r["sense"] not in names:
            raise ValueError(f"your sentence {quoted_word(r['text'])} has the sense {quoted_word(r['sense'])}; "
                             f"the senses are {quoted_words(names)}")
        ids, q = _encode(r["text"], index, ambiguous, "your sentence")
        if vocab[ids[q]] != r["sense"].split(":")[0]:
            raise ValueError(f"your sentence {quoted_word(r['text'])} is labelled {quoted_word(r['sense'])} but its ambiguous "
                             f"word is {quoted_word(vocab[ids[q]])}")
        own.append((ids, q, names.index(r["sense"])))
    for i, x in enumerate(senses):
        if not x["cues"] and not any(y == i for _, _, y in own):
            raise ValueError(f"the sense {quoted_word(names[i])} has no sentence: give it a cue word or a sentence of your own")
    if s["n_train"] == 0 and not own:
        raise ValueError("the corpus is empty: ask for at least one training sentence or type one of your own")
    draw = Mulberry32(s["seed"])
    test_pairs, train_pairs = _pairs(draw)
    test = _sample(draw, s["n_test"], test_pairs, senses, index)
    train = _sample(draw, s["n_train"], train_pairs, senses, index) + own
    return Corpus(vocab, tuple(names), _arrays(train), _arrays(test), tuple(test_pairs))


# --- the model: initial weights, forward and backward, Adam ----------------------------------------------
PARAMS = ("embed", "pos", "w_q", "w_k", "w_v", "w_c", "b_c")


def normal_draws(draw: Mulberry32) -> Callable[[], float]:
    """Standard normals from ``draw``: Box–Muller pairs of two draws, ``r cos θ`` then ``r sin θ`` (as
    ``normalDraws`` in trainer_core.js). Chapters "Attention that learns", "Two layers that compose"."""
    pair: list[float] = []

    def normal() -> float:
        if not pair:
            r, theta = math.sqrt(-2.0 * math.log(1.0 - draw())), 2.0 * math.pi * draw()
            pair.extend((r * math.sin(theta), r * math.cos(theta)))  # popped from the end: cos first
        return pair.pop()

    return normal


def init_weights(vocab_size: int, d_model: int, n_senses: int, seed: int) -> dict[str, np.ndarray]:
    """Normals from ``Mulberry32((seed + WEIGHT_STREAM) mod 2**32)`` (Box–Muller, ``r cos θ`` then
    ``r sin θ``), filled in the order of ``PARAMS``, row by row: E and P as drawn, the four matrices
    divided by √d_model (as ``SenseModel``), the readout bias 0."""
    normal, shapes = normal_draws(Mulberry32((seed + WEIGHT_STREAM) & 0xFFFFFFFF)), {
        "embed": (vocab_size, d_model), "pos": (MAX_LEN, d_model), "w_q": (d_model, d_model),
        "w_k": (d_model, d_model), "w_v": (d_model, d_model), "w_c": (d_model, n_senses)}
    w = {name: np.array([normal() for _ in range(math.prod(shape))]).reshape(shape) for name, shape in shapes.items()}
    for name in ("w_q", "w_k", "w_v", "w_c"):
        w[name] = w[name] / math.sqrt(d_model)
    w["b_c"] = np.zeros(n_senses)
    return w


def forward(w: Mapping[str, np.ndarray], batch: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The model on a batch, keeping what the backward pass needs. Only the ambiguous word's row of the
    attention is computed: it is the only one the readout reads. Chapter "Attention that learns"."""
    n, d = len(batch["ids"]), w["w_q"].shape[0]
    x = w["embed"][batch["ids"]] + w["pos"]  # (N, L, d): E[word] + P[position]
    xq = x[np.arange(n), batch["query"]]  # (N, d): the ambiguous word
    q = xq @ w["w_q"]  # (N, d)
    u = q @ w["w_k"].T  # (N, d): W_K q, so that the score of word j is x_j · u / √d = q · k_j / √d
    z = np.einsum("nld,nd->nl", x, u) / math.sqrt(d)  # (N, L)
    z = np.where(np.arange(MAX_LEN) < batch["lengths"][:, None], z, -np.inf)  # padding gets weight 0
    e = np.exp(z - z.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)  # (N, L): the attention row of the ambiguous word
    xbar = np.einsum("nl,nld->nd", a, x)  # (N, d): A X, so that the context A (X W_V) = (A X) W_V
    c = xbar @ w["w_v"]  # (N, d): the context vector
    logits = c @ w["w_c"] + w["b_c"]  # (N, senses)
    top = logits.max(axis=1, keepdims=True)
    el = np.exp(logits - top)
    total = el.sum(axis=1, keepdims=True)
    loss = np.log(total[:, 0]) + top[:, 0] - logits[np.arange(n), batch["labels"]]  # (N,)
    return {"x": x, "xq": xq, "q": q, "u": u, "a": a, "xbar": xbar, "c": c, "logits": logits,
            "probs": el / total, "loss": float(loss.mean())}


def backward(w: Mapping[str, np.ndarray], batch: Mapping[str, np.ndarray], f: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """The gradient of the mean loss on every parameter, by the chapter's chain rule (``attnlib.companions.grads``)
    for the one row that is read: dK_j = dz_j q / √d and dV_j = a_j dC give dW_K = Σ x_j dK_j and
    dW_V = Σ x_j dV_j, grouped as in ``forward``. Chapter "Attention that learns"."""
    n, d = len(batch["ids"]), w["w_q"].shape[0]
    dlogits = f["probs"].copy()
    dlogits[np.arange(n), batch["labels"]] -= 1.0
    dlogits /= n  # (N, senses)
    dc = dlogits @ w["w_c"].T  # (N, d)
    dxbar = dc @ w["w_v"].T  # (N, d): W_V dC, so that dA_j = dC · v_j = x_j · (W_V dC)
    da = np.einsum("nld,nd->nl", f["x"], dxbar)  # (N, L)
    dz = f["a"] * (da - (f["a"] * da).sum(axis=1, keepdims=True))  # (N, L): the softmax Jacobian, one line
    du = np.einsum("nl,nld->nd", dz, f["x"]) / math.sqrt(d)  # (N, d)
    dq = du @ w["w_k"]  # (N, d)
    dx = dz[:, :, None] * f["u"][:, None, :] / math.sqrt(d) + f["a"][:, :, None] * dxbar[:, None, :]  # (N, L, d)
    dx[np.arange(n), batch["query"]] += dq @ w["w_q"].T
    g_embed = np.zeros_like(w["embed"])
    np.add.at(g_embed, batch["ids"], dx)  # padding adds exact zeros
    return {"embed": g_embed, "pos": dx.sum(axis=0), "w_q": f["xq"].T @ dq, "w_k": du.T @ f["q"],
            "w_v": f["xbar"].T @ dc, "w_c": f["c"].T @ dlogits, "b_c": dlogits.sum(axis=0)}


def adam_update(w: dict[str, np.ndarray], g: Mapping[str, np.ndarray], m: dict[str, np.ndarray],
                v: dict[str, np.ndarray], b1t: float, b2t: float, *, lr: float, weight_decay: float,
                names: Sequence[str] = PARAMS) -> None:
    """One step of ``attnlib.companions.learning.adam_step`` in float64 NumPy, in place, on the parameters
    ``names``; ``b1t``, ``b2t`` are β₁ᵗ and β₂ᵗ (the caller keeps them as running products, as the page does)."""
    b1, b2 = ADAM_BETAS
    for name in names:
        m[name] = m[name] * b1 + (1 - b1) * g[name]  # running mean of the gradient
        v[name] = v[name] * b2 + (1 - b2) * (g[name] * g[name])  # running mean of its square
        m_hat, v_hat = m[name] / (1 - b1t), v[name] / (1 - b2t)  # undo the start at 0
        w[name] = w[name] - lr * (m_hat / (np.sqrt(v_hat) + ADAM_EPS) + weight_decay * w[name])


# --- training ---------------------------------------------------------------------------------------------
class AdamRun:
    """What a run of this module's :class:`Trainer` and one of ``attnlib.companions.induction.Trainer`` share:
    the updates done so far, and the loop that trains to the end with :func:`adam_update` on ``names``, at the
    settings' learning rate and weight decay (0 where the settings have none), keeping the last finite weights.
    A subclass sets ``settings``, ``weights``, ``m``, ``v``, ``b1t``, ``b2t``, ``_grads``, ``losses`` and
    ``stopped``, and measures a step in ``_measure`` (False when the loss diverged)."""

    names: Sequence[str] = PARAMS

    @property
    def step(self) -> int:
        """Updates done so far."""
        return max(len(self.losses) - 1, 0)

    def run(self, stop: Callable[[AdamRun], bool] | None = None) -> AdamRun:
        """Train until ``settings['steps']`` updates are done, the loss diverges, or ``stop(self)``."""
        if not self.losses and not self._measure():
            return self
        while self.step < self.settings["steps"] and self.stopped is None:
            kept = {k: x.copy() for k, x in self.weights.items()}
            self.b1t, self.b2t = self.b1t * ADAM_BETAS[0], self.b2t * ADAM_BETAS[1]
            adam_update(self.weights, self._grads, self.m, self.v, self.b1t, self.b2t, lr=self.settings["lr"],
                        weight_decay=self.settings.get("weight_decay", 0.0), names=self.names)
            if not self._measure():
                self.weights = kept  # the last weights whose loss was finite
                break
            if stop is not None and stop(self):
                break
        return self


@dataclass
class Trainer(AdamRun):
    """A training run that can stop and continue: ``run()`` trains until ``steps`` updates are done (or
    ``stop`` returns True after a step, or the loss diverges). ``losses[s]`` and ``accuracies[s]`` are the
    training loss and the held-out accuracy after ``s`` updates, ``rows[s]`` the attention row of the
    ambiguous word of the watched sentence. Chapter "Attention that learns" and its "Train it yourself"
    widget, which computes the same numbers in the page."""

    settings: Mapping[str, Any]
    corpus: Corpus | None = None  # None: made from the settings (``make_corpus``)
    weights: dict[str, np.ndarray] | None = None  # None: ``init_weights`` from the settings
    losses: list[float] = field(default_factory=list)
    accuracies: list[float] = field(default_factory=list)
    rows: list[list[float]] = field(default_factory=list)
    stopped: str | None = None

    def __post_init__(self) -> None:
        self.settings = check_settings(self.settings)
        self.corpus = self.corpus or make_corpus(self.settings)
        vocab = {word: i for i, word in enumerate(self.corpus.vocab)}
        ids, q = _encode(self.settings["watch"], vocab, list(dict.fromkeys(x["word"] for x in self.settings["senses"])),
                         "the watched sentence")
        self.watch = _arrays([(ids, q, 0)])
        if self.weights is None:
            self.weights = init_weights(len(self.corpus.vocab), self.settings["d_model"], len(self.corpus.senses),
                                        self.settings["seed"])
        self.weights = {k: np.array(self.weights[k], dtype=np.float64) for k in PARAMS}
        self.m = {k: np.zeros_like(x) for k, x in self.weights.items()}
        self.v = {k: np.zeros_like(x) for k, x in self.weights.items()}
        self.b1t, self.b2t, self._grads = 1.0, 1.0, None

    def _measure(self) -> bool:
        """Loss, gradients, held-out accuracy and the watched row at the current weights; False if diverged."""
        f = forward(self.weights, self.corpus.train)
        if not math.isfinite(f["loss"]) or (self.losses and f["loss"] > DIVERGED * self.losses[0]):
            now = short_number(f["loss"], 3) if math.isfinite(f["loss"]) else "no longer a finite number"
            self.stopped = (f"the loss diverged at step {len(self.losses)} ({now}, from {short_number(self.losses[0], 3)} "
                            f"at step 0): the learning rate {short_number(self.settings['lr'], 6)} is too large. The weights "
                            f"of step {len(self.losses) - 1} are kept")
            return False
        self.losses.append(f["loss"])
        test = forward(self.weights, self.corpus.test)
        self.accuracies.append(float((test["logits"].argmax(axis=1) == self.corpus.test["labels"]).mean()))
        self.rows.append(forward(self.weights, self.watch)["a"][0, : int(self.watch["lengths"][0])].tolist())
        self._grads = backward(self.weights, self.corpus.train, f)
        return True


def train(settings: Mapping[str, Any] | None = None) -> Trainer:
    """Train with ``settings`` (missing keys from ``DEFAULTS``) to the end. Chapter "Attention that learns"."""
    return Trainer(dict(settings or {})).run()


def replay_chapter_run(corpus: Any, run: Any) -> Trainer:
    """This module's training on the chapter's own corpus (a ``learning.SenseCorpus``) from the initial
    weights of the chapter's run (``run.checkpoint(0)``), with its learning rate, weight decay and steps:
    the chapter's float32 torch run, repeated in float64. Chapter "Attention that learns"."""
    hp = run.hyperparameters
    batches = [{k: getattr(b, k).numpy().astype(np.int64) for k in ("ids", "lengths", "query", "labels")}
               for b in (corpus.train, corpus.test)]
    names = [x.split(":") for x in SENSES]
    senses = [{"word": w, "sense": s, "cues": list(CUES[w][s])} for w, s in names]
    assert vocabulary(senses) == VOCAB
    ours = Corpus(VOCAB, SENSES, batches[0], batches[1], tuple(corpus.held_out_pairs))
    settings = {"senses": senses, "d_model": hp["d_model"], "lr": hp["lr"], "weight_decay": hp["weight_decay"],
                "steps": hp["steps"], "n_train": len(corpus.train), "n_test": len(corpus.test)}
    return Trainer(settings, ours, run.checkpoint(0).state).run()
