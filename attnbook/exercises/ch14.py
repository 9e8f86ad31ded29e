"""Exercises of chapter 14, "Attention at scale"."""

from __future__ import annotations

import numpy as np
import torch

from attnlib import cost
from attnlib.chunked import online_softmax_update

from ._core import Choice, Code, Exercise, FindError, Misconception, Mistake, Numeric, Section, fmt
from ._helpers import randn

CH = "14_at_scale"
PAIRS = Section(CH, "One score for every pair of tokens")
MEASURED = Section(CH, "Measured: time and memory when $n$ doubles")
ONLINE = Section(CH, "The online softmax, by hand")
CHUNKED = Section(CH, "Chunked attention: the same step on tiles")

B, H, N = 8, 8, 1024
MIB = 2**20

E14_1 = Exercise(
    id="14.1", kind="compute", skill="the memory of a score matrix",
    prompt=(f"A batch of {B} sequences, {H} heads, n = {N} tokens, float32 (4 bytes a number). How many MiB "
            "(2²⁰ bytes) does one layer's score matrix take?"),
    answer=Numeric(lambda: cost.score_matrix_bytes(B, H, N) / MIB, tol=0.5, expect="one number"),
    mistakes=[
        Mistake(Misconception("forgot-bytes", "numbers counted, not bytes",
                              "Each float32 takes 4 bytes.", PAIRS), value=lambda: B * H * N * N / MIB),
        Mistake(Misconception("one-matrix", "one head of one sequence only",
                              "Every head of every sequence has its own n × n matrix: multiply by B·H.", PAIRS),
                value=lambda: cost.score_matrix_bytes(1, 1, N) / MIB),
        Mistake(Misconception("float64", "8 bytes a number",
                              "float32 is 4 bytes; float64 would be 8.", PAIRS),
                value=lambda: cost.score_matrix_bytes(B, H, N, dtype=torch.float64) / MIB),
    ],
    hint="B · H · n · n numbers, 4 bytes each, divided by 2²⁰.",
    section=PAIRS, why="It grows with n²: twice the tokens, four times this.",
)


def _online_reference(scores, v_blk, run_max, run_sum, acc):  # noqa: ANN001, ANN202 - same as attnlib's
    return online_softmax_update(scores, v_blk, run_max, run_sum, acc)


def _online_no_rescale(scores, v_blk, run_max, run_sum, acc):  # noqa: ANN001, ANN202
    new_max = torch.maximum(run_max, scores.amax(dim=-1, keepdim=True))  # (n_q, 1)
    p = torch.exp(scores - new_max)  # (n_q, b)
    return new_max, run_sum + p.sum(dim=-1, keepdim=True), acc + p @ v_blk  # old sums not rescaled


def _online_block_max(scores, v_blk, run_max, run_sum, acc):  # noqa: ANN001, ANN202
    block_max = scores.amax(dim=-1, keepdim=True)  # (n_q, 1): the running max is forgotten
    p = torch.exp(scores - block_max)  # (n_q, b)
    alpha = torch.exp(run_max - block_max)  # (n_q, 1)
    return block_max, alpha * run_sum + p.sum(dim=-1, keepdim=True), alpha * acc + p @ v_blk


def _online_cases(rng: np.random.Generator) -> list[tuple]:
    cases = []
    for n_q, b, d_v in ((1, 3, 2), (2, 4, 3), (3, 2, 2)):
        first = randn(rng, n_q, b) * 2
        v1, v2 = randn(rng, b, d_v), randn(rng, b, d_v)
        start = (torch.full((n_q, 1), float("-inf"), dtype=torch.float64), torch.zeros(n_q, 1, dtype=torch.float64),
                 torch.zeros(n_q, d_v, dtype=torch.float64))
        cases.append((first.clone(), v1, *start))
        state = online_softmax_update(first.clone(), v1, *start)
        second = randn(rng, n_q, b) * 2 + 3  # a later block with a larger max
        cases.append((second, v2, *state))
        cases.append((randn(rng, n_q, b) - 6, v2, *state))  # a later block with a smaller max
    return cases


E14_2 = Exercise(
    id="14.2", kind="code", skill="one online-softmax update",
    prompt=("Write online_softmax_update(scores, v_blk, run_max, run_sum, acc): scores is one block (n_q, b), "
            "v_blk its values (b, d_v); run_max and run_sum are (n_q, 1), acc is (n_q, d_v) (start: −∞, 0, 0). "
            "Return the new (run_max, run_sum, acc)."),
    answer=Code("def online_softmax_update(scores, v_blk, run_max, run_sum, acc):",
                "a tuple of three tensors (run_max, run_sum, acc)", _online_reference, _online_cases),
    mistakes=[
        Mistake(Misconception("no-rescale", "the old sum and accumulator not rescaled",
                              "When the max rises from m to m′, multiply run_sum and acc by exp(m − m′) first.",
                              ONLINE), impl=_online_no_rescale),
        Mistake(Misconception("block-max-only", "the block's max used as the running max",
                              "The new running max is max(run_max, block max), never smaller than before.", ONLINE),
                impl=_online_block_max),
    ],
    hint="m′ = max(m, max of block); l′ = e^(m−m′)·l + Σ e^(s−m′); a′ = e^(m−m′)·a + e^(s−m′) @ v.",
    section=ONLINE,
)

BLOCK1, BLOCK2 = np.array([1.0, 3.0]), np.array([4.0, 0.0])
M1 = BLOCK1.max()
L1 = np.exp(BLOCK1 - M1).sum()
M2 = max(M1, BLOCK2.max())
L1_RESCALED = L1 * np.exp(M1 - M2)
L_SLIP = L1 + np.exp(BLOCK2 - M2).sum()  # the slip: no rescale

E14_3 = Exercise(
    id="14.3", kind="find-error", skill="the online softmax, by hand",
    prompt=(f"A reader runs the online softmax over two blocks of scores, {fmt(BLOCK1, 1)} then {fmt(BLOCK2, 1)}, "
            "keeping the running max m and the running sum l of exp(s − m). One step has a slip: which one, and "
            "what is its right value (3 decimals)?"),
    answer=FindError(
        steps=[("a", f"after block 1: m = {M1:.1f}, l = e^(1−3) + e^0 = {L1:.3f}"),
               ("b", f"block 2 raises the max: m′ = {M2:.1f}"),
               ("c", f"the old sum carried over to m′: l = {L1:.3f}"),
               ("d", f"add block 2's terms e^(4−4) + e^(0−4): l′ = {L_SLIP:.3f}")],
        wrong_step="c", value=Numeric(lambda: L1_RESCALED, tol=5e-4, expect="one number"),
        value_hint="Step c is the one: the old sum is measured against the old max; rescale it by e^(m − m′)."),
    mistakes=[
        Mistake(Misconception("blamed-the-result", "the step that shows the slip, not the one that made it",
                              "Step d adds block 2's terms correctly to what step c gave it.", ONLINE), option="d"),
        Mistake(Misconception("max-doubted", "the new max doubted",
                              "Step b is right: the largest score so far is 4.", ONLINE), option="b"),
        Mistake(Misconception("no-rescale", "the old sum not rescaled",
                              "That is the slip itself: multiply the old sum by e^(m − m′).", ONLINE),
                value=lambda: L1),
        Mistake(Misconception("rescale-sign", "rescaled by e^(m′ − m)",
                              "The old terms shrink relative to the larger max: the factor is e^(m − m′) < 1.",
                              ONLINE), value=lambda: L1 * np.exp(M2 - M1)),
    ],
    hint="Check each step: every term of l must be e^(s − current max).",
    section=ONLINE, why="Rescaling by e^(m − m′) keeps every term of l measured against the same max.",
)

E14_4 = Exercise(
    id="14.4", kind="predict", skill="time grows with n²",
    prompt=("Predict, then run: n doubles from 1024 to 2048 in the readable attention. By roughly what factor "
            "does the time grow?"),
    answer=Choice([("a", "about 2"), ("b", "about 4"), ("c", "about 8"), ("d", "about 1")],
                  "b" if cost.attention_flops(1, 1, 2 * N, 2 * N, 64) == 4 * cost.attention_flops(1, 1, N, N, 64)
                  else "?"),
    mistakes=[
        Mistake(Misconception("linear-growth", "the work taken as linear in n",
                              "Both matrix products have n × n entries to compute.", MEASURED), option="a"),
        Mistake(Misconception("cubic-growth", "the work taken as cubic in n",
                              "2 n² d operations per product: quadratic in n for a fixed d.", MEASURED), option="c"),
    ],
    hint="How does the number of (query, key) pairs grow?",
    section=MEASURED, why="The arithmetic is 2n²d per product: four times the pairs, four times the time.",
)

EXERCISES = [E14_1, E14_2, E14_3, E14_4]
