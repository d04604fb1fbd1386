"""prediction_params_h1 (notebook 05): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

_D, _PARAMS = 64, 4 * 64 * 64 + 4 * 64  # four (D, D) weights and four (D,) biases

PREDICTION = Prediction(
    "prediction_params_h1", "number", _PARAMS,
    f"The layer holds four D x D matrices (W_q, W_k, W_v, W_o) and, with bias=True, four biases "
    f"of width D: 4 * 64² + 4 * 64 = {_PARAMS}.",
    wrong=(
        WrongPrediction(4 * _D * _D, "the biases forgotten",
                        "With bias=True each of the four nn.Linear layers also has a bias of width D: "
                        "4 * 64 more parameters."),
        WrongPrediction(3 * _D * _D + 3 * _D, "no output projection",
                        "Queries, keys and values are three projections, but the heads' concatenation "
                        "is projected once more by W_o: four in all."),
        WrongPrediction(_D * _D + _D, "one projection",
                        "Queries, keys, values and the output each have their own D x D matrix."),
    ),
)

CARD = Card(
    "prediction_params_h1", "05_multi_head_attention", prediction=PREDICTION,
    examples=[
        Example("prediction_params_h1 = 4 * 64 * 64\n", ("test_predict_params_h1",), "the biases forgotten",
                label="written as a product"),
        Example('prediction_params_h1 = "16640"\n', ("test_predict_params_h1",), "write it without quotes"),
    ],
)


def check_prediction_params_h1(prediction_params_h1, hidden: bool = False) -> None:
    """Check the prediction of the parameter count of MultiHeadAttention(64, 1, bias=True)."""
    CARD.prediction.check(prediction_params_h1, hidden=hidden)
