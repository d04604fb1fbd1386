"""prediction_unflipped_keys (notebook 04): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_unflipped_keys", "indices", {4},
    "nn.MultiheadAttention reads True as blocked. Row 0 of the causal mask is True only at key 0, "
    "so passed as it is it blocks key 0 and allows 1-4; the padding mask is True on the real keys "
    "0-3, so it blocks them and allows only key 4, the padding. Both must allow a key: only key 4 "
    "is left, the one key that should never be seen. No error, no warning.",
    wrong=(
        WrongPrediction({0}, "the keys our mask allows",
                        "That is what the mask means in this course and in SDPA; MultiheadAttention "
                        "reads the same booleans the other way round."),
        WrongPrediction({1, 2, 3, 4}, "only the causal mask flipped",
                        "The key_padding_mask is read the other way round as well: passed as it is, "
                        "it blocks the four real keys."),
        WrongPrediction({0, 1, 2, 3}, "the real keys",
                        "The padding mask, read as 'True = blocked', removes exactly the real keys."),
        WrongPrediction(set(), "everything is blocked",
                        "The two negated masks still overlap on one key: key 4 is allowed by both."),
    ),
)

CARD = Card("prediction_unflipped_keys", "04_masks_and_cross_attention", prediction=PREDICTION)


def check_prediction_unflipped_keys(prediction_unflipped_keys, hidden: bool = False) -> None:
    """Check the prediction of the keys query 0 sees when the masks reach MHA unflipped."""
    CARD.prediction.check(prediction_unflipped_keys, hidden=hidden)
