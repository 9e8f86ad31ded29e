"""attnlib: the attention code behind the book "Attention, step by step".

The package is the reusable core, and this page is its one public surface: the classes and functions
a reader calls, each reachable here under one name. Their modules (softmax, masks, attention and its
NumPy twin, modules, cache, chunked, positions, decoding, transformer, generation) hold them with
their chapter-specific helpers. Core modules import only torch and NumPy. The chapters' companions
(data sets, experiments, the documents' inputs, the teaching foils) live in ``attnlib.companions``;
plotting in ``attnlib.plots`` / ``attnlib.style`` and widgets in ``attnlib.widgets``. Import them
explicitly; the core never imports them.
"""

from .attention import scaled_dot_product_attention
from .attention_np import scaled_dot_product_attention_np
from .cache import KVCache
from .chunked import chunked_attention
from .generation import generate, generate_batch
from .masks import causal_mask, padding_mask
from .modules import (
    MultiHeadAttention,
    ScaledDotProductAttention,
    SelfAttentionV2,
    TorchCompatMultiHeadAttention,
)
from .positions import apply_rope, sinusoidal_table
from .softmax import softmax
from .transformer import TinyLM, TransformerBlock

__version__ = "0.1.0"

__all__ = [
    "KVCache",
    "MultiHeadAttention",
    "ScaledDotProductAttention",
    "SelfAttentionV2",
    "TinyLM",
    "TorchCompatMultiHeadAttention",
    "TransformerBlock",
    "apply_rope",
    "causal_mask",
    "chunked_attention",
    "generate",
    "generate_batch",
    "padding_mask",
    "scaled_dot_product_attention",
    "scaled_dot_product_attention_np",
    "sinusoidal_table",
    "softmax",
]
