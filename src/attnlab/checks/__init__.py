"""Checks that the notebooks' grade cells call.

``check_x(learner_fn)`` runs the learner's function on fixed and random inputs against the
reference; when it is wrong it raises :class:`CheckFailure` (an ``AssertionError``) whose
message names the input, the difference, the known mistake the answer looks like, and the fix.
``hidden=True`` runs the inputs that nbgrader's hidden tests use. ``check_prediction_x(value)``
grades a predict-then-run answer (see :mod:`attnlab.checks._predict`).
"""
from ._core import (
    Case, CheckFailure, CheckRaised, CheckSpec, Mistake, Outcome, SpecRecorded, SpecRecorder, explain,
    feedback_level, run_check,
)
from ._predict import Prediction, WrongPrediction
from .kernel_machine import (
    check_fit_bandwidth, check_fit_bandwidth_candidates, check_gaussian_attention_weights,
    check_gaussian_attention_weights_stable, check_kernel_ridge_fit, check_kernel_ridge_predict,
    check_linear_attention, check_linear_attention_causal, check_linear_attention_recurrent,
    check_nadaraya_watson, check_prediction_first_output, check_prediction_gradient_decay,
)
from .weighted_averages import (
    check_mix_tokens, check_mix_tokens_batched, check_prediction_huge_scores,
    check_prediction_scaled_logits, check_prediction_the_attends_to, check_softmax,
    check_softmax_stable, check_weighted_average, check_weighted_average_rejects,
)
from .masks_and_cross_attention import (
    check_causal_mask, check_cross_attention, check_cross_attention_masked, check_masked_softmax,
    check_masked_softmax_fully_masked, check_padding_mask, check_prediction_empty_rows,
    check_prediction_unflipped_keys,
)
from .multi_head_attention import (
    check_merge_heads, check_merge_value_output, check_mha_module, check_mha_module_bias_mask,
    check_multi_head_attention, check_multi_head_attention_masked, check_prediction_params_h1,
    check_prediction_params_h8, check_split_heads,
)
from .query_key_value import (
    check_attend, check_attend_sharp, check_prediction_dot_winner, check_prediction_score_variance,
    check_prediction_weights_shape, check_score_variance, check_score_variance_rng, check_sdpa,
    check_sdpa_batched, check_sdpa_fully_masked, check_sdpa_mask,
)
from .self_attention import (
    check_absorb_bias, check_append_ones, check_append_ones_batched, check_prediction_dog_output,
    check_prediction_parameter_count, check_self_attention, check_self_attention_batched, check_self_attention_module, check_self_attention_module_mask,
)
from .efficient_attention import (
    check_merge_softmax_stats, check_merge_softmax_stats_empty, check_online_softmax_update,
    check_online_softmax_update_masked, check_tiled_attention, check_tiled_attention_causal,
    check_tiled_attention_memory, check_weights_from_logsumexp, check_prediction_causal_tiles,
    check_prediction_score_memory_gib,
)

from .rnn_translation import (
    check_additive_attention, check_additive_attention_mask, check_alignment_accuracy,
    check_alignment_accuracy_batched, check_decoder_step, check_decoder_step_luong, check_greedy_decode,
    check_greedy_decode_eos, check_multiplicative_attention, check_multiplicative_attention_mask,
    check_prediction_clitic_peak, check_prediction_decode_shape,
)
from .transformer import (
    check_decode_with_cache, check_decode_with_cache_positions, check_decoder_layer, check_decoder_layer_mask,
    check_encoder_layer, check_encoder_layer_mask, check_prediction_offset_dot, check_prediction_reversed_sentence,
    check_sinusoidal_positional_encoding, check_sinusoidal_positional_encoding_odd,
)
from .images import (
    check_channel_attention, check_image_to_tokens, check_patchify, check_positional_encoding_2d,
    check_prediction_receptive_field, check_prediction_shuffled_output,
    check_spatial_self_attention, check_spatial_self_attention_batched, check_tokens_to_image,
)

__all__ = [
    "Case", "CheckFailure", "CheckRaised", "CheckSpec", "Mistake", "Outcome", "SpecRecorded", "SpecRecorder",
    "explain", "feedback_level", "run_check",
    "Prediction", "WrongPrediction",
    "check_mix_tokens", "check_mix_tokens_batched", "check_softmax", "check_softmax_stable",
    "check_weighted_average", "check_weighted_average_rejects", "check_prediction_scaled_logits",
    "check_prediction_huge_scores", "check_prediction_the_attends_to",
]
__all__ += [
    "check_attend", "check_attend_sharp", "check_score_variance", "check_score_variance_rng",
    "check_sdpa", "check_sdpa_batched", "check_sdpa_fully_masked", "check_sdpa_mask",
    "check_prediction_dot_winner", "check_prediction_score_variance", "check_prediction_weights_shape",
]
__all__ += [
    "check_absorb_bias", "check_append_ones", "check_append_ones_batched", "check_self_attention",
    "check_self_attention_batched", "check_self_attention_module", "check_self_attention_module_mask",
    "check_prediction_dog_output", "check_prediction_parameter_count",
]
__all__ += [
    "check_causal_mask", "check_cross_attention", "check_cross_attention_masked", "check_masked_softmax",
    "check_masked_softmax_fully_masked", "check_padding_mask", "check_prediction_empty_rows",
    "check_prediction_unflipped_keys",
]
__all__ += [
    "check_merge_heads", "check_merge_value_output", "check_mha_module", "check_mha_module_bias_mask",
    "check_multi_head_attention", "check_multi_head_attention_masked", "check_split_heads",
]
__all__ += [
    "check_fit_bandwidth", "check_fit_bandwidth_candidates", "check_gaussian_attention_weights",
    "check_gaussian_attention_weights_stable", "check_kernel_ridge_fit", "check_kernel_ridge_predict",
    "check_linear_attention", "check_linear_attention_causal", "check_linear_attention_recurrent",
    "check_nadaraya_watson",
]
__all__ += [
    "check_merge_softmax_stats", "check_merge_softmax_stats_empty", "check_online_softmax_update",
    "check_online_softmax_update_masked", "check_tiled_attention", "check_tiled_attention_causal",
    "check_tiled_attention_memory", "check_weights_from_logsumexp",
]
__all__ += [
    "check_additive_attention", "check_additive_attention_mask", "check_alignment_accuracy",
    "check_alignment_accuracy_batched", "check_decoder_step", "check_decoder_step_luong", "check_greedy_decode",
    "check_greedy_decode_eos", "check_multiplicative_attention", "check_multiplicative_attention_mask",
]
__all__ += [
    "check_decode_with_cache", "check_decode_with_cache_positions", "check_decoder_layer",
    "check_decoder_layer_mask", "check_encoder_layer", "check_encoder_layer_mask",
    "check_sinusoidal_positional_encoding", "check_sinusoidal_positional_encoding_odd",
    "check_prediction_offset_dot", "check_prediction_reversed_sentence",
]
__all__ += [  # predict, then run: notebooks 05-08
    "check_prediction_params_h1", "check_prediction_params_h8", "check_prediction_gradient_decay",
    "check_prediction_first_output", "check_prediction_clitic_peak", "check_prediction_decode_shape",
    "check_prediction_score_memory_gib", "check_prediction_causal_tiles",
]
__all__ += [
    "check_channel_attention", "check_image_to_tokens", "check_patchify", "check_positional_encoding_2d",
    "check_prediction_receptive_field", "check_prediction_shuffled_output", "check_spatial_self_attention", "check_spatial_self_attention_batched", "check_tokens_to_image",
]
from .efficient_attention import (  # noqa: E402
    check_prediction_dk_sum, check_tiled_attention_backward, check_tiled_attention_backward_causal,
    check_tiled_attention_backward_memory,
)
__all__ += ["check_prediction_dk_sum", "check_tiled_attention_backward", "check_tiled_attention_backward_causal",
            "check_tiled_attention_backward_memory"]
from .modern_attention import (  # noqa: E402
    check_grouped_query_attention, check_grouped_query_attention_masked, check_kv_cache_bytes,
    check_kv_cache_bytes_window, check_prediction_gqa_cache_gb, check_prediction_shifted_scores,
    check_repeat_kv, check_rope, check_rope_interleaved, check_sliding_window_mask,
    check_sliding_window_mask_offset,
)
__all__ += [
    "check_grouped_query_attention", "check_grouped_query_attention_masked", "check_kv_cache_bytes",
    "check_kv_cache_bytes_window", "check_prediction_gqa_cache_gb", "check_prediction_shifted_scores",
    "check_repeat_kv", "check_rope", "check_rope_interleaved", "check_sliding_window_mask",
    "check_sliding_window_mask_offset",
]
from .what_attention_learns import (
    check_gd_step_prediction, check_icl_prompt, check_linear_self_attention, check_prediction_beats_least_squares,
    check_prediction_reversed_hypothesis, check_prefix_matching_score, check_previous_token_score, check_soft_align,
)
__all__ += [
    "check_gd_step_prediction", "check_icl_prompt", "check_linear_self_attention",
    "check_prediction_beats_least_squares", "check_prediction_reversed_hypothesis", "check_prefix_matching_score",
    "check_previous_token_score", "check_soft_align",
]
