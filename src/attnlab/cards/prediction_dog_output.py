"""prediction_dog_output (notebook 03): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_dog_output", "choice", "the same",
    "Self-attention is permutation-equivariant: reordering the tokens reorders the scores' rows "
    "and columns together, and the row-wise softmax and the weighted average do not care about "
    "order, so each token's output depends on which tokens are present, never on where they are. "
    "'dog' gets exactly the same vector in both sentences, for every choice of W_q, W_k and W_v.",
    options=("the same", "different", "depend on the weights"),
    wrong=(
        WrongPrediction("different", "word order changes the meaning, so the output changes",
                        "It changes the meaning for us, but the layer has no input that says where "
                        "a word is: it sees the same set of three vectors, merely listed in "
                        "another order."),
        WrongPrediction("depend on the weights", "equal only for special weights",
                        "The argument S' = P S Pᵀ, A' = P A Pᵀ, Z' = P Z uses no property of the "
                        "weights: it holds for all of them."),
    ),
)

_FAILS = ("test_predict_dog_output",)

CARD = Card(
    "prediction_dog_output", "03_self_attention", prediction=PREDICTION,
    examples=[
        Example('prediction_dog_output = "Different"\n', _FAILS, "word order changes the meaning",
                label="capitalised"),
        Example('prediction_dog_output = "same"\n', _FAILS, "expected one of 'the same'"),
    ],
)


def check_prediction_dog_output(prediction_dog_output, hidden: bool = False) -> None:
    """Check the prediction of whether 'dog' gets the same output in both word orders."""
    CARD.prediction.check(prediction_dog_output, hidden=hidden)
