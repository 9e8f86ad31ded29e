"""Positions in every precision and on every device: the rotary angles and the sinusoidal table are
computed in float32 at least (float64 for float64) and cast once, so bfloat16 and float16 are as close
to a float64 reference as the peers' code (Hugging Face's LLaMA rotary, written out below); the
frequencies are made on the input's device; integer and bool dtypes are refused. The references are
the papers' formulas, written here in float64."""

from __future__ import annotations

import math

import pytest
import torch

import attnlib
from attnlib.positions import apply_rope, frequencies, rope_unchecked, sinusoidal_table

LOW = [torch.bfloat16, torch.float16]


def reference_rope(x: torch.Tensor, positions: torch.Tensor, layout: str) -> torch.Tensor:
    """RoFormer's rotation in float64: pair i of the vector at position m turned by m · 10000^(-2i/d)."""
    x = x.double()
    d = x.shape[-1]
    theta = torch.tensor([10000.0 ** (-2 * i / d) for i in range(d // 2)], dtype=torch.float64)
    angle = positions.double()[:, None] * theta  # (n, d/2)
    cos, sin = torch.cos(angle), torch.sin(angle)
    first, second = (slice(0, None, 2), slice(1, None, 2)) if layout == "interleaved" else (
        slice(0, d // 2), slice(d // 2, d))
    a, b = x[..., first], x[..., second]
    out = torch.empty_like(x)
    out[..., first], out[..., second] = a * cos - b * sin, a * sin + b * cos
    return out


def peer_rope(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """Hugging Face's LLaMA rotary ("halves" layout): the angles in float32, cos and sin cast to x's
    dtype, the rotation computed in x's dtype."""
    d = x.shape[-1]
    inv_freq = 1.0 / (10000 ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))
    freqs = positions.float()[:, None] * inv_freq[None, :]  # (n, d/2)
    emb = torch.cat((freqs, freqs), dim=-1)  # (n, d)
    cos, sin = emb.cos().to(x.dtype), emb.sin().to(x.dtype)
    rotated = torch.cat((-x[..., d // 2:], x[..., :d // 2]), dim=-1)
    return x * cos + rotated * sin


def relative_error(got: torch.Tensor, want: torch.Tensor, x: torch.Tensor) -> float:
    return ((got.double() - want).abs().max() / x.double().abs().max()).item()


@pytest.mark.parametrize("dtype", LOW, ids=str)
def test_rope_in_low_precision_at_1024_positions_is_as_close_as_the_peers(dtype) -> None:  # noqa: ANN001
    n = 1024
    x = torch.randn(2, 4, n, 64, generator=torch.Generator().manual_seed(0), dtype=torch.float64).to(dtype)
    at = torch.arange(n)
    ours = apply_rope(x, layout="halves")
    assert ours.dtype == dtype
    err = relative_error(ours, reference_rope(x, at, "halves"), x)
    peer = relative_error(peer_rope(x, at), reference_rope(x, at, "halves"), x)
    # one rounding to the dtype at the end: at most a unit in the last place of a value <= sqrt(2) max|x|
    assert err <= math.sqrt(2) * torch.finfo(dtype).eps, err
    assert err <= peer, (err, peer)
    assert relative_error(apply_rope(x), reference_rope(x, at, "interleaved"), x) <= math.sqrt(2) * torch.finfo(dtype).eps


def test_rope_in_float32_and_float64_keeps_their_precision() -> None:
    x = torch.randn(3, 512, 16, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    at = torch.arange(512)
    assert relative_error(apply_rope(x), reference_rope(x, at, "interleaved"), x) <= 1e-12
    x32 = x.float()
    # float32 angles of up to 511 radians carry about 511 · 2^-24 of error, as in every float32 rotary code
    assert relative_error(apply_rope(x32), reference_rope(x32, at, "interleaved"), x32) <= 1e-4


@pytest.mark.parametrize("dtype", [*LOW, torch.float32], ids=str)
def test_the_sinusoidal_table_in_low_precision_is_the_exact_table_rounded_once(dtype) -> None:  # noqa: ANN001
    n, d = 512, 64
    table = sinusoidal_table(n, d, dtype=dtype)
    want = torch.empty(n, d, dtype=torch.float64)
    for i in range(d // 2):
        angle = torch.arange(n, dtype=torch.float64) / 10000 ** (2 * i / d)
        want[:, 2 * i], want[:, 2 * i + 1] = torch.sin(angle), torch.cos(angle)
    assert table.dtype == dtype
    err = (table.double() - want).abs().max().item()
    assert err <= max(torch.finfo(dtype).eps, n * 2.0 ** -23), err  # the rounding, or float32 angles


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.uint8, torch.bool, torch.complex64], ids=str)
def test_integer_bool_and_complex_dtypes_are_refused_by_name(dtype) -> None:  # noqa: ANN001
    name = str(dtype)
    with pytest.raises(TypeError, match=name):
        sinusoidal_table(4, 8, dtype=dtype)
    with pytest.raises(TypeError, match=name):
        frequencies(8, dtype=dtype)
    with pytest.raises((TypeError, ValueError), match=name):
        apply_rope(torch.zeros(3, 8, dtype=dtype))


def test_the_frequencies_follow_the_inputs_device() -> None:
    """On the meta device (shapes only, no numbers), every tensor the rotation makes must be made there
    too: a frequency table made on the CPU would make the product fail."""
    x = torch.empty(2, 4, 6, 8, device="meta", dtype=torch.bfloat16)
    out = rope_unchecked(x, torch.arange(6, device="meta"), "interleaved", 10000.0)
    assert out.device.type == "meta" and out.dtype == torch.bfloat16 and out.shape == x.shape
    assert frequencies(8, device="meta").device.type == "meta"
    assert sinusoidal_table(5, 8, device="meta", dtype=torch.float16).device.type == "meta"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU here: the device test runs where one is")
@pytest.mark.parametrize("dtype", [torch.float32, *LOW], ids=str)
def test_rope_and_multi_head_attention_with_rope_run_on_a_gpu(dtype) -> None:  # noqa: ANN001
    x = torch.randn(2, 3, 300, 16, generator=torch.Generator().manual_seed(2)).to(dtype)
    on_gpu = apply_rope(x.cuda(), layout="halves")
    assert on_gpu.device.type == "cuda" and on_gpu.dtype == dtype
    at = torch.arange(300)
    assert relative_error(on_gpu.cpu(), reference_rope(x, at, "halves"), x) <= math.sqrt(2) * torch.finfo(dtype).eps
    table = sinusoidal_table(300, 16, dtype=dtype, device="cuda")
    assert table.device.type == "cuda" and torch.equal(table.cpu(), sinusoidal_table(300, 16, dtype=dtype))
    torch.manual_seed(0)
    mha = attnlib.MultiHeadAttention(16, 2, rope=True)
    tokens = torch.randn(2, 10, 16)
    want, _ = mha(tokens, is_causal=True)
    got, _ = mha.cuda()(tokens.cuda(), is_causal=True)
    torch.testing.assert_close(got.cpu(), want, atol=1e-4, rtol=1e-4)
    cache = attnlib.KVCache(2, 2, 8, device="cuda")
    steps = [mha.step(tokens[:, i:i + 1].cuda(), cache)[0] for i in range(10)]
    torch.testing.assert_close(torch.cat(steps, dim=1).cpu(), want, atol=1e-4, rtol=1e-4)
