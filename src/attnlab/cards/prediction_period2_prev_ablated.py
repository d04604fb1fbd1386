"""prediction_period2_prev_ablated (notebook 12): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_period2_prev_ablated", "choice", "between 1 and 3",
    "Mean-ablating layer 1 takes from layer 2 what it matches on (which token came before each "
    "key), so layer 2 can no longer find the one position to copy from. But it still copies from "
    "the context, and at period 2 the whole sequence is two tokens, a b a b ...: one of the two is "
    "the answer. A head that attends without knowing where still puts about a third of its weight on "
    "keys holding the target (against more than 0.7 intact), and the model gives the right token a "
    "probability of about e^-2, near 0.14 on average, not the 1/32 of chance: the loss lands between "
    "1 and 3, well "
    "below the 2.8 to 3.2 of the layouts whose repeat holds 8 to 12 different tokens.",
    options=("below 1", "between 1 and 3", "above 3"),
    wrong=(
        WrongPrediction("above 3", "ablating layer 1 breaks copying on every layout",
                        "It did on the three layouts above, each with 8 to 12 different tokens in its repeat: "
                        "a copy from the wrong place there is almost always the wrong token. At period 2 "
                        "the context holds only two tokens, one of them the target, so a copy that no "
                        "longer knows where to look lands on it a third of the time."),
        WrongPrediction("below 1", "copying survives without layer 1 (at period 2 the target is simply the token "
                                    "at t − 1)",
                        "That is where the target sits, but layer 2 was trained to find its key "
                        "by what layer 1 wrote there, not by position: without it, its weight on the keys "
                        "holding the target falls from more than 0.7 to about a third, whatever else still "
                        "steers it, and the loss rises well above 1."),
    ),
)

CARD = Card("prediction_period2_prev_ablated", "12_what_attention_learns", prediction=PREDICTION)


def check_prediction_period2_prev_ablated(prediction_period2_prev_ablated, hidden: bool = False) -> None:
    """Check the prediction of the copy loss at period 2 with the layer-1 head mean-ablated."""
    CARD.prediction.check(prediction_period2_prev_ablated, hidden=hidden)
