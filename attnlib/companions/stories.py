"""A generated corpus of short stories whose some next words can only be known by looking far back.

Every story introduces an owner, a coloured object and a number of coins, tells a few unrelated
sentences (one of them may quote someone else, or close a bracket), and ends by repeating what it
introduced::

    <s> the sun sat by the sea . ben has a red kite and five coins . ( one two ) nora said " hi there " .
    later ben lost the kite . it was red . he had five coins . </s>

The words after ``later``, ``lost the``, ``was`` and ``had`` are fixed by the story's first part,
many words back; no rule about the current word alone can predict them. The corpus knows where these
positions are (``Stories.recall``), so a model can be scored on them alone. A bracket opened by
``(`` or ``[`` must be closed by its partner, and a quote by a quote. Seeded, nothing downloaded.
Chapter: "A model that writes".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from .._validate import require_positive_int
from .checks import make_generator

NAMES = ("anna", "ben", "cleo", "dan", "eva", "finn", "gus", "hana", "ivan", "jade", "kai", "lena", "milo",
         "nora", "omar", "pia")
COLOURS = ("red", "blue", "green", "yellow", "black", "white", "pink", "grey", "brown", "orange")
OBJECTS = ("ball", "kite", "hat", "cup", "book", "box", "lamp", "bike", "coat", "drum", "key", "bag")
NUMBERS = ("two", "three", "four", "five", "six", "seven", "eight", "nine")
SUBJECTS = (("the", "dog"), ("a", "bird"), ("the", "wind"), ("the", "sun"), ("a", "cat"), ("the", "rain"))
VERBS = ("ran", "sang", "slept", "came", "fell", "sat")
PLACES = (("in", "the", "park"), ("by", "the", "sea"), ("at", "home"), ("near", "the", "hill"), ("on", "the", "road"))
SAID = (("hi", "there"), ("come", "here"), ("not", "now"), ("well", "done"))
INSIDE = (("one", "two"), ("and", "so"), ("or", "not"), ("see", "above"))
BRACKETS = (("(", ")"), ("[", "]"))
PAD, START, END = "<pad>", "<s>", "</s>"
_WORDS = ("has", "a", "and", "coins", ".", "later", "lost", "the", "it", "was", "he", "she", "had", "said", '"')
VOCAB: tuple[str, ...] = tuple(dict.fromkeys(
    (PAD, START, END, *_WORDS, *NAMES, *COLOURS, *OBJECTS, *NUMBERS, *(w for s in SUBJECTS for w in s), *VERBS,
     *(w for p in PLACES for w in p), *(w for s in SAID for w in s), *(w for s in INSIDE for w in s),
     *(b for pair in BRACKETS for b in pair))))
ID = {w: i for i, w in enumerate(VOCAB)}
#: What each recall position repeats (the owner's name, the object, the colour, the number).
RECALLS = ("name", "object", "colour", "number")
SHE = {"anna", "cleo", "eva", "hana", "jade", "lena", "nora", "pia"}


@dataclass(frozen=True)
class Stories:
    """Stories as padded word ids, with the positions whose next word repeats something said far back.

    ``ids`` ``(N, n)``; ``lengths`` ``(N,)``; ``recall`` ``(N, n)`` holds, at position i, which
    :data:`RECALLS` item the word at i + 1 repeats (0 to 3), or -1; ``source`` ``(N, n)`` the position
    where that item was first said (the place attention must reach), or -1; ``closing`` ``(N, n)``
    is True where the next word closes a bracket or a quote.
    """

    ids: torch.Tensor
    lengths: torch.Tensor
    recall: torch.Tensor
    source: torch.Tensor
    closing: torch.Tensor

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    def words(self, i: int) -> list[str]:
        return [VOCAB[j] for j in self.ids[i, : int(self.lengths[i])].tolist()]

    @property
    def key_mask(self) -> torch.Tensor:
        """``(N, n)``: True on the words of each story, False on its padding."""
        return torch.arange(self.ids.shape[1]) < self.lengths[:, None]


def _filler(rng: np.random.Generator, speaker: str) -> list[str]:
    kind = int(rng.integers(4))
    if kind == 0:  # the dog ran in the park .
        return [*SUBJECTS[rng.integers(len(SUBJECTS))], VERBS[rng.integers(len(VERBS))],
                *PLACES[rng.integers(len(PLACES))], "."]
    if kind == 1:  # the rain fell .
        return [*SUBJECTS[rng.integers(len(SUBJECTS))], VERBS[rng.integers(len(VERBS))], "."]
    if kind == 2:  # nora said " hi there " .
        return [speaker, "said", '"', *SAID[rng.integers(len(SAID))], '"', "."]
    opening, closing = BRACKETS[rng.integers(len(BRACKETS))]  # ( one two )
    return [opening, *INSIDE[rng.integers(len(INSIDE))], closing]


def one_story(rng: np.random.Generator) -> tuple[list[str], dict[int, tuple[int, int]], set[int]]:
    """One story: its words, {position: (recall item, source position)} and the positions before a closing mark."""
    name, other = (NAMES[i] for i in rng.choice(len(NAMES), size=2, replace=False))
    colour, obj, number = (COLOURS[rng.integers(len(COLOURS))], OBJECTS[rng.integers(len(OBJECTS))],
                           NUMBERS[rng.integers(len(NUMBERS))])
    words = [START]
    for _ in range(int(rng.integers(0, 2))):
        words += _filler(rng, other)
    owner = len(words)  # ben has a red kite and five coins .
    words += [name, "has", "a", colour, obj, "and", number, "coins", "."]
    source = {"name": owner, "colour": owner + 3, "object": owner + 4, "number": owner + 6}
    for _ in range(int(rng.integers(1, 4))):
        words += _filler(rng, other)
    recall: dict[int, tuple[int, int]] = {}
    for item, lead, word, tail in (("name", ["later"], name, []), ("object", ["lost", "the"], obj, ["."]),
                                   ("colour", ["it", "was"], colour, ["."]),
                                   ("number", ["she" if name in SHE else "he", "had"], number, ["coins", "."])):
        words += lead
        recall[len(words) - 1] = (RECALLS.index(item), source[item])  # the word after this one repeats item
        words += [word, *tail]
    words.append(END)
    closing = {i - 1 for i, w in enumerate(words) if w in (")", "]") or (w == '"' and words[i - 3] == '"')}
    return words, recall, closing


def make_stories(count: int, *, seed: int = 0, length: int | None = None) -> Stories:
    """``count`` stories, seeded, padded to ``length`` (default: the longest story)."""
    count = require_positive_int(count, "count")
    rng = make_generator(seed)
    stories = [one_story(rng) for _ in range(count)]
    longest = max(len(w) for w, _, _ in stories)
    n = longest if length is None else require_positive_int(length, "length")
    if longest > n:
        raise ValueError(f"length {n} is shorter than the longest story ({longest} words)")
    ids = torch.full((count, n), ID[PAD], dtype=torch.long)
    recall = torch.full((count, n), -1, dtype=torch.long)
    source = torch.full((count, n), -1, dtype=torch.long)
    closing = torch.zeros((count, n), dtype=torch.bool)
    for r, (words, rec, close) in enumerate(stories):
        ids[r, : len(words)] = torch.tensor([ID[w] for w in words])
        for i, (item, src) in rec.items():
            recall[r, i], source[r, i] = item, src
        closing[r, sorted(close)] = True
    lengths = torch.tensor([len(w) for w, _, _ in stories])
    return Stories(ids, lengths, recall, source, closing)


def encode(words: str | list[str]) -> list[int]:
    """Word ids of ``words`` (a string is split on spaces); an unknown word is a clear error."""
    if isinstance(words, str):
        words = words.split()
    if not isinstance(words, (list, tuple)) or not all(isinstance(w, str) for w in words):
        raise TypeError(f"words must be a string or a list of strings, got {type(words).__name__}")
    unknown = [w for w in words if w not in ID]
    if unknown:
        raise ValueError(f"unknown word{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}: "
                         f"the vocabulary has {len(VOCAB)} words (attnlib.companions.stories.VOCAB)")
    return [ID[w] for w in words]


def decode(ids: list[int] | torch.Tensor) -> str:
    """The words of ``ids``, joined by spaces."""
    return " ".join(VOCAB[int(i)] for i in ids)
