"""prediction_scaled_logits (notebook 01): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_scaled_logits", "choice", "sharper",
    "The softmax depends only on the gaps between scores: the ratio of two weights is "
    "w_i / w_j = exp(x_i - x_j). Multiplying every score by 10 makes every gap ten times larger, "
    "so each ratio is raised to the 10th power and the largest score takes almost all the weight "
    "(here 0.9999...). Scaling the scores by 10 is a temperature of τ = 0.1.",
    options=("sharper", "flatter", "unchanged"),
    wrong=(
        WrongPrediction("unchanged", "softmax ignores a common factor",
                        "The softmax ignores a constant *added* to every score (shift invariance), "
                        "not a constant factor: exp(10 x_i) / Σ_j exp(10 x_j) is a different vector."),
        WrongPrediction("flatter", "larger scores spread the weight",
                        "Larger scores do not spread the weight; larger *gaps* concentrate it. "
                        "The normalisation divides out a common factor only for x / Σ x, not "
                        "for exponentials."),
    ),
)

CARD = Card(
    "prediction_scaled_logits", "01_weighted_averages", prediction=PREDICTION,
    examples=[
        Example('prediction_scaled_logits = "Unchanged"\n', ('test_predict_scaled_logits',), 'softmax ignores a common factor', label='capitalised'),
        Example('prediction_scaled_logits = "sharp"\n', ('test_predict_scaled_logits',), "expected one of 'sharper'"),
    ],
)


def check_prediction_scaled_logits(prediction_scaled_logits, hidden: bool = False) -> None:
    """Check the prediction of what multiplying the scores by 10 does to the softmax weights."""
    CARD.prediction.check(prediction_scaled_logits, hidden=hidden)
