"""prediction_bf16_shifted_scores (notebook 11): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_bf16_shifted_scores", "choice", "changes by more than 10%",
    "bfloat16 keeps 8 significant bits: it holds every integer exactly only up to 256, and between "
    "8,192 and 16,384 its neighbouring numbers are 64 apart. The positions 8,192 to 8,197 all round to "
    "8,192 before they are multiplied by the frequencies, so the six tokens get one and the same "
    "rotation: every offset the scores see becomes 0, and the matrix is the scores without positions, "
    "not the matrix at positions 0 to 5 (about 37% away on the notebook's vectors). The theorem "
    "(scores depend on offsets only) holds for exact positions; real implementations therefore "
    "compute the angles, cosines and sines in float32 whatever the model's dtype.",
    options=("unchanged", "changes by under 1%", "changes by more than 10%"),
    wrong=(
        WrongPrediction("unchanged", "RoPE sees only offsets, whatever the dtype",
                        "That is the exact-arithmetic theorem. In bfloat16 the positions themselves are "
                        "rounded before any rotation: 8,192 to 8,197 are all stored as 8,192, so the offsets "
                        "between the six tokens are lost, and with them the scores at positions 0 to 5."),
        WrongPrediction("changes by under 1%", "bfloat16's relative precision, about 0.4%, applied to the scores",
                        "0.4% is the error relative to the number rounded, and here that number is a position: "
                        "±0.4% of 8,192 is ±32 positions, far more than the offsets of 1 to 5 the scores "
                        "encode. The rounding error of the angle is absolute, and it grows with the position."),
    ),
)

CARD = Card("prediction_bf16_shifted_scores", "11_modern_attention", prediction=PREDICTION)


def check_prediction_bf16_shifted_scores(prediction_bf16_shifted_scores, hidden: bool = False) -> None:
    """Check the prediction of RoPE scores moved to positions 8,192.. when computed in bfloat16."""
    CARD.prediction.check(prediction_bf16_shifted_scores, hidden=hidden)
