"""prediction_score_variance (notebook 02): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_score_variance", "number", 64,
    "q·k = Σ_i q_i k_i is a sum of d_k = 64 independent products, each with mean 0 and variance "
    "E[q_i²] E[k_i²] = 1; variances of independent terms add, so Var(q·k) = 64 and typical "
    "scores are ±8 (the standard deviation √64).",
    rtol=0.1,
    wrong=(
        WrongPrediction(8, "the standard deviation √d_k instead of the variance d_k",
                        "8 = √64 is the standard deviation, the typical size of a score; the "
                        "variance is its square."),
        WrongPrediction(1, "standard-normal entries give a standard-normal score",
                        "Each product q_i k_i has variance 1, but the score adds 64 of them, and "
                        "their variances add up."),
        WrongPrediction(4096, "d_k² instead of d_k",
                        "The variance of a sum of independent terms is the sum of their variances: "
                        "64 terms of variance 1, not 64²."),
        WrongPrediction(0, "independent vectors are orthogonal, so q·k = 0",
                        "The *mean* of q·k is 0, but each draw scatters around it; the variance "
                        "measures that scatter."),
    ),
)

CARD = Card(
    "prediction_score_variance", "02_query_key_value", prediction=PREDICTION,
    examples=[
        Example("prediction_score_variance = 1.0\n", ("test_predict_score_variance",),
                "give a standard-normal score", label="1.0"),
        Example("prediction_score_variance = 64 ** 2\n", ("test_predict_score_variance",),
                "d_k² instead of d_k", label="64 ** 2"),
        Example('prediction_score_variance = "64"\n', ("test_predict_score_variance",),
                "without quotes", label="a string"),
    ],
)


def check_prediction_score_variance(prediction_score_variance, hidden: bool = False) -> None:
    """Check the prediction of Var(q·k) for standard-normal q, k in R^64."""
    CARD.prediction.check(prediction_score_variance, hidden=hidden)
