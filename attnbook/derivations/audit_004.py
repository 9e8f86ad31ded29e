"""Checks of the rows in book/_data/errata/audit_004.yml, one function per row id."""

from __future__ import annotations

import math

import torch

import attnlib
from attnlib.companions import examples, recurrence

from .. import printed
from ..evidence import MadeUp
from ._registry import Value, derives


@derives("doc004-static-bank")
def doc004_static_bank() -> Value:
    """claim: a static lookup gives 'bank' the same vector in both sentences; attention."""
    es = [torch.stack([examples.BANK_EMBEDDINGS[w] for w in s]) for s in examples.BANK_SENTENCES]
    return bool(
        torch.equal(es[0][1], es[1][1])
        and (
            not torch.allclose(*[attnlib.scaled_dot_product_attention(e, e, e, scale=1.0)[0][1] for e in es])
        )
    )


@derives("doc004-bank-output-shares")
def doc004_bank_output_shares() -> Value:
    """Shares of V[river] and V[of] in the output for 'bank' (made up)."""
    shares = [round(100 * printed.BANK_OF_RIVER_WEIGHTS_PRINTED[w]) for w in ("river", "of")]
    return MadeUp(
        confirmed=shares == [50, 30], shown={"the printed weights of river and of, in percent": shares}
    )


@derives("doc004-brl-embeddings")
def doc004_brl_embeddings() -> Value:
    """embeddings of 'bank', 'river', 'loan' (the inputs the book stores)."""
    return examples.BRL_EMBEDDINGS


@derives("doc004-brl-shapes")
def doc004_brl_shapes() -> Value:
    """shape of the embeddings and of Q, K and V (the check returns it only if all four."""
    e, g = (examples.BRL_EMBEDDINGS, torch.Generator().manual_seed(examples.BRL_SEED))
    s = [tuple(e.shape)] + [tuple((e @ (torch.randn(4, 4, generator=g) * 0.5)).shape) for _ in range(3)]
    return list(s[0]) if len(set(s)) == 1 else None


@derives("doc004-magnitude-inputs")
def doc004_magnitude_inputs() -> Value:
    """the query and the three keys."""
    return [examples.MAGNITUDE_QUERY.tolist(), *[k.tolist() for k in examples.MAGNITUDE_KEYS.values()]]


@derives("doc004-magnitude-scores")
def doc004_magnitude_scores() -> Value:
    """q·k for K1 (short, aligned), K2 (long, aligned), K3 (misaligned)."""
    return torch.stack(list(examples.MAGNITUDE_KEYS.values())) @ examples.MAGNITUDE_QUERY


@derives("doc004-misaligned-beats-aligned")
def doc004_misaligned_beats_aligned() -> Value:
    """claim: the misaligned K3 scores higher than the aligned K1 although its cosine i."""
    q, k1, k3 = (
        examples.MAGNITUDE_QUERY,
        examples.MAGNITUDE_KEYS["K1 (short, aligned)"],
        examples.MAGNITUDE_KEYS["K3 (misaligned)"],
    )
    return bool(
        q @ k3 > q @ k1 and torch.cosine_similarity(q, k3, dim=0) < torch.cosine_similarity(q, k1, dim=0)
    )


@derives("doc004-scaling-inputs")
def doc004_scaling_inputs() -> Value:
    """the query, the aligned key and the misaligned key."""
    return [
        examples.MAGNITUDE_QUERY.tolist(),
        examples.ALIGNED_KEY.tolist(),
        examples.MISALIGNED_KEY.tolist(),
    ]


@derives("doc004-scaling-dk")
def doc004_scaling_dk() -> Value:
    """d_k of the 2-d example and √d_k."""
    d = examples.MAGNITUDE_QUERY.shape[-1]
    return [d, d, math.sqrt(d)]


@derives("doc004-scaling-printout")
def doc004_scaling_printout() -> Value:
    """aligned score, misaligned score and their ratio, without and with scaling by √2."""
    a, m, s = (
        float(examples.MAGNITUDE_QUERY @ examples.ALIGNED_KEY),
        float(examples.MAGNITUDE_QUERY @ examples.MISALIGNED_KEY),
        math.sqrt(2),
    )
    return [a, m, a / m, a / s, m / s, a / s / (m / s)]


@derives("doc004-ratio-stays")
def doc004_ratio_stays() -> Value:
    """claim: dividing both scores by √d_k leaves their ratio unchanged."""
    a, m = (
        float(examples.MAGNITUDE_QUERY @ examples.ALIGNED_KEY),
        float(examples.MAGNITUDE_QUERY @ examples.MISALIGNED_KEY),
    )
    return math.isclose(a / m, a / math.sqrt(2) / (m / math.sqrt(2)), rel_tol=1e-12) and a / math.sqrt(2) < a


@derives("doc004-softmax-sums-to-one")
def doc004_softmax_sums_to_one() -> Value:
    """claim: softmax turns the scores into probabilities that sum to 1.0."""
    s = torch.stack(list(examples.MAGNITUDE_KEYS.values())) @ examples.MAGNITUDE_QUERY
    return bool(
        torch.allclose(attnlib.softmax(s / math.sqrt(2)).sum(), torch.tensor(1.0))
        and (attnlib.softmax(s) > 0).all()
    )


@derives("doc004-real-dims")
def doc004_real_dims() -> Value:
    """claim: real transformers use 512 or more dimensions (published sizes: Transforme."""
    return min(s["d_model"] for s in examples.PUBLISHED_SIZES.values()) == 512


@derives("doc004-walkthrough-shapes")
def doc004_walkthrough_shapes() -> Value:
    """batch size, sequence length, d_model, d_k and the shapes of embeddings, Q/K/V, w."""
    s, g = (examples.WALKTHROUGH_SIZES, torch.Generator().manual_seed(0))
    x = torch.randn(s["batch_size"], s["seq_len"], s["d_model"], generator=g)
    q, k, v = [x @ torch.randn(s["d_model"], s["d_k"], generator=g) for _ in range(3)]
    o, w = attnlib.ScaledDotProductAttention()(q, k, v)
    return [s["batch_size"], s["seq_len"], s["d_model"], s["d_k"], *x.shape, *q.shape, *w.shape, *o.shape]


@derives("doc004-walkthrough-probabilities")
def doc004_walkthrough_probabilities() -> Value:
    """claim: the weights are probabilities, 0.0 to 1.0, and each query's weights sum t."""
    s, g = (examples.WALKTHROUGH_SIZES, torch.Generator().manual_seed(0))
    x = torch.randn(s["batch_size"], s["seq_len"], s["d_model"], generator=g)
    w = attnlib.ScaledDotProductAttention()(
        *[x @ (torch.randn(s["d_model"], s["d_k"], generator=g) / math.sqrt(s["d_model"])) for _ in range(3)]
    )[1]
    return bool(((w >= 0) & (w <= 1)).all() and torch.allclose(w.sum(-1), torch.ones(2, 10)))


@derives("doc004-dk-64")
def doc004_dk_64() -> Value:
    """d_k = d_model / num_heads for 8 heads of width 512."""
    s = examples.PUBLISHED_SIZES["Transformer base (2017)"]
    return [s["d_model"], s["num_heads"], s["d_model"] // s["num_heads"]]


@derives("doc004-it-inputs")
def doc004_it_inputs() -> Value:
    """the query of 'it' and the keys and values of animal, street, because."""
    return [examples.IT_QUERY.tolist(), *examples.IT_KEYS.tolist(), *examples.IT_VALUES.tolist()]


@derives("doc004-it-dk")
def doc004_it_dk() -> Value:
    """d_k of the 2-d example."""
    return examples.IT_KEYS.shape[-1]


@derives("doc004-step-inputs")
def doc004_step_inputs() -> Value:
    """Q (= K) and V of the 3-token example."""
    return [examples.STEP_Q.tolist(), examples.STEP_V.tolist()]


@derives("doc004-step-shapes")
def doc004_step_shapes() -> Value:
    """tokens and width of Q and V, and d_k = Q.size(-1)."""
    return (
        [*examples.STEP_Q.shape, examples.STEP_Q.shape[-1]]
        if examples.STEP_V.shape == examples.STEP_Q.shape
        else None
    )


@derives("doc004-attention-one-step")
def doc004_attention_one_step() -> Value:
    """sequential steps one attention layer needs for the whole sentence."""
    return recurrence.path_counts(examples.BANK_LOAN_SENTENCE.split(), "bank", "it").attention_steps_total


@derives("doc004-long-range")
def doc004_long_range() -> Value:
    """claim: one attention layer links word 100 to word 1 in one step, as it links nei."""
    far, near = (
        recurrence.path_counts([f"w{i}" for i in range(1, 101)], "w1", "w100"),
        recurrence.path_counts(["a", "b"], "a", "b"),
    )
    return far.attention_path_length == near.attention_path_length == 1 and far.rnn_path_length == 99
