"""prediction_weights_shape (notebook 02): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_weights_shape", "shape", (2, 4, 6),
    "One weight per (query, key) pair in every batch item: (B, Lq, Lk) = (2, 4, 6). The widths "
    "Dk = 3 and Dv = 5 do not appear: Dk is summed over in Q Kᵀ, and V enters only after the "
    "weights.",
    wrong=(
        WrongPrediction((2, 4, 5), "the shape of the output",
                        "(B, Lq, Dv) = (2, 4, 5) is the output's shape; the weights come before V."),
        WrongPrediction((2, 6, 4), "keys down the rows",
                        "Each row belongs to a query (and sums to one over the keys): Lq rows, Lk "
                        "columns."),
        WrongPrediction((4, 6), "no batch axis",
                        "Leading batch dimensions carry through: every batch item has its own "
                        "weights."),
        WrongPrediction((2, 4, 3), "the width of the queries",
                        "Dk is contracted away by the dot products; what remains is one score per "
                        "key."),
    ),
)

CARD = Card(
    "prediction_weights_shape", "02_query_key_value", prediction=PREDICTION,
    examples=[
        Example("prediction_weights_shape = [2, 6, 4]\n", ("test_predict_weights_shape",),
                "keys down the rows", label="a list"),
    ],
)


def check_prediction_weights_shape(prediction_weights_shape, hidden: bool = False) -> None:
    """Check the prediction of the weights' shape for Q (2, 4, 3), K (2, 6, 3), V (2, 6, 5)."""
    CARD.prediction.check(prediction_weights_shape, hidden=hidden)
