"""prediction_first_output (notebook 06): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_first_output", "choice", "v_0",
    "Token 0 may attend to itself only: S_0 = φ(k_0) v_0ᵀ and z_0 = φ(k_0), so "
    "out_0 = φ(q_0)ᵀφ(k_0) v_0 / φ(q_0)ᵀφ(k_0) = v_0 exactly, whatever φ, q_0 and k_0 are. One key "
    "gets all the weight, as in causal softmax attention.",
    options=("v_0", "zero", "the mean of all the values", "it depends on q_0 and k_0"),
    wrong=(
        WrongPrediction("zero", "no earlier token, nothing to read",
                        "The prefix sums include the current token (j <= i): token 0 has written "
                        "its own key and value before its query reads."),
        WrongPrediction("the mean of all the values", "linear attention has no causal mask",
                        "With causal=True the sums run over j <= i only; token 0 sees one value."),
        WrongPrediction("it depends on q_0 and k_0", "the weights depend on the features",
                        "They do, but with a single key the one weight is normalised to 1: the "
                        "factor φ(q_0)ᵀφ(k_0) cancels between numerator and denominator."),
    ),
)

CARD = Card("prediction_first_output", "06_attention_as_kernel_machine", prediction=PREDICTION)


def check_prediction_first_output(prediction_first_output, hidden: bool = False) -> None:
    """Check the prediction of the first output of causal linear attention."""
    CARD.prediction.check(prediction_first_output, hidden=hidden)
