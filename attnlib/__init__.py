"""attnlib: the attention code behind the book "Attention, step by step".

The package is the reusable core: softmax, masks, attention (and its NumPy twin), modules, chunked,
positions, decoding, transformer and generation. Core modules import only torch and NumPy.
The chapters' companions (data sets, experiments, the documents' inputs) live in
``attnlib.companions``; plotting in ``attnlib.plots`` / ``attnlib.style`` and widgets in
``attnlib.widgets``. Import them explicitly; the core never imports them.
"""

from . import chunked, decoding, positions
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
    "decoding",
    "naive_softmax",
    "padding_mask",
    "positions",
    "scaled_dot_product_attention",
    "scaled_dot_product_attention_np",
    "softmax",
]
