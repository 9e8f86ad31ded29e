"""Chapter 21's page writer in Python (``attnlib.widgets.continue_text.ContinueText``): how it reads a prompt
(unknown characters named, an empty prompt, a long one), the window it keeps past the context, and that its
numbers are attnlib's generation on the committed weights. (The page's JavaScript is held to these numbers
by tests/browser/test_continue_text_widget.py.)
"""

from __future__ import annotations

import pytest
import torch

import attnlib
from attnlib.companions import real_text as rt
from attnlib.companions import sampler as smp
from attnlib.widgets import ContinueText
from attnlib.widgets.continue_text import EMPTY_NOTE, KEEP, describe_chars, long_note


@pytest.fixture(scope="module")
def chars() -> rt.Chars:
    return rt.Chars(rt.split(rt.load_text())[0])


@pytest.fixture(scope="module")
def writer(chars: rt.Chars) -> ContinueText:
    return ContinueText(rt.load_model(len(chars)), chars.chars, prompt="ROMEO:\n", steps=8)


def test_the_known_characters_are_named_in_a_few_words(chars: rt.Chars) -> None:
    assert describe_chars(chars.chars) == "the new line, the space, A–Z, a–z and !$&',-.3:;?"
    assert describe_chars(list("cab-,.x ")) == "the space, a–c and ,-.x"  # a run of marks is no range


def test_a_prompt_is_read_or_refused_in_the_readers_terms(writer: ContinueText) -> None:
    writer.prompt = "Zoë\tsaid 🎭, 1599 ëë"
    with pytest.raises(ValueError) as err:
        writer.read_prompt()
    message = str(err.value)
    assert message.startswith("6 characters the model never saw: 'ë', 'U+0009', '🎭' and 3 more. ")  # 1, 5, 9 too
    assert message.endswith("the 65 characters of its text: the new line, the space, A–Z, a–z and !$&',-.3:;?")
    assert writer.numbers() == {"error": message}
    writer.prompt = "x" * 5000 + "é"
    assert "'é'" in str(pytest.raises(ValueError, writer.read_prompt).value)  # one character, named once
    writer.prompt = ""
    assert writer.read_prompt() == ([writer.vocab.index("\n")], EMPTY_NOTE)
    writer.prompt = "abc" * 30
    ids, note = writer.read_prompt()
    assert "".join(writer.vocab[i] for i in ids) == ("abc" * 30)[-64:] and note == long_note(90, 64)
    writer.prompt = "a" * 64
    assert writer.read_prompt()[1] == ""
    writer.prompt = "ROMEO:\n"


def test_within_the_context_it_writes_what_generate_writes(writer: ContinueText, chars: rt.Chars) -> None:
    """Greedy and sampled: the characters, the logits and every head's last row of attnlib.generate with the
    KV cache, on the same float64 model, to rounding."""
    model = writer.stored_model()
    for rule, seed in ((smp.Rule(), 0), (smp.Rule(temperature=0.9, top_k=10), 3)):
        writer.temperature, writer.top_k, writer.seed, writer.steps = rule.temperature or 0.0, rule.top_k or 65, seed, 40
        n = writer.numbers()
        ref = attnlib.generate(model, chars.encode("ROMEO:\n"), 40, smp.Sampler(rule, seed=seed), watch=(1, 3))
        assert n["new"] == chars.decode(ref.new) and n["note"] == ""
        assert torch.allclose(torch.from_numpy(n["logits"][-1]), ref.logits[-1], rtol=1e-12, atol=1e-12)
        for rows, row in zip(n["rows"], ref.attention, strict=True):
            assert rows.shape == (2, 4, len(row)) and torch.allclose(torch.from_numpy(rows[1, 3]), row, atol=1e-12)
    writer.temperature, writer.top_k, writer.seed, writer.steps = 0.0, 65, 0, 8


def test_past_the_context_it_keeps_the_latest_32(writer: ContinueText) -> None:
    """From 60 characters, 10 more: the model reads 60, 61, .., 64 characters, then the latest 32, 33, ..; the
    characters after the cut are those of the model run on the 32 alone."""
    writer.prompt, writer.steps = ("To be, or not to be, that is the question:\nWhether 'tis nobler")[:60], 10
    n = writer.numbers()
    assert [r.shape[2] for r in n["rows"]] == [60, 61, 62, 63, 64, KEEP, KEEP + 1, KEEP + 2, KEEP + 3, KEEP + 4]
    text = [writer.vocab.index(c) for c in n["prompt"] + n["new"]]
    with torch.no_grad():
        logits, _ = writer.stored_model()(torch.tensor([text[65 - KEEP:65]]))  # the 32 latest after the 5th new one
    assert torch.equal(logits[0, -1], torch.from_numpy(n["logits"][5]))
    with pytest.raises(ValueError, match=r"steps must be in \[0, 256\]"):
        writer.steps = 257
    writer.prompt, writer.steps = "ROMEO:\n", 8


def test_the_page_state_rebuilds_the_same_writer(writer: ContinueText) -> None:
    again = ContinueText.from_state({k: getattr(writer, k) for k in writer.keys})
    assert repr(again) == repr(writer) and again.known == writer.known and again.config["keep"] == KEEP
    assert again.numbers()["new"] == writer.numbers()["new"]
    assert "watch" not in ContinueText._state and "known" in ContinueText._state
