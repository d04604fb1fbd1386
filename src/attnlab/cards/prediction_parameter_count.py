"""prediction_parameter_count (notebook 03): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_parameter_count", "number", 90_000,
    "W_q and W_k are (D, Dk) = (300, 100) and W_v is (D, Dv) = (300, 100): 3 x 300 x 100 = 90,000 "
    "numbers. The sentence length L appears nowhere: the same weights serve a sentence of any "
    "length.",
    wrong=(
        WrongPrediction(360_000, "one set of weights per word",
                        "The weights are shared by every token: Q = X W_q applies the same W_q to "
                        "every row of X, so the count does not grow with L = 4."),
        WrongPrediction(30_000, "one projection instead of three",
                        "There are three maps, for queries, keys and values, each 300 x 100."),
        WrongPrediction(60_000, "queries and keys only",
                        "The values have their own map W_v, (300, 100), as well."),
        WrongPrediction(90_016, "the attention matrix counted as parameters",
                        "A = softmax(Q Kᵀ / √Dk) is computed from the input for every sentence; it "
                        "is not learned, so its L x L = 16 entries are not parameters."),
    ),
)

_FAILS = ("test_predict_parameter_count",)

CARD = Card(
    "prediction_parameter_count", "03_self_attention", prediction=PREDICTION,
    examples=[
        Example("prediction_parameter_count = 4 * 3 * 300 * 100\n", _FAILS, "one set of weights per word",
                label="written 4 * 3 * 300 * 100"),
        Example("prediction_parameter_count = 300 * 100\n", _FAILS, "one projection instead of three",
                label="written 300 * 100"),
        Example("prediction_parameter_count = 2 * 300 * 100\n", _FAILS, "queries and keys only",
                label="written 2 * 300 * 100"),
    ],
)


def check_prediction_parameter_count(prediction_parameter_count, hidden: bool = False) -> None:
    """Check the prediction of the number of parameters of the worked example's layer."""
    CARD.prediction.check(prediction_parameter_count, hidden=hidden)
