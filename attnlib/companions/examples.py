"""The worked-example inputs of the source documents, as named data.

Every chapter that reproduces a document's example takes its inputs from here, so a number is
typed once. Values are exactly those printed in the documents (shared/seeds).
"""

from __future__ import annotations

import torch

from ..modules import SelfAttentionV1

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


# Document 003, section 2.1: two sentences with the same words in another order.
# Used in: "From scratch in NumPy, and learning".
ORDER_SENTENCES = ("man scratches a cat", "cat scratches a man")

# Document 004, Part 3: the sentence traced through an RNN and through attention, and the
# document's hand-written scores of "it" against the first five words (illustrative, not computed).
# Used in: "Why attention is parallel".
BANK_LOAN_SENTENCE = "The bank approved the loan because it was well-capitalized"
BANK_LOAN_IT_SCORES = {"The": 0.05, "bank": 0.82, "approved": 0.08, "the": 0.02, "loan": 0.15}
