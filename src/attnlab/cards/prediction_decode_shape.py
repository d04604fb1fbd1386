"""prediction_decode_shape (notebook 07): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_decode_shape", "shape", (3, 26),
    "One row per sentence, one column per step taken. Decoding stops when the *last* sentence "
    "has produced <eos>: the longest translation has 25 words, then its <eos> step, so 26 steps; "
    "the two shorter rows end in <eos> followed by <pad>.",
    wrong=(
        WrongPrediction((3, 60), "decoding always takes max_len steps",
                        "max_len is only the limit: the loop stops as soon as every sentence has "
                        "produced <eos>."),
        WrongPrediction((3, 25), "the <eos> step is not counted",
                        "<eos> is kept in tokens: the step that produces it is a column too."),
        WrongPrediction((3, 6), "decoding stops when the first sentence ends",
                        "A finished sentence is padded while the others go on; the batch stops when "
                        "all are finished."),
    ),
)

CARD = Card(
    "prediction_decode_shape", "07_rnn_translation_with_attention", prediction=PREDICTION,
    examples=[
        Example("prediction_decode_shape = [3, 6]\n", ("test_predict_decode_shape",),
                "decoding stops when the first sentence ends", label="a list"),
    ],
)


def check_prediction_decode_shape(prediction_decode_shape, hidden: bool = False) -> None:
    """Check the prediction of the shape of greedy_decode's tokens for three test sentences."""
    CARD.prediction.check(prediction_decode_shape, hidden=hidden)
