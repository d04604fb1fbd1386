"""prediction_params_h8 (notebook 05): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

_D, _H = 128, 8                    # a wider layer than prediction_params_h1's, with eight heads
_PARAMS = 4 * _D * _D + 4 * _D      # four (D, D) weights and four (D,) biases, whatever H

PREDICTION = Prediction(
    "prediction_params_h8", "number", _PARAMS,
    f"4 * 128² + 4 * 128 = {_PARAMS}, exactly what one head of width 128 would have. More heads do "
    "not add matrices: the eight heads are eight groups of Dh = 16 columns of the same four D x D "
    "matrices (head h uses the columns h*Dh:(h+1)*Dh of W_q, W_k, W_v and the same rows of W_o). "
    "The number of heads changes how the columns are grouped, not how many there are; only D "
    "counts.",
    wrong=(
        WrongPrediction(8 * _PARAMS, "every head has its own D x D matrices",
                        "A head does not project to the full width D; it owns only Dh = D / H columns "
                        "of each matrix, so the eight heads together have exactly D columns."),
        WrongPrediction(_PARAMS // 8, "the parameters are shared out among the heads",
                        "Each head uses 1/8 of the columns, but there are eight heads: together they "
                        "use every column, so nothing is divided."),
        WrongPrediction(4 * _D * (_D // _H) + 4 * _D, "one head's matrices (D x Dh) only",
                        "That is the share of one head; the layer holds all eight heads' columns."),
    ),
)

CARD = Card(
    "prediction_params_h8", "05_multi_head_attention", prediction=PREDICTION,
    examples=[
        Example("prediction_params_h8 = 8 * 66048\n", ("test_predict_params_h8",),
                "every head has its own D x D matrices", label="written as a product"),
        Example("prediction_params_h8 = 16640\n", ("test_predict_params_h8",), "The answer is 66048",
                label="the one-head count of the narrower layer"),
    ],
)


def check_prediction_params_h8(prediction_params_h8, hidden: bool = False) -> None:
    """Check the prediction of the parameter count of MultiHeadAttention(128, 8, bias=True)."""
    CARD.prediction.check(prediction_params_h8, hidden=hidden)
