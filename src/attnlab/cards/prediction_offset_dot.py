"""prediction_offset_dot (notebook 09): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_offset_dot", "choice", "equal",
    "Each column pair of PE_p is the point (sin θ_i p, cos θ_i p) on a circle; moving k positions "
    "turns it by θ_i k whatever p is. The dot product of two encodings sums cos(θ_i (q - p)) over "
    "the pairs, a function of the offset q - p alone: PE_3 · PE_10 and PE_40 · PE_47 are equal "
    "(offset 7 both times).",
    options=("PE_3 · PE_10", "PE_40 · PE_47", "equal"),
    wrong=(
        WrongPrediction("PE_3 · PE_10", "positions near the start look more alike",
                        "Small positions have small angles, but the dot product compares the two "
                        "angles' difference, not their size."),
        WrongPrediction("PE_40 · PE_47", "far positions blur together",
                        "The slow hands barely move between 40 and 47, but they barely move between "
                        "3 and 10 either: every hand turns by the same angle over the same offset."),
    ),
)

CARD = Card("prediction_offset_dot", "09_transformer", prediction=PREDICTION)


def check_prediction_offset_dot(prediction_offset_dot, hidden: bool = False) -> None:
    """Check the prediction of which of PE_3 · PE_10 and PE_40 · PE_47 is larger."""
    CARD.prediction.check(prediction_offset_dot, hidden=hidden)
