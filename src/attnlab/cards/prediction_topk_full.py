"""prediction_topk_full (notebook 13): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_topk_full", "choice", "equal to dense attention",
    "With k = Lk every key is kept, so no score is set aside and the renormalised softmax over the kept "
    "keys is the softmax over all of them: top-k attention with k = Lk is dense attention, weights and output.",
    options=("equal to dense attention", "sharper than dense attention", "flatter than dense attention"),
    wrong=(
        WrongPrediction("sharper than dense attention", "top-k always concentrates the weights",
                        "It concentrates them only by dropping keys; with k = Lk nothing is dropped."),
        WrongPrediction("flatter than dense attention", "renormalising spreads the weights out",
                        "Renormalising over all the keys divides by the same sum as the softmax itself."),
    ),
)

CARD = Card("prediction_topk_full", "13_attention_variants", prediction=PREDICTION)


def check_prediction_topk_full(prediction_topk_full, hidden: bool = False) -> None:
    """Check the prediction of top-k attention with k = Lk against dense attention."""
    CARD.prediction.check(prediction_topk_full, hidden=hidden)
