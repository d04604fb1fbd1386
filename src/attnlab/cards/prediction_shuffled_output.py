"""prediction_shuffled_output (notebook 10): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_shuffled_output", "choice", "shuffled the same way",
    "Shuffling the pixels shuffles the tokens: the queries, keys and values are the same vectors in "
    "another order, so A has its rows and columns reordered the same way and every output is the "
    "same vector, now at its pixel's new place. Without positional encodings spatial attention "
    "cannot tell a corner from the centre.",
    options=("identical", "shuffled the same way", "changed completely"),
    wrong=(
        WrongPrediction("identical", "a weighted average over all pixels does not care about order",
                        "Each pixel's output is indeed the same vector as before, but it belongs to "
                        "that pixel, which has moved: the output map is shuffled along with the input."),
        WrongPrediction("changed completely", "moving pixels changes which pixels attend to which",
                        "The scores compare pairs of tokens by their contents only; a pair of pixels "
                        "has the same score wherever the two pixels are put."),
    ),
)

CARD = Card(
    "prediction_shuffled_output", "10_attention_on_images", prediction=PREDICTION,
    examples=[Example('prediction_shuffled_output = "the same"\n', ("test_predict_shuffled_output",),
                      "cannot be read")],
)


def check_prediction_shuffled_output(prediction_shuffled_output, hidden: bool = False) -> None:
    """Check the prediction of spatial attention's output on shuffled pixels (no positions)."""
    CARD.prediction.check(prediction_shuffled_output, hidden=hidden)
