"""Torch twins of ``attnlab``'s numpy references (same names, signatures and semantics)."""
from .functional import (
    additive_score, attend, causal_mask, cosine_score, dot_score, general_score,
    masked_softmax, mix_tokens, padding_mask, scaled_dot_product_attention, scaled_dot_score,
    softmax, weighted_average,
)

__all__ = [
    "additive_score", "attend", "causal_mask", "cosine_score", "dot_score", "general_score",
    "masked_softmax", "mix_tokens", "padding_mask", "scaled_dot_product_attention",
    "scaled_dot_score", "softmax", "weighted_average",
]
