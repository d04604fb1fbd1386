"""prediction_beats_least_squares (notebook 12): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_beats_least_squares", "choice", "least squares",
    "The targets have no noise and N = 20 > d = 5, so least squares recovers w exactly and its error "
    "is zero up to rounding. One gradient step from w = 0 cannot: the trained layer's error stays well "
    "above zero however long it trains, because one step of any preconditioner only gets w right on "
    "average over the prompt's inputs.",
    options=("the trained layer", "least squares", "the same"),
    wrong=(
        WrongPrediction("the trained layer", "it was trained on exactly this kind of prompt",
                        "Training makes it the best one-step method, but one step is not a solve: with "
                        "noiseless targets and N > d, least squares is exact."),
        WrongPrediction("the same", "both are linear in y",
                        "Both predictions are linear in y, but least squares inverts XᵀX while one step "
                        "only multiplies by a fixed Γ."),
    ),
)

CARD = Card("prediction_beats_least_squares", "12_what_attention_learns", prediction=PREDICTION)


def check_prediction_beats_least_squares(prediction_beats_least_squares, hidden: bool = False) -> None:
    """Check the prediction of which is more accurate at N = 20: the trained layer or least squares."""
    CARD.prediction.check(prediction_beats_least_squares, hidden=hidden)
