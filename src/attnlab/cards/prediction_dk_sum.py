"""prediction_dk_sum (notebook 08): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_dk_sum", "choice", "zero",
    "Add the same vector c to every key: each score of row i grows by q_i · c / √Dk, the same for "
    "all the keys of that row, and a softmax ignores a constant added to a whole row. The weights, "
    "the output and the loss do not change, so the loss's derivative along that move, "
    "Σ_j dK_j · c, is 0 for every c: the keys' gradients sum to the zero vector, whatever the "
    "inputs (up to rounding).",
    options=("zero", "the sum of dQ", "it depends on the inputs"),
    wrong=(
        WrongPrediction("it depends on the inputs", "the gradient of each key is its own",
                        "Each dK_j depends on the inputs, but their sum does not: moving every key by "
                        "the same c shifts each row of scores by a constant, which the softmax "
                        "cancels."),
        WrongPrediction("the sum of dQ", "queries and keys play the same part",
                        "Scores are symmetric in q and k, but the softmax is not: it normalises over "
                        "the keys of a row, so a common shift of the keys cancels, while a common "
                        "shift of the queries changes the scores by k_j · c, different for each key."),
    ),
)

CARD = Card("prediction_dk_sum", "08_efficient_attention", prediction=PREDICTION)


def check_prediction_dk_sum(prediction_dk_sum, hidden: bool = False) -> None:
    """Check the prediction of the sum of dK over the keys."""
    CARD.prediction.check(prediction_dk_sum, hidden=hidden)
