"""prediction_control_shifted_loss (notebook 12): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_control_shifted_loss", "choice", "worse than chance",
    "The control learned to copy by position: at every position of its layout the token to copy is "
    "the one 11 places back, and its layer 2 reads that place whatever the tokens are. On a repeat of "
    "period 10 from position 4 the token 11 places back is the wrong one, and the model still bets "
    "on it with confidence. A confident wrong guess costs more than a uniform one: the loss goes above "
    "ln V.",
    options=("near zero", "about chance", "worse than chance"),
    wrong=(
        WrongPrediction("near zero", "its layer 2 has a high prefix-matching score on its own layout",
                        "On its own layout reading 11 places back and copying by content give the same "
                        "token, so the score cannot tell them apart. The probe's scores (below 0.1) already "
                        "said the control does not match content: on another period the place it reads "
                        "holds the wrong token."),
        WrongPrediction("about chance", "a model that cannot copy there knows nothing, so it guesses",
                        "It does not guess uniformly: it has learned to trust the token 11 places back and "
                        "puts most of its probability on it. Wrong and confident is worse than knowing "
                        "nothing."),
    ),
)

CARD = Card("prediction_control_shifted_loss", "12_what_attention_learns", prediction=PREDICTION)


def check_prediction_control_shifted_loss(prediction_control_shifted_loss, hidden: bool = False) -> None:
    """Check the prediction of the fixed-layout control's loss on a shifted repeat."""
    CARD.prediction.check(prediction_control_shifted_loss, hidden=hidden)
