"""prediction_period15_copying (notebook 12): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_period15_copying", "choice", "partly",
    "Copying by content does not care in principle how far back the earlier occurrence is, but this "
    "circuit learned its match on periods 3 to 12, where a copy of the target at most 11 positions "
    "behind the query was always there: farther copies existed too (the repeat goes on), but nothing "
    "ever needed them, so nothing stopped the head from preferring near keys. At period 15 the "
    "nearest copy is 14 behind. Layer 2's prefix-matching score falls "
    "from above 0.55 on period 8 to between 0.2 and 0.5, and the loss on the copyable targets lands "
    "between 1 and 3: a partial copy, worse the longer the period (period 13 still copies; from "
    "about 18 on, none is left).",
    options=("copies", "partly", "not at all"),
    wrong=(
        WrongPrediction("copies", "an induction head matches content, whatever the distance",
                        "The match is by content, but the head's scores also depend on the positions, and "
                        "in training a copy at most 11 positions back was always there to match: "
                        "farther matches were never needed. Period 8 was unseen "
                        "as well, but inside the range of the training periods: that is interpolation; "
                        "period 15 is outside it."),
        WrongPrediction("not at all", "a period outside the training range breaks the circuit",
                        "The content match still carries part of the weight: layer 2's prefix-matching "
                        "score drops but stays well above 0, and the loss stays well below chance. The "
                        "failure is gradual with the period, not a cliff at 12."),
    ),
)

CARD = Card("prediction_period15_copying", "12_what_attention_learns", prediction=PREDICTION)


def check_prediction_period15_copying(prediction_period15_copying, hidden: bool = False) -> None:
    """Check the prediction of how well the induction model copies at period 15."""
    CARD.prediction.check(prediction_period15_copying, hidden=hidden)
