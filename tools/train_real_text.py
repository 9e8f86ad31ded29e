"""Train the model of chapter 21 ("Attention on real text") and write its weights and per-step log.

    python -m tools.train_real_text

Trains ``attnlib.companions.real_text.make_model`` on the training part of the committed text with
``real_text.TRAINING`` (seeded, one thread, a progress bar on stderr) and writes
``attnlib/companions/data/real_text_lm.npz`` (float32 weights, no pickle) and ``real_text_lm_log.json``
(the training loss before every update). ``--steps N`` trains fewer steps and writes nothing (a dry run).
"""

from __future__ import annotations

import argparse
import time

import torch

from attnlib.companions import real_text as rt


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=None, help="train this many steps and write nothing")
    args = parser.parse_args(argv)
    train, _ = rt.split(rt.load_text())
    chars = rt.Chars(train)
    ids = torch.tensor(chars.encode(train))
    settings = dict(rt.TRAINING)
    dry = args.steps is not None
    if dry:
        settings["steps_run"] = args.steps
    model = rt.make_model(len(chars), seed=settings["seed"])
    start = time.perf_counter()
    losses = rt.train_char_lm(model, ids, steps=settings["steps"], batch=settings["batch"], lr=settings["lr"],
                              weight_decay=settings["weight_decay"], seed=settings["seed"],
                              stop_after=args.steps, progress=rt.Bar(args.steps or settings["steps"]))
    print(f"{len(losses)} steps in {time.perf_counter() - start:.0f} s; last loss {losses[-1]:.3f} nats")
    if not dry:
        rt.save_model(model, losses)
        print(f"wrote {rt.WEIGHTS} and {rt.LOG}")


if __name__ == "__main__":
    main()
