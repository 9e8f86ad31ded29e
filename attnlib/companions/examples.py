"""The worked-example inputs of the source documents, as named data.

Every chapter that reproduces a document's example takes its inputs from here, so a number is
typed once. Values are exactly those printed in the five source documents (CONTRIBUTING.md says where they come from). The values the
documents print as *results* are not inputs: they live in the book's tooling, ``attnbook.printed``.
"""

from __future__ import annotations

import torch

from .foils import SelfAttentionV1

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



# Document 004, Part 5, "step-by-step with PyTorch": three tokens with 4-d vectors (the last two
# dimensions are zero). The document sets K = Q. Used in: "Attention maps".
STEP_Q = torch.tensor([[3.0, 1.0, 0.0, 0.0], [1.0, 4.0, 0.0, 0.0], [2.0, 2.0, 0.0, 0.0]])  # (3, 4)
STEP_V = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0]])  # (3, 4)

# A whole sentence around the words of document 004's pronoun example (our choice: the document
# names only "it", "animal", "street" and "because"), for an untrained attention map.
# Used in: "Attention maps".
PRONOUN_SENTENCE = ("The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired")

# --- "From words to attention" (chapters 01-03) ---------------------------------------------------

# Document 001, §1.1: the four-word vocabulary of the one-hot example.
# Used in: "Words to numbers".
OHE_VOCAB = ("apple", "banana", "cat", "dog")

# Document 001, §1.2: the two bag-of-words sentences (the vocabulary and counts it prints are in
# attnbook.printed, with the documents' other printed values).
# Used in: "Words to numbers".
BOW_SENTENCES = ("I love apple and banana", "banana is tasty")

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


# Document 004, Part 1: what "bank" attends to in "The bank of the river" (ILLUSTRATIVE values,
# the document gives no embeddings). Used in: "Context changes meaning".
BANK_OF_RIVER_TOKENS = ("The", "bank", "of", "the", "river")

# Document 004, Part 2: three 4-d embeddings, then torch.manual_seed(42) and W_Q, W_K, W_V each
# drawn as torch.randn(4, 4) * 0.5 in that order; the document prints Q = E @ W_Q.
# Used in: "Queries, keys and values".
BRL_WORDS = ("bank", "river", "loan")
BRL_EMBEDDINGS = torch.tensor([[0.5, 0.3, 0.8, 0.2], [0.2, 0.9, 0.1, 0.3], [0.8, 0.1, 0.4, 0.7]])  # (3, 4)
BRL_SEED = 42

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


def journey_self_attention() -> torch.nn.Module:
    """``SelfAttentionV1(3, 2)`` as drawn right after ``torch.manual_seed(JOURNEY_SEED)``.

    The global random state is restored afterwards, so calling this has no side effect.
    Used in: "Queries, keys and values" and its errata rows.
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(JOURNEY_SEED)
        return SelfAttentionV1(3, 2)


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



# Document 003, section 2.1: two sentences with the same words in another order.
# Used in: "From scratch in NumPy, and learning".
ORDER_SENTENCES = ("man scratches a cat", "cat scratches a man")


# Document 002, multi-head section: the sentence of its per-head example (the weights it quotes
# are printed values, in attnbook.printed). Used in: "Multi-head attention and the causal mask".
QUICK_FOX_TOKENS = ("The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog")

# Document 004, Part 3: the sentence traced through an RNN and through attention.
# Used in: "Why attention is parallel".
BANK_LOAN_SENTENCE = "The bank approved the loan because it was well-capitalized"
