"""prediction_reversed_sentence (notebook 09): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_reversed_sentence", "choice", "the same",
    "Without positions every token is its word's embedding alone, so the encoder's self-attention "
    "is permutation-equivariant: swapping 'dog' and 'man' swaps their output vectors and changes "
    "nothing else. Cross-attention then takes weighted sums over that set of vectors, and a sum "
    "does not depend on the order of its terms: the decoder receives exactly the same "
    "information for both sentences and writes the same translation, word for word.",
    options=("the same", "different"),
    wrong=(
        WrongPrediction("different", "attention sees the word order",
                        "Attention compares contents, not places: nothing in q·k depends on where a "
                        "token sits unless its vector says so. The two sentences are the same set of "
                        "vectors to this model."),
    ),
)

CARD = Card(
    "prediction_reversed_sentence", "09_transformer", prediction=PREDICTION,
    examples=[
        Example('prediction_reversed_sentence = "same"\n', ("test_predict_reversed_sentence",),
                "expected one of"),
    ],
)


def check_prediction_reversed_sentence(prediction_reversed_sentence, hidden: bool = False) -> None:
    """Check the prediction of whether a model without positions translates a sentence and its
    role-swapped version differently."""
    CARD.prediction.check(prediction_reversed_sentence, hidden=hidden)
