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

# --- "Attention in PyTorch" and "Multi-head attention and the causal mask" (ch-torch) ---------
# Document 004, Part 7: the sizes of the walkthrough (a batch of 2 sequences of 10 tokens,
# 512-d embeddings projected to 64-d queries, keys and values).
# Used in: "Attention in PyTorch".
WALKTHROUGH_SIZES = {"batch_size": 2, "seq_len": 10, "d_model": 512, "d_k": 64}

# Published model sizes, for the claim in document 004, Part 7 that d_model = 512 is "used in
# BERT-base, GPT-2". Sources: Vaswani et al. 2017, Table 3 (Transformer base); Devlin et al. 2019,
# section 3 (BERT-base: hidden size 768, 12 heads); Radford et al. 2019, Table 2 and the released
# GPT-2 small config (n_embd 768, n_head 12).
# Used in: "Attention in PyTorch", "Multi-head attention and the causal mask".
PUBLISHED_SIZES = {
    "Transformer base (2017)": {"d_model": 512, "num_heads": 8},
    "BERT-base": {"d_model": 768, "num_heads": 12},
    "GPT-2 small": {"d_model": 768, "num_heads": 12},
}

# Document 002, multi-head section: the sentence and the per-head weights it quotes. The weights
# are illustrative (the document gives no embeddings or trained weights to compute them from).
# Each entry: (head, relation named by the document, query word, key word, weight).
# "has_property" is not a word of the sentence; the document writes it in the key's place.
# Used in: "Multi-head attention and the causal mask".
QUICK_FOX_TOKENS = ("The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog")
QUICK_FOX_ILLUSTRATIVE = (
    (1, "subject-verb", "fox", "jumps", 0.9),
    (1, "subject-verb", "dog", "has_property", 0.7),
    (2, "adjective-noun", "quick", "fox", 0.85),
    (2, "adjective-noun", "brown", "fox", 0.8),
    (2, "adjective-noun", "lazy", "dog", 0.9),
    (3, "spatial", "over", "fox and dog", 0.8),
)
