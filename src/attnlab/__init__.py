"""attnlab: the reference implementations, data, plots and checks of the attention course.

The top level holds the numpy references that the exercises are graded against;
``attnlab.torch`` holds their torch twins with the same names, signatures and docstrings, and
``attnlab.checks`` the checks that the notebooks' grade cells call.
"""
from .attention import attend, scaled_dot_product_attention, score_variance
from .masks import causal_mask, masked_softmax, padding_mask
from .scores import additive_score, cosine_score, dot_score, general_score, scaled_dot_score
from .averages import mix_tokens, softmax, weighted_average
from .cross_attention import cross_attention
from .multi_head import merge_heads, merge_value_output, multi_head_attention, split_heads
from .self_attention import absorb_bias, append_ones, self_attention
from .kernels import (
    fit_bandwidth, gaussian_attention_weights, gaussian_kernel, kernel_ridge_fit, kernel_ridge_predict,
    leave_one_out_error, leave_one_out_predictions, nadaraya_watson,
)
from .linearised_attention import (
    elu_feature_map, linear_attention, linear_attention_recurrent, positive_random_features,
)

from .efficient import merge_softmax_stats, online_softmax_update, tiled_attention, weights_from_logsumexp
from .translation_metrics import alignment_accuracy, corpus_bleu, exact_match
from .positional import sinusoidal_positional_encoding
from .images import (
    attention_cost, channel_attention, image_to_tokens, patchify, positional_encoding_2d,
    spatial_self_attention, tokens_to_image,
)
from .shapes import corner_shapes, shape_mask

__version__ = "0.1.0"

__all__ = [
    "additive_score", "attend", "causal_mask", "cosine_score", "dot_score", "general_score",
    "masked_softmax", "mix_tokens", "padding_mask", "scaled_dot_product_attention",
    "scaled_dot_score", "score_variance", "softmax", "weighted_average",
]
__all__ += ["absorb_bias", "append_ones", "self_attention"]
__all__ += ["cross_attention", "merge_heads", "merge_value_output", "multi_head_attention", "split_heads"]
__all__ += ["elu_feature_map", "fit_bandwidth", "gaussian_attention_weights", "gaussian_kernel",
            "kernel_ridge_fit", "kernel_ridge_predict", "leave_one_out_error", "leave_one_out_predictions",
            "linear_attention", "linear_attention_recurrent", "nadaraya_watson", "positive_random_features"]
__all__ += ["merge_softmax_stats", "online_softmax_update", "tiled_attention", "weights_from_logsumexp"]
__all__ += ["alignment_accuracy", "corpus_bleu", "exact_match"]
__all__ += ["sinusoidal_positional_encoding"]
__all__ += ["attention_cost", "channel_attention", "corner_shapes", "image_to_tokens", "patchify",
            "positional_encoding_2d", "shape_mask", "spatial_self_attention", "tokens_to_image"]
from .efficient import tiled_attention_backward  # noqa: E402
__all__ += ["tiled_attention_backward"]
from .modern import (  # noqa: E402
    grouped_query_attention, halves_to_interleaved, halves_to_interleaved_weights, interleaved_to_halves,
    kv_cache_bytes, kv_heads_for_budget, repeat_kv, ring_cache_decode_step, rope, rope_frequencies, sliding_window_mask,
)
__all__ += ["grouped_query_attention", "halves_to_interleaved", "halves_to_interleaved_weights",
            "interleaved_to_halves", "kv_cache_bytes", "kv_heads_for_budget", "repeat_kv", "ring_cache_decode_step",
            "rope", "rope_frequencies", "sliding_window_mask"]
from .learned import (
    gd_step_prediction, icl_prompt, induction_score, linear_self_attention, prefix_matching_score, previous_token_score,
    soft_align,
)
__all__ += ["gd_step_prediction", "icl_prompt", "induction_score", "linear_self_attention", "prefix_matching_score",
            "previous_token_score", "soft_align"]
from .variants import (  # noqa: E402
    alibi_score_mod, alibi_slopes, and_masks, attention_with_mods, causal_mask_mod, document_mask_mod, mask_from_mod,
    mla_absorbed, mla_cache_bytes, mla_naive, or_masks, prefix_lm_mask_mod, relative_bias_score_mod,
    sink_window_attention, sink_window_keys, sliding_window_mask_mod, softcap_score_mod, topk_attention,
)
__all__ += ["alibi_score_mod", "alibi_slopes", "and_masks", "attention_with_mods", "causal_mask_mod",
            "document_mask_mod", "mask_from_mod", "mla_absorbed", "mla_cache_bytes", "mla_naive", "or_masks",
            "prefix_lm_mask_mod", "relative_bias_score_mod", "sink_window_attention", "sink_window_keys",
            "sliding_window_mask_mod", "softcap_score_mod", "topk_attention"]
