"""The checks behind the errata rows: one named, typed function per row of ``book/_data/errata``.

One private module per YAML file (``_ch07_i_am_happy`` for ``07_i_am_happy.yml``, ``_audit_004`` for
``audit_004.yml``). A function is registered under its row id with ``@check("row-id")``; the
row's ``id`` names it, and ``tests/test_errata.py`` fails on a row with no function and on a
function with no row. Used by: "Errata" and "Number audit".
"""

from __future__ import annotations

from . import (  # noqa: F401  (importing a module registers its checks)
    _audit_000,
    _audit_001,
    _audit_002,
    _audit_003,
    _audit_004,
    _ch01_words_to_numbers,
    _ch02_context,
    _ch03_qkv,
    _ch04_magnitude,
    _ch05_softmax,
    _ch06_scaling,
    _ch07_i_am_happy,
    _ch08_it_attends,
    _ch09_attention_maps,
    _ch10_pytorch,
    _ch11_numpy_scratch,
    _ch12_parallelism,
    _ch13_multihead_causal,
    _ch14_at_scale,
)
from ._registry import CHECKS, Value, check, plain

__all__ = ["CHECKS", "Value", "check", "plain"]
