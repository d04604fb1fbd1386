"""attnlab: the reference implementations, data, plots and checks of the attention course.

The top level holds the numpy references that the exercises are graded against;
``attnlab.torch`` holds their torch twins with the same names, signatures and docstrings, and
``attnlab.checks`` the checks that the notebooks' grade cells call.
"""
from .attention import attend, scaled_dot_product_attention, score_variance
from .masks import causal_mask, masked_softmax, padding_mask
from .scores import additive_score, cosine_score, dot_score, general_score, scaled_dot_score
from .averages import mix_tokens, softmax, weighted_average

__version__ = "0.1.0"

__all__ = [
    "additive_score", "attend", "causal_mask", "cosine_score", "dot_score", "general_score",
    "masked_softmax", "mix_tokens", "padding_mask", "scaled_dot_product_attention",
    "scaled_dot_score", "score_variance", "softmax", "weighted_average",
]
