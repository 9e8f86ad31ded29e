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


# --- "From words to attention" (chapters 01-03) ---------------------------------------------------

# Document 001, §1.1: the four-word vocabulary of the one-hot example.
# Used in: "Words to numbers".
OHE_VOCAB = ("apple", "banana", "cat", "dog")

# Document 001, §1.2: the two bag-of-words sentences, the vocabulary and count vectors it prints.
# Used in: "Words to numbers".
BOW_SENTENCES = ("I love apple and banana", "banana is tasty")
BOW_VOCAB_PRINTED = ("I", "love", "apple", "and", "banana", "is", "tasty")
BOW_COUNTS_PRINTED = ((1, 1, 1, 1, 1, 0, 0), (0, 0, 0, 0, 1, 1, 1))

# Our own six-document corpus for TF-IDF (not from a document): "banana" is in five of the six
# documents, "tasty" in one, as in the scenario of document 001, §1.3. Used in: "Words to numbers".
TFIDF_CORPUS = (
    "banana bread is sweet",
    "I ate a banana today",
    "banana is tasty",
    "the banana was green",
    "a banana a day",
    "the apple was red",
)

# ILLUSTRATIVE hand-made dense embeddings (not trained, not from a document). Axes:
# royalty, gender (+1 male, -1 female, 0 neither), animal, fruit. Used in: "Words to numbers".
TOY_EMBEDDING_AXES = ("royalty", "gender", "animal", "fruit")
TOY_EMBEDDINGS = {
    "king": torch.tensor([0.93, 0.85, 0.05, 0.02]),
    "queen": torch.tensor([0.95, -0.82, 0.04, 0.03]),
    "man": torch.tensor([0.07, 0.90, 0.10, 0.01]),
    "woman": torch.tensor([0.05, -0.88, 0.08, 0.02]),
    "prince": torch.tensor([0.80, 0.83, 0.04, 0.01]),
    "cat": torch.tensor([0.02, 0.03, 0.90, 0.05]),
    "dog": torch.tensor([0.03, 0.06, 0.95, 0.10]),
    "apple": torch.tensor([0.01, 0.00, 0.03, 0.93]),
    "banana": torch.tensor([0.02, 0.01, 0.02, 0.95]),
}

# Document 001, §2: "apple" used 900 times as a fruit and 100 times as the company, on the axes
# (technology, taste). The counts are the document's; the two sense vectors are ILLUSTRATIVE.
# Used in: "Words to numbers".
APPLE_AXES = ("technology", "taste")
APPLE_SENSES = {"apple (fruit)": torch.tensor([0.10, 0.95]), "apple (company)": torch.tensor([0.95, 0.10])}
APPLE_USES = {"apple (fruit)": 900, "apple (company)": 100}

# Document 001, §4.1: "money bank grows" and "river bank flows". The 2-d embeddings on the axes
# (finance, nature) are ILLUSTRATIVE, hand-made for the book. Used in: "Words to numbers",
# "Context changes meaning".
BANK_AXES = ("finance", "nature")
BANK_SENTENCES = (("money", "bank", "grows"), ("river", "bank", "flows"))
BANK_EMBEDDINGS = {
    "money": torch.tensor([2.0, 0.2]),
    "bank": torch.tensor([1.0, 1.0]),
    "grows": torch.tensor([0.9, 0.6]),
    "river": torch.tensor([0.2, 2.0]),
    "flows": torch.tensor([0.3, 1.3]),
}

# Document 001, §4.2: the hand-picked (ILLUSTRATIVE) mixing weights, one row per word of each
# sentence, columns in sentence order. Used in: "Context changes meaning".
DOC001_HAND_WEIGHTS = {
    "money bank grows": torch.tensor([[0.70, 0.20, 0.10], [0.25, 0.70, 0.05], [0.10, 0.20, 0.70]]),
    "river bank flows": torch.tensor([[0.80, 0.15, 0.05], [0.20, 0.78, 0.02], [0.40, 0.01, 0.59]]),
}

# Document 004, Part 1: what "bank" attends to in "The bank of the river" (ILLUSTRATIVE values,
# the document gives no embeddings). Used in: "Context changes meaning".
BANK_OF_RIVER_TOKENS = ("The", "bank", "of", "the", "river")
BANK_OF_RIVER_WEIGHTS_PRINTED = {"river": 0.50, "of": 0.30, "The": 0.15}

# Document 004, Part 2: three 4-d embeddings, then torch.manual_seed(42) and W_Q, W_K, W_V each
# drawn as torch.randn(4, 4) * 0.5 in that order; the document prints Q = E @ W_Q.
# Used in: "Queries, keys and values".
BRL_WORDS = ("bank", "river", "loan")
BRL_EMBEDDINGS = torch.tensor([[0.5, 0.3, 0.8, 0.2], [0.2, 0.9, 0.1, 0.3], [0.8, 0.1, 0.4, 0.7]])  # (3, 4)
BRL_SEED = 42
BRL_Q_PRINTED = torch.tensor(
    [[0.2098, 0.7902, -0.0152, -1.2523], [0.3512, -0.4083, -0.0643, -0.8885], [0.3995, 0.6671, 0.0105, -0.9363]]
)  # (3, 4), as printed to 4 decimals

# Document 000, steps 1-4: "Your journey starts with one step", 3-d inputs projected to 2-d with
# torch.manual_seed(123) then W_q, W_k, W_v = torch.rand(3, 2) each. The document does not print
# the inputs; they are those of the public example it follows (rasbt/LLMs-from-scratch, ch. 3).
# The document prints the 'journey' row of the scores and of the weights.
# Used in: "Queries, keys and values".
JOURNEY_WORDS = ("Your", "journey", "starts", "with", "one", "step")
JOURNEY_INPUTS = torch.tensor(
    [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33], [0.77, 0.25, 0.10],
     [0.05, 0.80, 0.55]]
)  # (6, 3)
JOURNEY_SEED = 123
JOURNEY_SCORES_PRINTED = (14.5, 25.1, 24.8, 14.3, 8.6, 17.6)
JOURNEY_WEIGHTS_PRINTED = (0.15, 0.22, 0.22, 0.13, 0.09, 0.18)


def journey_self_attention() -> torch.nn.Module:
    """``SelfAttentionV1(3, 2)`` as drawn right after ``torch.manual_seed(JOURNEY_SEED)``.

    The global random state is restored afterwards, so calling this has no side effect.
    Used in: "Queries, keys and values" and its errata rows.
    """
    from .modules import SelfAttentionV1

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(JOURNEY_SEED)
        return SelfAttentionV1(3, 2)

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
