"""Exercises of chapter 21, "Attention on real text": the computations (answers, wrong answers, values).

The text of the exercises is data, in ``data/21_real_text.yml``; it names the functions registered
here on ``code`` and shows the values of ``code.values(...)`` in its ``{name}`` fields.
"""

from __future__ import annotations

import math

from attnlib.companions import real_text

from ._registry import ChapterCode

code = ChapterCode(__name__)

VOCAB = len(real_text.Chars(real_text.split(real_text.load_text())[0]))  # the chapter's characters
STREAM, SINKS, WINDOW = 4 * real_text.SHAPE["context"], 4, 60  # the chapter's stream and cache

code.add(  # 21.1: -log2(1 / V)
    ex1_answer=lambda: math.log2(VOCAB),
    ex1_nats=lambda: math.log(VOCAB),
    ex1_probability=lambda: 1 / VOCAB,
    ex1_vocab=lambda: VOCAB,
)
code.add(  # 21.4: the stream less what the cache keeps
    ex4_answer=lambda: STREAM - SINKS - WINDOW,
    ex4_no_sinks=lambda: STREAM - WINDOW,
    ex4_kept=lambda: SINKS + WINDOW,
    ex4_nothing=lambda: 0,
)

code.values(vocab=VOCAB, stream=STREAM, sinks=SINKS, window=WINDOW)
