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

# Document 000, Step 3: the 'journey' row of the attention scores of "Your journey starts with one
# step" (2-d queries and keys, so d_k = 2), and the attention weights the document prints for it.
# Used in: "Softmax".
JOURNEY_TOKENS = ("Your", "journey", "starts", "with", "one", "step")
JOURNEY_SCORES = torch.tensor([14.5, 25.1, 24.8, 14.3, 8.6, 17.6])
JOURNEY_D_K = 2
JOURNEY_WEIGHTS_PRINTED = torch.tensor([0.15, 0.22, 0.22, 0.13, 0.09, 0.18])
