"""Checks of notebook 02, query_key_value, from its cards (:mod:`attnlab.cards`)."""
from ..cards.attend import check_attend, check_attend_sharp
from ..cards.prediction_dot_winner import check_prediction_dot_winner
from ..cards.prediction_score_variance import check_prediction_score_variance
from ..cards.prediction_weights_shape import check_prediction_weights_shape
from ..cards.scaled_dot_product_attention import (
    check_sdpa, check_sdpa_batched, check_sdpa_fully_masked, check_sdpa_mask,
)
from ..cards.score_variance import check_score_variance, check_score_variance_rng

__all__ = [
    "check_attend", "check_attend_sharp", "check_prediction_dot_winner",
    "check_prediction_score_variance", "check_prediction_weights_shape", "check_score_variance",
    "check_score_variance_rng", "check_sdpa", "check_sdpa_batched", "check_sdpa_fully_masked",
    "check_sdpa_mask",
]
