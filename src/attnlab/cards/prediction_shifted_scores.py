"""prediction_shifted_scores (notebook 11): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_shifted_scores", "choice", "unchanged",
    "Query p is turned by p·θ_k in pair k, key p' by p'·θ_k; their dot product in that pair is "
    "the dot product of the unrotated pair turned by (p − p')·θ_k. Adding 100 to every position "
    "leaves every difference p − p' as it was, so every score, and the whole matrix, is unchanged.",
    options=("unchanged", "every score changes", "only the diagonal is unchanged"),
    wrong=(
        WrongPrediction("every score changes", "new positions give new rotations, so new scores",
                        "Each vector is indeed rotated differently, but queries and keys turn by the "
                        "same extra angle, and a dot product does not see a rotation applied to both."),
        WrongPrediction("only the diagonal is unchanged", "a token against itself has offset 0",
                        "Every entry depends on its offset alone, and no offset changes when all "
                        "positions move together: the off-diagonal entries stay too."),
    ),
)

CARD = Card("prediction_shifted_scores", "11_modern_attention", prediction=PREDICTION)


def check_prediction_shifted_scores(prediction_shifted_scores, hidden: bool = False) -> None:
    """Check the prediction of RoPE scores when every position moves by the same amount."""
    CARD.prediction.check(prediction_shifted_scores, hidden=hidden)
