"""prediction_reversed_hypothesis (notebook 12): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_reversed_hypothesis", "choice", "the same",
    "Nothing in decomposable attention knows where a token is: the alignment weights compare token "
    "vectors, the comparisons are summed over each sentence, and a sum does not depend on order. "
    "Reversing a sentence permutes the terms of the sums, so the logits are the same, up to rounding (the sums add the same terms in another order).",
    options=("the same", "different"),
    wrong=(
        WrongPrediction("different", "the sentence means something else",
                        "It does for a reader, but the model has no positions and aggregates by summing: "
                        "it sees a bag of aligned words."),
    ),
)

CARD = Card(
    "prediction_reversed_hypothesis", "12_what_attention_learns", prediction=PREDICTION,
    examples=[
        Example('prediction_reversed_hypothesis = "reversed"\n', ("test_predict_reversed_hypothesis",),
                "expected one of 'the same'", label="not an option"),
    ],
)


def check_prediction_reversed_hypothesis(prediction_reversed_hypothesis, hidden: bool = False) -> None:
    """Check the prediction of decomposable attention's output on a reversed hypothesis."""
    CARD.prediction.check(prediction_reversed_hypothesis, hidden=hidden)
