"""The checks behind the errata rows: one named, typed function per row of ``book/_data/errata``.

One module per YAML file (``ch07_i_am_happy`` for ``07_i_am_happy.yml``, ``audit_004`` for
``audit_004.yml``). A function is registered under its row id with ``@check("row-id")``; the
row's ``id`` names it, and ``tests/test_errata.py`` fails on a row with no function and on a
function with no row. Used by: "Errata" and "Number audit".
"""

from __future__ import annotations

from . import (  # noqa: F401  (importing a module registers its checks)
    audit_000,
    audit_001,
    audit_002,
    audit_003,
    audit_004,
    ch01_words_to_numbers,
    ch02_context,
    ch03_qkv,
    ch04_magnitude,
    ch05_softmax,
    ch06_scaling,
    ch07_i_am_happy,
    ch08_it_attends,
    ch09_attention_maps,
    ch10_pytorch,
    ch11_numpy_scratch,
    ch12_parallelism,
    ch13_multihead_causal,
    ch14_at_scale,
)
from ._registry import CHECKS, Value, check, plain

__all__ = ["CHECKS", "Value", "check", "plain"]
