"""prediction_huge_scores (notebook 01): a predict-then-run question."""
from __future__ import annotations

import numpy as np

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_huge_scores", "number", float(np.exp(2) / (1 + np.e + np.exp(2))),
    "Only the gaps between scores matter (shift invariance): softmax([1000, 1001, 1002]) = "
    "softmax([0, 1, 2]), whose largest weight is e² / (1 + e + e²) ≈ 0.665. The formula as "
    "written computes e^1000, which overflows to inf and returns nan; subtracting the maximum "
    "first gives the exact answer.",
    atol=0.006,
    wrong=(
        WrongPrediction(1.0, "the largest score takes all the weight",
                        "Large scores do not make the softmax sharper; large *gaps* do, and these "
                        "gaps are only 1 and 2."),
        WrongPrediction(1 / 3, "nearly equal scores give nearly equal weights",
                        "1000 and 1002 are close relative to their size, but the softmax does not "
                        "look at ratios of scores: exp(1002) / exp(1000) = e² ≈ 7.4."),
        WrongPrediction(0.0, "the exponentials overflow, so the weight is lost",
                        "That is a failure of the computation, not of the mathematics: the exact "
                        "value is well defined, and a stable softmax computes it."),
    ),
)

CARD = Card(
    "prediction_huge_scores", "01_weighted_averages", prediction=PREDICTION,
    examples=[
        Example("prediction_huge_scores = float('nan')\n", ('test_predict_huge_scores',), 'The answer is 0.665'),
    ],
)


def check_prediction_huge_scores(prediction_huge_scores, hidden: bool = False) -> None:
    """Check the prediction of the largest weight of softmax([1000, 1001, 1002])."""
    CARD.prediction.check(prediction_huge_scores, hidden=hidden)
