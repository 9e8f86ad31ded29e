"""The five documents' printed values: what each document prints as a result, typed once, as printed.

These are the documents' values, not inputs a reader computes with (those are in
``attnlib.companions.examples``). The pages of the part "The five documents, checked" set them beside
attnlib's values, and the errata derivations (``attnbook.derivations``) judge them; several are wrong.
Used in: "Document 000" ... "Document 004", "Errata", "Number audit".
"""

from __future__ import annotations

import torch

# Document 002's printed results for "I am happy", exactly as the document prints them (strings).
# These are the DOCUMENT's values, kept only for the side-by-side comparison; several are wrong
# (see book/_data/errata/07_i_am_happy.yml). Rows follow HAPPY_WORDS.
DOC002_HAPPY_PRINTED: dict[str, tuple[str, ...]] = {
    "scores": ("[0.14, 0.32, 0.50]", "[0.32, 0.77, 1.22]", "[0.50, 1.22, 1.94]"),  # Step 3, Q·Kᵀ
    "sqrt_dk": ("1.73",),  # Step 4, "√3 ≈ 1.73", the divisor it writes
    "scaled": ("[0.08, 0.18, 0.29]", "[0.18, 0.44, 0.70]", "[0.29, 0.70, 1.12]"),  # Step 4
    "row1_exp": ("[1.083, 1.197, 1.336]",),  # Step 5, exp of the first scaled row
    "row1_exp_sum": ("3.616",),  # Step 5, "Sum ≈ 3.616"
    "weights": ("[0.30, 0.33, 0.37]", "[0.26, 0.37, 0.37]", "[0.25, 0.36, 0.39]"),  # Step 5
    "context": ("[0.42, 0.53, 0.62]", "[0.433, 0.533, 0.633]", "[0.442, 0.542, 0.642]"),  # Step 6
}

# Document 004, Part 4 worked example ("it" -> animal/street/because), the document's printed
# values (strings, as printed). "code" is the printout of its executable cell; "hand" is its
# hand derivation (Step 2-4 formulas, repeated in Appendix A). Used in: "Worked example: 'it'".
DOC004_IT_PRINTED: dict[str, dict[str, str]] = {
    "code": {
        "scores": "10.0, 7.0, 5.0",
        "scaled": "7.07, 4.95, 3.54",
        "weights": "0.87, 0.10, 0.03",
        "percent": "87, 10, 3",
        "context": "[1.78, 1.37]",
    },
    "hand": {
        "sqrt_dk": "1.41",
        "logits": "7.09, 4.96, 3.54",
        "exp": "1199, 142, 34",
        "exp_sum": "1375",
        "percent": "87, 10, 3",
        "weights": "0.87, 0.10, 0.03",
        "term_animal": "[1.74, 1.31]",
        "term_street": "[0.05, 0.03]",
        "term_because": "[-0.01, 0.04]",
        "context": "[1.78, 1.37]",
    },
}

# Its printout, row by row, as printed (the document's values, for the comparison).
DOC004_STEP_PRINTED: dict[str, tuple[str, ...]] = {
    "scaled": ("[5.0000, 3.5000, 4.0000]", "[3.5000, 8.5000, 5.0000]", "[4.0000, 5.0000, 4.0000]"),
    "weights": ("[0.6285, 0.1402, 0.2312]", "[0.0065, 0.9644, 0.0291]", "[0.2119, 0.5761, 0.2119]"),
    "row_sums": ("[1.0000, 1.0000, 1.0000]",),
    "output": ("[0.7441, 0.2559, 0.0000, 0.0000]", "[0.0211, 0.9789, 0.0000, 0.0000]",
               "[0.3179, 0.6821, 0.0000, 0.0000]"),
}

# Document 001, §1.2: the vocabulary and count vectors it prints for the two sentences.
BOW_VOCAB_PRINTED = ("I", "love", "apple", "and", "banana", "is", "tasty")
BOW_COUNTS_PRINTED = ((1, 1, 1, 1, 1, 0, 0), (0, 0, 0, 0, 1, 1, 1))

# Document 001, §4.2: the hand-picked (ILLUSTRATIVE) mixing weights, one row per word of each
# sentence, columns in sentence order. Used in: "Context changes meaning".
DOC001_HAND_WEIGHTS = {
    "money bank grows": torch.tensor([[0.70, 0.20, 0.10], [0.25, 0.70, 0.05], [0.10, 0.20, 0.70]]),
    "river bank flows": torch.tensor([[0.80, 0.15, 0.05], [0.20, 0.78, 0.02], [0.40, 0.01, 0.59]]),
}

# Document 004, Part 1: what "bank" attends to in "The bank of the river" (illustrative, no
# embeddings given).
BANK_OF_RIVER_WEIGHTS_PRINTED = {"river": 0.50, "of": 0.30, "The": 0.15}

# Document 004, Part 2: the queries Q = E @ W_Q it prints for "bank", "river", "loan" (seed 42).
BRL_Q_PRINTED = torch.tensor(
    [[0.2098, 0.7902, -0.0152, -1.2523], [0.3512, -0.4083, -0.0643, -0.8885], [0.3995, 0.6671, 0.0105, -0.9363]]
)  # (3, 4), as printed to 4 decimals

# Document 000, steps 2-3: the 'journey' row of the scores and of the weights, as printed.
JOURNEY_SCORES_PRINTED = (14.5, 25.1, 24.8, 14.3, 8.6, 17.6)
JOURNEY_WEIGHTS_PRINTED = (0.15, 0.22, 0.22, 0.13, 0.09, 0.18)

# Document 001, §3.1: its comparison table (✅ → "yes", ❌ → "no"; qualifiers kept).
# Used in: "Words to numbers".
DOC001_TABLE_COLUMNS = ("Type", "Captures frequency", "Captures meaning", "Handles context")
DOC001_TABLE = {
    "One-hot": ("Sparse & Static", "no", "no", "no"),
    "Bag of words": ("Sparse & Static", "yes", "no", "no"),
    "TF-IDF": ("Sparse & Static", "yes (weighted)", "yes (importance)", "no"),
    "Word embeddings": ("Dense & Static", "yes", "yes", "no"),
    "Contextual embeddings": ("Dense & Dynamic", "yes", "yes", "yes"),
}

# Document 002, multi-head section: the per-head weights it quotes. The weights
# are illustrative (the document gives no embeddings or trained weights to compute them from).
# Each entry: (head, relation named by the document, query word, key word, weight).
# "has_property" is not a word of the sentence; the document writes it in the key's place.
# Used in: "Multi-head attention and the causal mask".
QUICK_FOX_ILLUSTRATIVE = (
    (1, "subject-verb", "fox", "jumps", 0.9),
    (1, "subject-verb", "dog", "has_property", 0.7),
    (2, "adjective-noun", "quick", "fox", 0.85),
    (2, "adjective-noun", "brown", "fox", 0.8),
    (2, "adjective-noun", "lazy", "dog", 0.9),
    (3, "spatial", "over", "fox and dog", 0.8),
)

# Document 004, Part 3: the document's hand-written scores of "it" against the first five words (illustrative, not computed).
# Used in: "Why attention is parallel".
BANK_LOAN_IT_SCORES = {"The": 0.05, "bank": 0.82, "approved": 0.08, "the": 0.02, "loan": 0.15}


# Document 000, "Deep Dive", "Code Evidence": the variance of random dot products at d = 100 it prints,
# before and after dividing by √100 (one unseeded run).
DOC000_VARIANCE_D100_PRINTED = {"before": 107.4, "after": 1.074}
