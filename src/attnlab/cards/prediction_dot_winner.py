"""prediction_dot_winner (notebook 02): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_dot_winner", "choice", "k2",
    "The dot product q·k = |q| |k| cos θ rewards length as well as direction: the scores are "
    "k1 1.2, k2 3.75, k3 0, k4 -2.25, so the long key 45° off wins over the short one that points "
    "exactly along the query. Cosine, which divides the length out, would pick k1.",
    options=("k1", "k2", "k3", "k4"),
    wrong=(
        WrongPrediction("k1", "the best-aligned key wins",
                        "That is the cosine's answer. The dot product is |q| |k| cos θ: k1 is "
                        "perfectly aligned (cos θ = 1) but short, 1.5 · 0.8 = 1.2, while k2 scores "
                        "1.5 · 3.54 · cos 45° = 3.75."),
        WrongPrediction("k4", "the score largest in size wins, whatever its sign",
                        "The softmax gives the most weight to the largest score, and a negative "
                        "score (k4: -2.25) gets the least."),
    ),
)

CARD = Card(
    "prediction_dot_winner", "02_query_key_value", prediction=PREDICTION,
    examples=[
        Example('prediction_dot_winner = "K4"\n', ("test_predict_dot_winner",), "whatever its sign",
                label="capitalised"),
        Example("prediction_dot_winner = 2\n", ("test_predict_dot_winner",), "expected one of 'k1'",
                label="a number, not a key's name"),
    ],
)


def check_prediction_dot_winner(prediction_dot_winner, hidden: bool = False) -> None:
    """Check the prediction of the key that gets the largest weight under the dot product."""
    CARD.prediction.check(prediction_dot_winner, hidden=hidden)
