"""prediction_the_attends_to (notebook 01): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_the_attends_to", "choice", "dog",
    "The row of \"the\" holds softmax of its dot products with every word: cat 0.57, dog 0.60, "
    "car 0.39, the 0.27 (weights 0.28, 0.29, 0.23, 0.20). \"the\" = [0.3, 0.3, 0.3] points "
    "a little along every feature, so the word with the largest sum of features wins; \"dog\" "
    "edges out \"cat\" thanks to its small third feature. The weights are close to uniform: a "
    "short vector gives small scores, and small scores give a flat softmax.",
    options=("cat", "dog", "car", "the"),
    wrong=(
        WrongPrediction("the", "every token attends most to itself",
                        "x·x = |x|² is the largest score only for a token whose norm is large; "
                        "\"the\" is short, |the|² = 0.27, the smallest score in its row."),
        WrongPrediction("cat", "cat and dog are alike, so take the first",
                        "They nearly tie (0.57 against 0.60), but \"dog\" has a little of the third "
                        "feature, which \"the\" also has."),
        WrongPrediction("car", "the longest vector wins",
                        "\"car\" has the largest norm, but it points along the third feature only, "
                        "so its dot product with [0.3, 0.3, 0.3] is 0.39."),
    ),
)

CARD = Card(
    "prediction_the_attends_to", "01_weighted_averages", prediction=PREDICTION,
    examples=[
        Example('prediction_the_attends_to = "CAT"\n', ('test_predict_the_attends_to',), 'cat and dog are alike', label='capitalised'),
    ],
)


def check_prediction_the_attends_to(prediction_the_attends_to, hidden: bool = False) -> None:
    """Check the prediction of which word "the" gives the largest weight in softmax(X Xᵀ)."""
    CARD.prediction.check(prediction_the_attends_to, hidden=hidden)

