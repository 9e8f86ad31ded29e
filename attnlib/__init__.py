"""attnlib: the attention code behind the book "Attention, step by step".

Core modules (softmax, attention, masks, modules) import only torch and NumPy. Plotting lives in
``attnlib.plots`` / ``attnlib.style`` and widgets in ``attnlib.widgets``; import them explicitly.
"""

from . import chunked, cost, decoding, examples, heads, positions, recurrence, report, scaling, scratch, text
from .attention import scaled_dot_product_attention
from .attention_np import scaled_dot_product_attention_np
from .chunked import chunked_attention
from .masks import causal_mask, padding_mask
from .modules import MultiHeadAttention, ScaledDotProductAttention, SelfAttentionV1, SelfAttentionV2
from .softmax import naive_softmax, softmax

__version__ = "0.1.0"

__all__ = [
    "MultiHeadAttention",
    "ScaledDotProductAttention",
    "SelfAttentionV1",
    "SelfAttentionV2",
    "causal_mask",
    "chunked",
    "chunked_attention",
    "cost",
    "decoding",
    "examples",
    "heads",
    "naive_softmax",
    "padding_mask",
    "positions",
    "recurrence",
    "report",
    "scaled_dot_product_attention",
    "scaled_dot_product_attention_np",
    "scaling",
    "scratch",
    "softmax",
    "text",
]
