"""The widget of "Attention on real text": the reader types a beginning and the character-level model
continues it in the page, and every head shows where the last character looked.

``ContinueText`` is chapter 19's :class:`~attnlib.widgets.writer.WriteWithModel` on a model of characters
with rotary positions: its weights in its state (float32, base64), the page's ES module the same model, rule
and controls (``writer_core.js``) with its own view (``continue_text.js``). Characters join with no space
between them. For each new character the page shows the five most likely characters and the attention row
of every head of every block for the last character over the context.

When its context (64 characters) is full, the model keeps the latest ``KEEP`` (32) and reads them afresh, at
positions 0 to 31, then goes on one character at a time: each character is then predicted from between half a
context and a full context before it, as the chapter scored the held-out text (``real_text.held_out_bits``).
Reading the latest 64 afresh for every character would cost a whole context per character: about 10 to 15 ms
in the page on the book's 2-core machine, against 16 ms for one frame. A prompt longer than the
context keeps its last ``context`` characters; an empty prompt starts from a new line; a character the text
never used is refused, named.

The Python twin of the page is ``numbers()``: the model's ``forward`` in float64 on the stored weights, run
afresh on the characters the page's cache holds for every new one, and the characters chosen by
:class:`attnlib.companions.sampler.Sampler` with the page's rule and seed. (Within the context the page runs
one character at a time through its KV caches; the numbers are the same to rounding.)

Chapter: "Attention on real text".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
import traitlets

from ..companions import sampler
from ..companions.checks import quoted_words
from ..transformer import TinyLM
from .sliders import _HERE
from .writer import _STATE, PAGE_CONTEXT, WriteWithModel, _page_model, page_traits, writer_module

START = "\n"  # an empty prompt starts here, as a speech of the text does
MAX_NEW = 256  # the most characters the page writes after a prompt
KEEP = 32  # what the model keeps of a full context
EMPTY_NOTE = "the prompt is empty, so the model starts from a new line"
_NAMES = {"\n": "the new line", " ": "the space"}


def describe_chars(chars: Sequence[str]) -> str:
    """The characters as a message names them: the new line and the space by name, runs of three or more
    consecutive letters or digits as ``a–z``, the others as they are (``the new line, the space, A–Z, a–z and
    !$&',-.3:;?``)."""
    named = [_NAMES[c] for c in sorted(chars) if c in _NAMES]
    rest = sorted(c for c in chars if c not in _NAMES)
    runs, singles, i = [], "", 0
    while i < len(rest):
        j = i
        while j + 1 < len(rest) and rest[j + 1].isalnum() and ord(rest[j + 1]) == ord(rest[j]) + 1:
            j += 1
        if j - i >= 2:
            runs.append(f"{rest[i]}–{rest[j]}")
        else:
            singles += "".join(rest[i:j + 1])
        i = j + 1
    parts = named + runs
    return ", ".join(parts) + (f" and {singles}" if singles else "")


def shown_char(c: str) -> str:
    """A character as a message shows it: a control character (a tab, say) by its code, ``U+0009``."""
    code = ord(c)
    return f"U+{code:04X}" if code < 32 or code == 127 else c


def long_note(n: int, context: int) -> str:
    """What the page says of a prompt of ``n`` characters, longer than the ``context``."""
    return f"the prompt has {n} characters and the model reads at most {context}: it keeps the last {context}"


class ContinueText(WriteWithModel):
    """Continue a typed beginning with a character-level ``TinyLM`` on the page: a prompt, a rule
    (temperature, 0 for greedy; top-k; top-p) and a seed; "next character" adds one, "write 64 more"
    sixty-four, up to ``MAX_NEW``; when the context is full the model keeps its latest ``KEEP`` characters. For each new character: the five most likely, and every head's
    attention row for the last character over the context.

    ``ContinueText(model, chars, *, prompt="ROMEO:\\n", rule=None, seed=0, steps=0)``: ``chars`` are the
    model's vocabulary, one character per id (``attnlib.companions.real_text.Chars.chars``); ``rule=None`` is
    greedy. ``numbers()`` is what the page shows. Used in: "Attention on real text".
    """

    _esm = writer_module("continue_text.js")
    _css = WriteWithModel._css + "\n" + (_HERE / "continue_text.css").read_text(encoding="utf-8")
    known = traitlets.Unicode("").tag(sync=True)
    _state = (*(k for k in _STATE if k not in ("watch", "end")), "known")

    def __init__(self, model: TinyLM, chars: Sequence[str], *, prompt: str = "ROMEO:\n",
                 rule: sampler.Rule | None = None, seed: int = 0, steps: int = 0) -> None:
        model = _page_model(model)
        ok = not isinstance(chars, str) and len(chars) == model.vocab_size and len(set(chars)) == len(chars)
        if not ok or not all(isinstance(c, str) and len(c) == 1 for c in chars):
            raise ValueError(f"chars must be the model's {model.vocab_size} characters, each once, got {chars!r:.60}")
        if START not in chars:
            raise ValueError("chars must hold the new line, where an empty prompt starts")
        self._model: TinyLM | None = None
        traits = page_traits(model, rule, seed, PAGE_CONTEXT)
        traits["config"].update(max_new=MAX_NEW, keep=min(KEEP, traits["config"]["context"] - 1))
        super(WriteWithModel, self).__init__(**traits, vocab=list(chars), known=describe_chars(chars), end="",
                                             prompt=prompt, steps=steps)

    @traitlets.validate("steps")
    def _check_steps(self, proposal: dict[str, Any]) -> int:
        s, most = proposal["value"], self.config.get("max_new", MAX_NEW)
        if not 0 <= s <= most:
            raise ValueError(f"steps must be in [0, {most}], got {s!r}")
        return s

    def read_prompt(self) -> tuple[list[int], str]:
        """The prompt's character ids and what the page notes about them (an empty prompt starts from a
        new line; a long one keeps its last ``context`` characters), or a ``ValueError`` the page shows too."""
        index = {c: i for i, c in enumerate(self.vocab)}
        chars = list(self.prompt)
        unknown = [c for c in chars if c not in index]
        if unknown:
            n = len(set(unknown))
            raise ValueError(f"{n} character{'s' if n > 1 else ''} the model never saw: "
                             f"{quoted_words([shown_char(c) for c in unknown], 3)}. It knows only the {len(self.vocab)} "
                             f"characters of its text: {self.known}")
        context = self.config["context"]
        if not chars:
            return [index[START]], EMPTY_NOTE
        if len(chars) > context:
            return [index[c] for c in chars[-context:]], long_note(len(chars), context)
        return [index[c] for c in chars], ""

    @torch.inference_mode()
    def numbers(self) -> dict[str, Any]:
        """What the page shows: the prompt the model reads and the page's note on it, the new characters,
        and for each the logits it was chosen from, the candidates of the rule with their probabilities
        (most likely first) and every head's attention row for the last character over the characters read,
        ``(blocks, heads, read)``; or ``{"error": message}``."""
        try:
            ids, note = self.read_prompt()
        except ValueError as err:
            return {"error": str(err)}
        out: dict[str, Any] = {"prompt": "".join(self.vocab[i] for i in ids), "note": note, "new": "", "logits": [],
                               "candidates": [], "probs": [], "rows": []}
        model, rule, context, keep = self.stored_model(), self.rule, self.config["context"], self.config["keep"]
        choose, new, read = sampler.Sampler(rule, self.seed), [], list(ids)  # read: what the cache holds
        for _ in range(self.steps):
            logits, weights = model(torch.tensor([read]))  # (1, n, vocab); per block (1, heads, n, n)
            last = logits[0, -1].tolist()
            choice = choose(last)
            order, probs = sampler.candidates(last, rule)
            out["logits"].append(np.asarray(last))
            out["candidates"].append(order)
            out["probs"].append(np.asarray(probs))
            out["rows"].append(torch.stack([w[0, :, -1] for w in weights]).numpy())  # (blocks, heads, n)
            new.append(choice)
            read = read + [choice] if len(read) < context else (read + [choice])[-keep:]
        out["new"] = "".join(self.vocab[i] for i in new)
        return out
