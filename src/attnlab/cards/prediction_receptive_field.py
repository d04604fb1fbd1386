"""prediction_receptive_field (notebook 10): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_receptive_field", "number", 25,
    "The second convolution's output at the centre reads a 3 x 3 block of the first layer's "
    "outputs, and each of those reads a 3 x 3 block of the input, shifted by one pixel from its "
    "neighbour: together a 5 x 5 square, 25 pixels. Each layer adds one pixel on every side.",
    wrong=(
        WrongPrediction(9, "one 3 x 3 view", "That is one convolution; the second one reads nine "
                        "outputs of the first, each with its own 3 x 3 view."),
        WrongPrediction(18, "the two 3 x 3 views added",
                        "The views do not add up pixel counts: the second layer's nine inputs each "
                        "see a 3 x 3 square, and their union is a 5 x 5 square."),
        WrongPrediction(81, "the two 3 x 3 views multiplied",
                        "The nine 3 x 3 views overlap: neighbouring outputs of the first layer read "
                        "squares shifted by one pixel, so together they cover 5 x 5, not 9 x 9."),
        WrongPrediction(256, "every pixel, as for attention",
                        "A convolution only reads its neighbourhood, whatever the image: two layers "
                        "reach two pixels away in each direction."),
    ),
)

CARD = Card("prediction_receptive_field", "10_attention_on_images", prediction=PREDICTION)


def check_prediction_receptive_field(prediction_receptive_field, hidden: bool = False) -> None:
    """Check the prediction of the receptive field of two stacked 3 x 3 convolutions."""
    CARD.prediction.check(prediction_receptive_field, hidden=hidden)
