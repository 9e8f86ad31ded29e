"""Exercises of chapter 17, "Attention that learns": the computations (answers, wrong answers, code, values).

The text of the exercises is data, in ``data/17_learning.yml``; it names the functions registered here on
``code`` and shows the values of ``code.values(...)`` in its
``{name}`` fields (``attnbook.exercises._load`` puts the two together).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import torch

from attnlib import softmax
from attnlib.companions import learning, trainer
from attnlib.companions.scaling import softmax_jacobian

from ._helpers import randn
from ._registry import ChapterCode, Numbers

code = ChapterCode(__name__)


@code.function
def jvp(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    return (softmax_jacobian(a) @ g[..., None])[..., 0]  # (rows, n): each row times its J = diag(a) − a aᵀ


@code.function
def jvp_no_outer(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    return a * g  # (rows, n): diag(a) only


@code.function
def jvp_identity(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    return g.copy()  # (rows, n): the softmax skipped


@code.function
def jvp_column_dot(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    return a * (g - (a * g).sum(axis=0, keepdims=True))  # (rows, n): a·g summed down the columns


@code.function
def jvp_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    for rows, n in ((2, 3), (3, 3), (4, 5)):
        a = softmax(rng.standard_normal((rows, n)) * 1.5, dim=-1)  # (rows, n), each row sums to 1
        cases.append((a, rng.standard_normal((rows, n))))
    return cases


@code.function
def gwq(x: torch.Tensor, k: torch.Tensor, grad_z: torch.Tensor) -> torch.Tensor:
    w_q = torch.zeros(x.shape[1], k.shape[1], dtype=x.dtype, requires_grad=True)  # S is linear in W_Q
    with torch.enable_grad():
        scores = (x @ w_q) @ k.T / math.sqrt(k.shape[1])  # (n, n)
        (scores * grad_z).sum().backward()  # autograd, not the formula
    return w_q.grad  # (d_in, d_k)


@code.function
def gwq_transposed(x, k, grad_z):  # noqa: ANN001, ANN201
    return gwq(x, k, grad_z).T  # (d_k, d_in)


@code.function
def gwq_no_scale(x, k, grad_z):  # noqa: ANN001, ANN201
    return gwq(x, k, grad_z) * math.sqrt(k.shape[1])  # (d_in, d_k)


@code.function
def gwq_key_side(x, k, grad_z):  # noqa: ANN001, ANN201
    return gwq(x, k, grad_z.T.contiguous())  # (d_in, d_k): dZᵀ, the formula of the key side


@code.function
def gwq_cases(rng: np.random.Generator) -> list[tuple]:
    return [(randn(rng, n, d_in), randn(rng, n, d_k), randn(rng, n, n)) for n, d_in, d_k in ((3, 4, 2), (5, 3, 4), (4, 6, 3))]


@code.function
def sense_data() -> tuple:
    """The chapter's corpus (seed 0): the reader trains on its training half and is judged on the held-out half,
    whose (ambiguous word, cue) positions no training sentence has."""
    corpus = learning.make_corpus(n_train=1000, n_test=1000, seed=0)
    tr, te = corpus.train, corpus.test
    train_args = (tr.ids, tr.lengths, tr.labels, len(learning.VOCAB), len(learning.SENSES))
    return train_args, (te.ids, te.lengths), te.labels, (tr.ids, tr.lengths), tr.labels


THRESHOLD = 0.95  # 17.5: the held-out accuracy to reach


@code.function
def sense_threshold() -> float:
    return THRESHOLD

ROW = np.array([0.5, 0.3, 0.2])
C = 2.0
FLAT = jvp(ROW[None], np.full((1, 3), C))[0]  # (3,): J applied to a constant vector

code.add(  # 17.3
    ex3_correct=lambda: "a" if np.allclose(FLAT, 0) else "?",
)

A = np.array([0.5, 0.3, 0.2])
G = np.array([2.0, 1.0, 0.0])
DOT_SLIP = float(G.mean())  # the slip: the plain mean of g, not the weighted one
DS_SLIP = A * (G - DOT_SLIP)

code.add(  # 17.4
    ex4_answer=lambda: A @ G,
    ex4_plain_mean=lambda: DOT_SLIP,
    ex4_sum_of_g=lambda: G.sum(),
)

code.values(
    threshold=f"{THRESHOLD:.2f}",
    row=Numbers(ROW),
    c=f"{C:g}",
    a=Numbers(A),
    g=Numbers(G),
    dot_slip=DOT_SLIP,
    minus_slip=Numbers(G - DOT_SLIP),
    ds_slip=Numbers(DS_SLIP),
    ds_slip_sum=DS_SLIP.sum(),
)


# --- 18.6 to 18.8: "Train it yourself" (attnlib.companions.trainer, the recipe the page repeats) -----------------------
@functools.cache
def _coins_run() -> dict[str, float]:
    """The chapter's settings with "coins" a cue of both bank senses: attention to the cue and accuracy on
    the held-out sentences whose cue is "coins", and attention to the cue in the others."""
    senses = [dict(s) for s in trainer.DEFAULTS["senses"]]
    senses[0] = dict(senses[0], cues=[*senses[0]["cues"], "coins"])
    run = trainer.train({"senses": senses})
    test, vocab = run.corpus.test, run.corpus.vocab
    f = trainer.forward(run.weights, test)
    n = len(test["ids"])
    cue = np.array([next(j for j in range(int(test["lengths"][i])) if vocab[test["ids"][i, j]] in learning.CUE_SENSE
                         or vocab[test["ids"][i, j]] == "coins") for i in range(n)])  # (N,) the cue's position
    on_cue = f["a"][np.arange(n), cue]  # (N,)
    coins = test["ids"][np.arange(n), cue] == vocab.index("coins")  # (N,)
    right = f["logits"].argmax(axis=1) == test["labels"]  # (N,)
    return {"coins_attention": float(on_cue[coins].mean()), "other_attention": float(on_cue[~coins].mean()),
            "coins_uniform": float(np.mean(1 / test["lengths"][coins])), "coins_accuracy": float(right[coins].mean())}



def ex6_correct() -> str:
    r = _coins_run()
    looks, half = r["coins_attention"] > 2 * r["coins_uniform"], abs(r["coins_accuracy"] - 0.5) < 0.15
    if r["other_attention"] < 0.5:
        return "d"
    return {(True, False): "a", (False, True): "b", (True, True): "c"}.get((looks, half), "?")


LR_GRID = (0.1, 0.2, 0.4, 0.8)  # doubling: four runs of the page's trainer answer it
LR_SETTINGS = {"n_train": 300, "n_test": 100, "steps": 20}


@functools.cache
def _lr_runs() -> dict[float, trainer.Trainer]:
    return {lr: trainer.train({**LR_SETTINGS, "lr": lr}) for lr in LR_GRID}


def ex7_answer() -> float:
    return min(lr for lr, run in _lr_runs().items() if run.stopped)


def ex7_last_that_trains() -> float:
    return max(lr for lr, run in _lr_runs().items() if not run.stopped and lr < ex7_answer())


def ex7_first_rise() -> float:
    return min(lr for lr, run in _lr_runs().items() if max(run.losses) > run.losses[0])


WD = trainer.DEFAULTS["weight_decay"]


@functools.cache
def _spreads() -> tuple[float, float]:
    """Mean over rows of max − min of the positional scores, trained with the chapter's weight decay and without."""
    def spread(wd: float) -> float:
        return float(np.ptp(learning.positional_scores(trainer.train({"weight_decay": wd}).weights), axis=1).mean())
    return spread(WD), spread(0.0)


def ex8_correct() -> str:
    with_decay, plain = _spreads()
    return "c" if with_decay < 0.1 * plain else "?"


code.add(ex6_correct=ex6_correct, ex7_answer=ex7_answer, ex7_last_that_trains=ex7_last_that_trains,
         ex7_first_rise=ex7_first_rise, ex8_correct=ex8_correct)
code.values(
    lr_sentences=str(LR_SETTINGS["n_train"]), lr_held_out=str(LR_SETTINGS["n_test"]), lr_steps=str(LR_SETTINGS["steps"]),
    lr_grid=", ".join(f"{x:g}" for x in LR_GRID), diverged=f"{trainer.DIVERGED:g}", wd=f"{WD:g}",
)
