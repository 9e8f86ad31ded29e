"""What checking once at the doors saves: a TinyLM forward and a cached step, before and after, side by side.

Before issue 48's last point, every block's attention checked its input again (a NaN scan of the block's
input three times, once each as query, key and value, and the key mask); now the model checks once at its
door and the blocks trust it. This script loads the ``attnlib`` of an earlier commit (``--before``, by
default the commit before the change) as a second package, ``attnlib_before``, gives both models the same
weights, and alternates them: chapter 19's model (``TinyLM(103)``, d_model 48, 4 heads, 2 blocks, a batch of
32 stories with a key mask) and chapter 21's (``real_text.SHAPE``, rotary, a batch of 32 windows of 64).
For each it reports the median time of a forward without and with a backward and of one cached step,
the median ratio before / after over the rounds with its spread, and the checks' own time, measured alone.
One thread, on the CPU. The figures are recorded in docs/notes/CORE.md. Run from the repository root:
``python -m benchmarks.bench_doors [--before REV] [--rounds N]``.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import torch

import attnlib
from attnlib.companions import real_text, stories
from benchmarks._common import say

BEFORE = "880dd19"  # the last commit whose blocks checked their inputs again


def _load_before(rev: str, where: Path) -> object:
    """``attnlib`` of commit ``rev`` as the package ``attnlib_before`` (its core imports only itself)."""
    root = Path(__file__).resolve().parents[1]
    tar = subprocess.run(["git", "-C", str(root), "archive", rev, "attnlib"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=tar, check=True)
    (where / "attnlib").rename(where / "attnlib_before")
    sys.path.insert(0, str(where))
    return importlib.import_module("attnlib_before")


def side_by_side(fn_old: Callable[[], object], fn_new: Callable[[], object], repeat: int,
                 rounds: int) -> tuple[float, float, float, float, float]:
    """Alternate the two, ``repeat`` calls a turn, ``rounds`` turns each: the median ms per call of each,
    and the median, 3rd lowest and 3rd highest of the per-round ratios before / after."""
    fn_old(), fn_new()
    olds, news = [], []
    for _ in range(rounds):
        for fn, out in ((fn_old, olds), (fn_new, news)):
            t0 = time.perf_counter()
            for _ in range(repeat):
                fn()
            out.append((time.perf_counter() - t0) / repeat * 1e3)
    ratios = sorted(o / n for o, n in zip(olds, news, strict=True))
    k = min(2, (len(ratios) - 1) // 2)
    return statistics.median(olds), statistics.median(news), statistics.median(ratios), ratios[k], ratios[-1 - k]


def _stepper(model: torch.nn.Module, ids: torch.Tensor) -> Callable[[], None]:
    """One cached step of one word (batch 1) after a prompt of 16, the caches cut back after each."""
    caches = model.new_caches(1, capacity=64)
    with torch.no_grad():
        model.step(ids[:1, :16], caches, positions=torch.arange(16)[None])
    one, at = ids[:1, 16:17], torch.tensor([[16]])

    def run() -> None:
        with torch.no_grad():
            model.step(one, caches, positions=at)
        for c in caches:
            c.length = 16
    return run


def measure(before: object, name: str, shape: dict, vocab: int, batch: int, n: int, masked: bool,
            rounds: int) -> None:
    torch.manual_seed(0)
    new = attnlib.TinyLM(vocab, **shape).eval()
    old = before.TinyLM(vocab, **shape).eval()
    old.load_state_dict(new.state_dict())
    ids = torch.randint(0, vocab, (batch, n), generator=torch.Generator().manual_seed(1))
    mask = None
    if masked:
        mask = torch.ones(batch, n, dtype=torch.bool)
        mask[:, n - 5:] = False  # some padding, as chapter 19's batches have
    with torch.no_grad():
        assert torch.equal(old(ids, key_mask=mask)[0], new(ids, key_mask=mask)[0]), "the two models differ"

    def forward(m: torch.nn.Module) -> Callable[[], object]:
        return lambda: torch.no_grad()(m)(ids, key_mask=mask)

    def backward(m: torch.nn.Module) -> Callable[[], object]:
        return lambda: m(ids, key_mask=mask)[0].sum().backward()

    rows = [("forward, no grad", *side_by_side(forward(old), forward(new), 10, rounds)),
            ("forward + backward", *side_by_side(backward(old), backward(new), 5, rounds)),
            ("cached step, 1 word", *side_by_side(_stepper(old, ids), _stepper(new, ids), 100, rounds))]
    # the checks alone: before, each block's attention door (its input scanned three times, the key
    # mask); after, the key mask once at the model's door (the ids were checked there before too)
    h = torch.randn(batch, n, shape["d_model"])
    attn = old.blocks[0].attn
    per_block = side_by_side(lambda: attn._check(h, h, h, None, mask, True, None), lambda: None, 200, rounds)[0]
    key_once = side_by_side(lambda: attnlib.modules.key_mask_4d(mask, batch, n), lambda: None, 200, rounds)[0]
    saved = shape["n_layers"] * per_block - key_once
    say(f"{name}: TinyLM({vocab}, {shape}), batch {batch}, n {n}, key_mask {'yes' if masked else 'no'}")
    for label, t_old, t_new, ratio, lo, hi in rows:
        say(f"  {label:20s} before {t_old:7.3f} ms  after {t_new:7.3f} ms  ratio {ratio:.3f} [{lo:.3f}, {hi:.3f}]")
    say(f"  the checks the blocks no longer run: {saved * 1e3:.0f} us a forward ({shape['n_layers']} x "
        f"{per_block * 1e3:.0f} us, less {key_once * 1e3:.0f} us for the key mask once), "
        f"{saved / rows[0][2]:.1%} of the forward after")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default=BEFORE, help="the commit to compare with (default %(default)s)")
    ap.add_argument("--rounds", type=int, default=21, help="alternating rounds (default %(default)s)")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        before = _load_before(args.before, Path(tmp))
        say(f"torch {torch.__version__}, 1 thread, {args.rounds} alternating rounds; before = {args.before}; "
            f"ratio before / after: median [3rd lowest, 3rd highest]")
        ch19 = {"d_model": 48, "num_heads": 4, "d_ff": 192, "n_layers": 2, "context": 256}
        n19 = stories.make_stories(4000, seed=1).ids.shape[1] - 1  # chapter 19's training width
        measure(before, "chapter 19", ch19, len(stories.VOCAB), 32, n19, True, args.rounds)
        ch21 = {**real_text.SHAPE, "rope": True}
        measure(before, "chapter 21", ch21, 65, 32, ch21["context"], False, args.rounds)


if __name__ == "__main__":
    main()
