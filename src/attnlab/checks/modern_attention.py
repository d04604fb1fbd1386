"""Checks of notebook 11, modern_attention, from its cards (:mod:`attnlab.cards`): ``rope`` (both
pairings), ``repeat_kv``, ``grouped_query_attention``, ``sliding_window_mask``, ``kv_cache_bytes``
and its two predict-then-run questions.

The cases keep every size distinct (``Hq != Hkv``, ``Lq != Lk``, ``Dh != Dv``), positions that do
not start at 0, and windows shorter than the sequence, so that each mistake gives another answer.
"""
from ..cards.grouped_query_attention import (
    check_grouped_query_attention, check_grouped_query_attention_masked,
)
from ..cards.kv_cache_bytes import check_kv_cache_bytes, check_kv_cache_bytes_window
from ..cards.prediction_gqa_cache_gb import check_prediction_gqa_cache_gb
from ..cards.prediction_shifted_scores import check_prediction_shifted_scores
from ..cards.repeat_kv import check_repeat_kv
from ..cards.rope import check_rope, check_rope_interleaved
from ..cards.sliding_window_mask import check_sliding_window_mask, check_sliding_window_mask_offset

__all__ = [
    "check_grouped_query_attention", "check_grouped_query_attention_masked", "check_kv_cache_bytes",
    "check_kv_cache_bytes_window", "check_prediction_gqa_cache_gb", "check_prediction_shifted_scores",
    "check_repeat_kv", "check_rope", "check_rope_interleaved", "check_sliding_window_mask",
    "check_sliding_window_mask_offset",
]
