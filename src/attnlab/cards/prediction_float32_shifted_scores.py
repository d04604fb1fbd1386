"""prediction_float32_shifted_scores (notebook 11): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_float32_shifted_scores", "choice", "between 0.001% and 1%",
    "float32 holds the positions 100,000 to 100,005 exactly (every integer up to 2²⁴), but the angle "
    "p·θ is rounded to float32 relative to its own size: pair 0's angle of about 100,000 radians is "
    "kept to within about 0.004 radian (half the float32 spacing at 100,000, which is 2⁻⁷). That error is "
    "absolute, it grows in proportion to the position, and it turns the query and the key of the same "
    "pair by slightly different extra angles, so the scores move by about 0.05% of their size on the "
    "notebook's vectors: hundreds of times float32's rounding of a score, and far below 1%. At "
    "positions near 100 the same computation is exact to float32 rounding; ten times further, at a "
    "million, the change is about ten times larger.",
    options=("below 0.001%", "between 0.001% and 1%", "above 1%"),
    wrong=(
        WrongPrediction("below 0.001%", "float32's precision, about 10⁻⁷, applied to the scores",
                        "10⁻⁷ is the error relative to the number rounded, and the number rounded is the "
                        "angle, 100,000 radians for pair 0: its error is about 0.004 radian, not 10⁻⁷, and "
                        "a rotation that far off moves a score by about 10⁻³ of its size."),
        WrongPrediction("above 1%", "the positions lost, as in half precision",
                        "float32 keeps 24 significant bits: the positions are exact up to 16,777,216, so "
                        "the six tokens keep their offsets; only the angles are rounded, by a few "
                        "thousandths of a radian, which moves the scores by well under 1%."),
    ),
)

CARD = Card("prediction_float32_shifted_scores", "11_modern_attention", prediction=PREDICTION)


def check_prediction_float32_shifted_scores(prediction_float32_shifted_scores, hidden: bool = False) -> None:
    """Check the prediction of RoPE scores moved to positions 100,000.. when computed in float32."""
    CARD.prediction.check(prediction_float32_shifted_scores, hidden=hidden)
