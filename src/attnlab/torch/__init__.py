"""Torch twins of ``attnlab``'s numpy references (same names, signatures and semantics)."""
from .functional import (
    additive_score, attend, causal_mask, cosine_score, dot_score, general_score,
    masked_softmax, mix_tokens, padding_mask, scaled_dot_product_attention, scaled_dot_score,
    softmax, weighted_average,
)
from .cross_attention import cross_attention
from .multi_head import (
    MultiHeadAttention, merge_heads, merge_value_output, multi_head_attention, split_heads,
)
from .self_attention import SelfAttention, absorb_bias, append_ones, self_attention
from .kernels import (
    fit_bandwidth, gaussian_attention_weights, gaussian_kernel, kernel_ridge_fit, kernel_ridge_predict,
    leave_one_out_error, leave_one_out_predictions, nadaraya_watson,
)
from .linearised_attention import (
    elu_feature_map, linear_attention, linear_attention_recurrent, positive_random_features,
)

from .efficient import merge_softmax_stats, online_softmax_update, tiled_attention, weights_from_logsumexp

from .rnn_attention import AdditiveAttention, MultiplicativeAttention
from .seq2seq import AttentionDecoder, Encoder, PlainDecoder, Seq2Seq, greedy_decode
from .translation_metrics import alignment_accuracy
from .transformer import (
    PostNormEncoderLayer, TransformerDecoderLayer, TransformerEncoderLayer, TransformerSeq2Seq,
    decode_by_recomputation, decode_with_cache, sinusoidal_positional_encoding,
)
from .images import (
    ChannelAttention, CornerNet, SpatialSelfAttention, accuracy, channel_attention, count_parameters,
    image_to_tokens, patchify, positional_encoding_2d, spatial_self_attention, tokens_to_image,
    train_classifier,
)

__all__ = [
    "additive_score", "attend", "causal_mask", "cosine_score", "dot_score", "general_score",
    "masked_softmax", "mix_tokens", "padding_mask", "scaled_dot_product_attention",
    "scaled_dot_score", "softmax", "weighted_average",
]
__all__ += ["SelfAttention", "absorb_bias", "append_ones", "self_attention"]
__all__ += ["MultiHeadAttention", "cross_attention", "merge_heads", "merge_value_output",
            "multi_head_attention", "split_heads"]
__all__ += ["elu_feature_map", "fit_bandwidth", "gaussian_attention_weights", "gaussian_kernel",
            "kernel_ridge_fit", "kernel_ridge_predict", "leave_one_out_error", "leave_one_out_predictions",
            "linear_attention", "linear_attention_recurrent", "nadaraya_watson", "positive_random_features"]
__all__ += ["merge_softmax_stats", "online_softmax_update", "tiled_attention", "weights_from_logsumexp"]
__all__ += ["AdditiveAttention", "AttentionDecoder", "Encoder", "MultiplicativeAttention", "PlainDecoder",
            "Seq2Seq", "alignment_accuracy", "greedy_decode"]
__all__ += ["PostNormEncoderLayer", "TransformerDecoderLayer", "TransformerEncoderLayer", "TransformerSeq2Seq",
            "decode_by_recomputation", "decode_with_cache", "sinusoidal_positional_encoding"]
__all__ += ["ChannelAttention", "CornerNet", "SpatialSelfAttention", "accuracy", "channel_attention",
            "count_parameters", "image_to_tokens", "patchify", "positional_encoding_2d",
            "spatial_self_attention", "tokens_to_image", "train_classifier"]
from .efficient import tiled_attention_backward  # noqa: E402
__all__ += ["tiled_attention_backward"]
from .modern import (  # noqa: E402
    GQABlock, TinyDecoder, grouped_query_attention, halves_to_interleaved, interleaved_to_halves, kv_cache_bytes,
    repeat_kv, ring_cache_decode_step, rope, rope_frequencies, sliding_window_mask,
)
__all__ += ["GQABlock", "TinyDecoder", "grouped_query_attention", "halves_to_interleaved",
            "interleaved_to_halves", "kv_cache_bytes", "repeat_kv", "ring_cache_decode_step", "rope", "rope_frequencies",
            "sliding_window_mask"]
from .learned import (
    AttentionOnlyTransformer, DecomposableAttention, LinearSelfAttention, icl_prompt, linear_self_attention,
    induction_score, prefix_matching_score, previous_token_score, soft_align,
)
__all__ += ["AttentionOnlyTransformer", "DecomposableAttention", "LinearSelfAttention", "icl_prompt",
            "induction_score", "linear_self_attention", "prefix_matching_score", "previous_token_score", "soft_align"]
from .variants import (  # noqa: E402
    alibi_score_mod, alibi_slopes, and_masks, attention_with_mods, causal_mask_mod, document_mask_mod, mask_from_mod,
    mla_absorbed, mla_cache_bytes, mla_naive, or_masks, prefix_lm_mask_mod, relative_bias_score_mod,
    sink_window_attention, sink_window_keys, sliding_window_mask_mod, softcap_score_mod, topk_attention,
)
__all__ += ["alibi_score_mod", "alibi_slopes", "and_masks", "attention_with_mods", "causal_mask_mod",
            "document_mask_mod", "mask_from_mod", "mla_absorbed", "mla_cache_bytes", "mla_naive", "or_masks",
            "prefix_lm_mask_mod", "relative_bias_score_mod", "sink_window_attention", "sink_window_keys",
            "sliding_window_mask_mod", "softcap_score_mod", "topk_attention"]
