"""The worked-example inputs of the source documents, as named data.

Every chapter that reproduces a document's example takes its inputs from here, so a number is
typed once. Values are exactly those printed in the documents (shared/seeds).
"""

from __future__ import annotations

import torch

# Document 004, Part 4: one query against three keys of different length and direction.
# Used in: "Dot products and the magnitude problem".
MAGNITUDE_QUERY = torch.tensor([3.0, 1.0])
MAGNITUDE_KEYS = {
    "K1 (short, aligned)": torch.tensor([1.5, 0.5]),
    "K2 (long, aligned)": torch.tensor([4.5, 1.5]),
    "K3 (misaligned)": torch.tensor([1.0, 4.0]),
}
# Document 004, Part 4, "Why scaling matters": an aligned and a misaligned key.
ALIGNED_KEY = torch.tensor([3.0, 1.0])
MISALIGNED_KEY = torch.tensor([1.0, 4.0])

# Document 004, Part 4 worked example and Appendix A: "it" attends to three words.
# Used in: "Worked example: 'it'", the geometric-attention widget.
IT_QUERY = torch.tensor([3.0, 1.0])
IT_WORDS = ("animal", "street", "because")
IT_KEYS = torch.tensor([[3.0, 1.0], [1.0, 4.0], [1.5, 0.5]])  # (3, 2), rows follow IT_WORDS
IT_VALUES = torch.tensor([[2.0, 1.5], [0.5, 0.3], [-0.5, 1.2]])  # (3, 2), rows follow IT_WORDS

# Document 002, "Step 1: Create Word Embeddings": three 3-d embeddings. The document then sets
# Q = K = V = this matrix (no projections). Used in: "Worked example: 'I am happy'".
HAPPY_WORDS = ("I", "am", "happy")
HAPPY_EMBEDDINGS = torch.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]])  # (3, 3), rows follow HAPPY_WORDS

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

# Document 004, Part 5, "step-by-step with PyTorch": three tokens with 4-d vectors (the last two
# dimensions are zero). The document sets K = Q. Used in: "Attention maps".
STEP_Q = torch.tensor([[3.0, 1.0, 0.0, 0.0], [1.0, 4.0, 0.0, 0.0], [2.0, 2.0, 0.0, 0.0]])  # (3, 4)
STEP_V = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0]])  # (3, 4)
# Its printout, row by row, as printed (the document's values, for the comparison).
DOC004_STEP_PRINTED: dict[str, tuple[str, ...]] = {
    "scaled": ("[5.0000, 3.5000, 4.0000]", "[3.5000, 8.5000, 5.0000]", "[4.0000, 5.0000, 4.0000]"),
    "weights": ("[0.6285, 0.1402, 0.2312]", "[0.0065, 0.9644, 0.0291]", "[0.2119, 0.5761, 0.2119]"),
    "row_sums": ("[1.0000, 1.0000, 1.0000]",),
    "output": ("[0.7441, 0.2559, 0.0000, 0.0000]", "[0.0211, 0.9789, 0.0000, 0.0000]",
               "[0.3179, 0.6821, 0.0000, 0.0000]"),
}

# A whole sentence around the words of document 004's pronoun example (our choice: the document
# names only "it", "animal", "street" and "because"), for an untrained attention map.
# Used in: "Attention maps".
PRONOUN_SENTENCE = ("The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired")
