"""prediction_clitic_peak (notebook 07): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_clitic_peak", "choice", "love",
    "The full-size Bahdanau model writes t' with 96% of its weight on \"love\" and 4% on \"you\". "
    "The keys are bidirectional GRU states, not words: the backward GRU reaches \"love\" after it "
    "has read \"you\", so the state at \"love\" knows the object is \"you\" (and not \"him\"), and "
    "the verb is what the decoder must write next. Nothing in training rewards looking at the "
    "gold word itself.",
    options=("I", "love", "you"),
    wrong=(
        WrongPrediction("you", "attention follows the gold alignment",
                        "t' translates \"you\", but the model was never shown an alignment; it looks "
                        "wherever the encoder state holds what it needs, and the state at \"love\" "
                        "has read \"you\" too."),
        WrongPrediction("I", "attention lags one step behind",
                        "The query is the new state s_t, which has already read the previous word "
                        "\"je\"; the model has moved on from \"I\"."),
    ),
)

CARD = Card(
    "prediction_clitic_peak", "07_rnn_translation_with_attention", prediction=PREDICTION,
    examples=[
        Example('prediction_clitic_peak = "aime"\n', ("test_predict_clitic_peak",), "expected one of",
                label="a French word"),
    ],
)


def check_prediction_clitic_peak(prediction_clitic_peak, hidden: bool = False) -> None:
    """Check the prediction of the source word the Bahdanau model's t' attends to most."""
    CARD.prediction.check(prediction_clitic_peak, hidden=hidden)
