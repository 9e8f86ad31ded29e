"""Validation runs once, at the public doors; the inner calls (TinyLM -> block -> attention -> cache) trust it.

The checks are counted while a door is crossed once: each runs as often as there are inputs to check,
never once more per block. Bad inputs at every door still get their error (tests/lib/test_bad_inputs.py
and test_writing.py hold the messages); the ones here are the doors this arrangement adds.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator

import pytest
import torch

import attnlib
from attnlib import cache as cache_module
from attnlib import decoding
from attnlib import modules as modules_module
from attnlib.transformer import TinyLM, TransformerBlock

# the functions and methods that check an input (module attributes are the names the core calls)
CHECKS = [
    (modules_module, "require_finite"), (cache_module, "require_finite"), (modules_module, "_require_key_mask"),
    (attnlib.MultiHeadAttention, "_check"), (attnlib.MultiHeadAttention, "_check_step"),
    (TinyLM, "_check"), (TinyLM, "_check_step"), (attnlib.KVCache, "append"), (attnlib.KVCache, "check_fits"),
]


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter]:
    """Every check of CHECKS counted by name (``require_finite`` counts both modules' calls together)."""
    counts: Counter = Counter()

    def counted(name: str, fn):  # noqa: ANN001, ANN202
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            counts[name] += 1
            return fn(*args, **kwargs)
        return wrapper

    for owner, attr in CHECKS:
        original = getattr(owner, attr, None)
        if original is None:  # a door this code does not have: its count stays 0
            continue
        name = attr if isinstance(owner, type(modules_module)) else f"{owner.__name__}.{attr}"
        monkeypatch.setattr(owner, attr, counted(name, original))
    yield counts


def _model(n_layers: int = 3) -> TinyLM:
    torch.manual_seed(0)
    return TinyLM(11, d_model=16, num_heads=2, d_ff=32, n_layers=n_layers, context=32).eval()


def test_one_tinylm_forward_runs_each_check_once_not_once_per_block(calls: Counter) -> None:
    model = _model(n_layers=3)
    ids = torch.randint(0, 11, (2, 7))
    key_mask = torch.ones(2, 7, dtype=torch.bool)
    calls.clear()
    logits, weights = model(ids, key_mask=key_mask)
    assert logits.shape == (2, 7, 11) and len(weights) == 3
    # the model's door checks its ids, positions and key mask once; no block checks again
    assert calls == Counter({"TinyLM._check": 1, "_require_key_mask": 1}), calls


def test_one_cached_step_runs_each_check_once(calls: Counter) -> None:
    model = _model(n_layers=3)
    caches = model.new_caches(2, capacity=8)
    model.step(torch.randint(0, 11, (2, 4)), caches, positions=torch.arange(4).expand(2, 4))
    calls.clear()
    model.step(torch.randint(0, 11, (2, 1)), caches, positions=torch.full((2, 1), 4),
               key_mask=torch.ones(2, 5, dtype=torch.bool))
    # one door: ids and positions once, the key mask once, each cache (one per block) fitted once;
    # the attention's own door and KVCache.append's checks are not run again (write trusts)
    assert calls == Counter({"TinyLM._check_step": 1, "TinyLM._check": 1, "_require_key_mask": 1,
                             "KVCache.check_fits": 3}), calls


def test_generate_crosses_the_models_door_once_a_step(calls: Counter) -> None:
    model = _model(n_layers=2)
    calls.clear()
    out = attnlib.generate(model, [1, 2, 3], 4)
    steps = len(out.new)  # the prompt's step, then one step per new word but the last
    assert calls == Counter({"TinyLM._check_step": steps, "TinyLM._check": steps, "KVCache.check_fits": 2 * steps}), calls


def test_multi_head_attention_checks_its_one_tensor_once(calls: Counter) -> None:
    mha = attnlib.MultiHeadAttention(8, 2)
    x = torch.randn(2, 5, 8)
    mha(x, is_causal=True)  # self-attention: query, key and value are one tensor, scanned once
    assert calls == Counter({"MultiHeadAttention._check": 1, "require_finite": 1}), calls
    calls.clear()
    mha(x, torch.randn(2, 3, 8), key_mask=torch.ones(2, 3, dtype=torch.bool))  # cross-attention: two tensors
    assert calls == Counter({"MultiHeadAttention._check": 1, "require_finite": 2, "_require_key_mask": 1}), calls
    calls.clear()
    mha.step(x[:, :2], attnlib.KVCache(2, 2, 4))
    assert calls == Counter({"MultiHeadAttention._check_step": 1, "require_finite": 1, "KVCache.check_fits": 1}), calls


def test_a_block_and_the_teacher_forced_loop_check_once(calls: Counter) -> None:
    block = TransformerBlock(8, 2, 16)
    block(torch.randn(2, 5, 8), key_mask=torch.ones(2, 5, dtype=torch.bool))
    assert calls == Counter({"MultiHeadAttention._check": 1, "require_finite": 1, "_require_key_mask": 1}), calls
    calls.clear()
    mha = attnlib.MultiHeadAttention(8, 2)
    decoding.teacher_forced_cached(mha, torch.randn(2, 6, 8), prompt=2, key_mask=torch.ones(2, 6, dtype=torch.bool))
    # the whole sequence once, at the loop's door; its five steps trust it
    assert calls == Counter({"MultiHeadAttention._check_step": 1, "require_finite": 1, "_require_key_mask": 1,
                             "KVCache.check_fits": 1}), calls


def test_kv_cache_append_checks_what_it_is_given_once(calls: Counter) -> None:
    cache = attnlib.KVCache(1, 2, 4)
    cache.append(torch.zeros(1, 2, 3, 4), torch.zeros(1, 2, 3, 4))
    assert calls == Counter({"KVCache.append": 1, "require_finite": 2}), calls


@pytest.mark.parametrize("make_caches, error, message", [
    (lambda m: m.new_caches(1)[:1], TypeError, "a list of 2 attnlib.KVCache, one per block"),
    (lambda m: [torch.zeros(1)] * 2, TypeError, "KVCache"),
    (lambda m: [attnlib.KVCache(1, 2, 8, dtype=torch.float64)] * 2, TypeError, "a cache holds torch.float64"),
    (lambda m: [attnlib.KVCache(1, 3, 8)] * 2, ValueError, r"make it with KVCache\(1, 2, 8\)"),
    (lambda m: m.new_caches(2), ValueError, "the cache holds"),
])
def test_the_models_step_refuses_caches_its_blocks_cannot_use(make_caches, error: type, message: str) -> None:  # noqa: ANN001
    model = _model(n_layers=2)
    with pytest.raises(error, match=message):
        model.step(torch.tensor([[1]]), make_caches(model), positions=torch.tensor([[0]]))


def test_the_doors_refuse_what_the_blocks_would_have_refused() -> None:
    model = _model(n_layers=2)
    caches = model.new_caches(1)
    model.step(torch.tensor([[1, 2]]), caches, positions=torch.tensor([[0, 1]]))
    uneven = [caches[0], model.new_caches(1)[1]]
    with pytest.raises(ValueError, match=r"different numbers of positions: \[2, 0\]"):
        model.step(torch.tensor([[3]]), uneven, positions=torch.tensor([[2]]))
    with pytest.raises(ValueError, match=r"key_mask must cover every key, \(batch, n_k\) = \(1, 3\)"):
        model(torch.tensor([[1, 2, 3]]), key_mask=torch.ones(1, 2, dtype=torch.bool))
    with pytest.raises(ValueError, match="x contains NaN or Inf"):
        decoding.teacher_forced_cached(attnlib.MultiHeadAttention(8, 2), torch.full((1, 3, 8), float("nan")))
    with pytest.raises(ValueError, match="query contains NaN or Inf"):
        TransformerBlock(8, 2, 16)(torch.full((1, 3, 8), float("nan")))
    with pytest.raises(ValueError, match=r"query must have shape \(batch, n, 8\)"):
        TransformerBlock(8, 2, 16)(torch.zeros(1, 3, 6))
