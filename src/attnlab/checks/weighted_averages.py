"""Checks of notebook 01, weighted_averages, from its cards (:mod:`attnlab.cards`)."""
from ..cards.mix_tokens import check_mix_tokens, check_mix_tokens_batched
from ..cards.prediction_huge_scores import check_prediction_huge_scores
from ..cards.prediction_scaled_logits import check_prediction_scaled_logits
from ..cards.prediction_the_attends_to import check_prediction_the_attends_to
from ..cards.softmax import check_softmax, check_softmax_stable
from ..cards.weighted_average import check_weighted_average, check_weighted_average_rejects

__all__ = [
    "check_mix_tokens", "check_mix_tokens_batched", "check_prediction_huge_scores",
    "check_prediction_scaled_logits", "check_prediction_the_attends_to", "check_softmax",
    "check_softmax_stable", "check_weighted_average", "check_weighted_average_rejects",
]
