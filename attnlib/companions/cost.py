"""What attention costs: bytes and FLOPs by formula, time and peak memory by measurement.

The formulas are exact counts; the measurements are for one machine at one moment. Peak memory is
the resident set size (RSS) high-water mark of the process, which the Linux kernel keeps in
``/proc/self/status`` (``VmHWM``) and resets when ``5`` is written to ``/proc/self/clear_refs``.
RSS counts every page torch, MKL and the allocator really touch; ``tracemalloc`` sees none of
torch's buffers. Elsewhere than on Linux the peak is not available and ``None`` is returned.

Chapter: "Attention at scale"; also ``benchmarks/bench_attention.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import torch

from .._validate import require_positive_int


def score_matrix_bytes(batch: int, heads: int, n_q: int, n_k: int | None = None, *,
                       dtype: torch.dtype = torch.float32) -> int:
    """Bytes of one ``(batch, heads, n_q, n_k)`` score (or weight) matrix of ``dtype``.

    ``n_k`` defaults to ``n_q`` (self-attention). Used in: "Attention at scale".
    """
    sizes = [require_positive_int(x, name) for x, name in
             ((batch, "batch"), (heads, "heads"), (n_q, "n_q"), (n_q if n_k is None else n_k, "n_k"))]
    if not isinstance(dtype, torch.dtype):
        raise TypeError(f"dtype must be a torch.dtype, got {type(dtype).__name__}")
    return sizes[0] * sizes[1] * sizes[2] * sizes[3] * dtype.itemsize


def attention_flops(batch: int, heads: int, n_q: int, n_k: int, d_k: int, d_v: int | None = None) -> int:
    """Floating-point operations of the two matrix products of attention, ``q kᵀ`` and ``weights v``.

    A multiply-add counts as 2: ``2·n_q·n_k·d_k + 2·n_q·n_k·d_v`` per batch·head (``d_v``
    defaults to ``d_k``). Softmax (a few operations per score) is not counted.
    Used in: "Attention at scale".
    """
    b, h, nq, nk, dk = (require_positive_int(x, name) for x, name in
                        ((batch, "batch"), (heads, "heads"), (n_q, "n_q"), (n_k, "n_k"), (d_k, "d_k")))
    dv = dk if d_v is None else require_positive_int(d_v, "d_v")
    return 2 * b * h * nq * nk * (dk + dv)


def _status_bytes(key: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024  # the kernel reports kB
    except OSError:
        return None
    return None


class PeakRSS:
    """Context manager: how much the process's peak RSS rose above its RSS at entry.

    ``with PeakRSS() as mem: fn()`` then ``mem.extra`` is the number of bytes (``None`` where the
    kernel offers no resettable high-water mark), ``mem.before`` the RSS at entry and ``mem.peak``
    the high-water mark. Memory the allocator kept from earlier calls is reused before new pages
    are touched, so measure the largest case in a fresh process when it matters.
    Used in: "Attention at scale" and ``benchmarks/bench_attention.py``.
    """

    def __init__(self) -> None:
        self.before: int | None = None
        self.peak: int | None = None
        self.extra: int | None = None

    def __enter__(self) -> PeakRSS:
        try:
            with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
                f.write("5")  # reset VmHWM to the current RSS (Linux >= 4.0)
            self.before = _status_bytes("VmRSS")
        except OSError:
            self.before = None
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.before is not None:
            self.peak = _status_bytes("VmHWM")
            self.extra = None if self.peak is None else max(self.peak - self.before, 0)


def best_time(fn: Callable[[], Any], repeats: int = 3, *, warmup: bool = True, min_seconds: float = 0.0) -> float:
    """The shortest wall-clock time of one call of ``fn``, in seconds, over ``repeats`` measurements.

    The minimum is the run least disturbed by other processes on a shared machine. A call much
    shorter than the clock's resolution and the machine's jitter is timed in a batch: each
    measurement runs ``fn`` as many times as it takes to last at least ``min_seconds`` (as Python's
    ``timeit`` does) and divides. Used in: "Why attention is parallel", "Attention at scale".
    """
    repeats = require_positive_int(repeats, "repeats")
    if warmup:
        fn()
    number = 1
    while min_seconds > 0:
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        if time.perf_counter() - t0 >= min_seconds:
            break
        number *= 2
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best
