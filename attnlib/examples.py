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

# Document 003, section 2.1: two sentences with the same words in another order.
# Used in: "From scratch in NumPy, and learning".
ORDER_SENTENCES = ("man scratches a cat", "cat scratches a man")

# Document 004, Part 3: the sentence traced through an RNN and through attention, and the
# document's hand-written scores of "it" against the first five words (illustrative, not computed).
# Used in: "Why attention is parallel".
BANK_SENTENCE = "The bank approved the loan because it was well-capitalized"
BANK_IT_SCORES = {"The": 0.05, "bank": 0.82, "approved": 0.08, "the": 0.02, "loan": 0.15}
