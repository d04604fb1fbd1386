"""prediction_gradient_decay (notebook 06): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_gradient_decay", "choice", "like 1/L",
    "One attention layer connects token 1 to position L directly, so nothing multiplies the signal "
    "L - 1 times; but token 1 is one of L keys that share the softmax's weight, about 1/L each "
    "for random inputs, so its influence thins like 1/L (the dotted line in the plot).",
    options=("constant", "like 1/L", "exponentially"),
    wrong=(
        WrongPrediction("exponentially", "attention decays like a recurrence",
                        "The exponential decay comes from passing the signal through L - 1 state "
                        "updates, one Jacobian each; attention has a path of length 1 between any two "
                        "tokens."),
        WrongPrediction("constant", "a path of length 1 loses nothing",
                        "The path is short, but the softmax normalises over all L keys: each key's "
                        "weight, token 1's included, is about 1/L when no key stands out."),
    ),
)

CARD = Card(
    "prediction_gradient_decay", "06_attention_as_kernel_machine", prediction=PREDICTION,
    examples=[
        Example('prediction_gradient_decay = "Constant "\n', ("test_predict_gradient_decay",),
                "a path of length 1 loses nothing", label="capitalised"),
        Example('prediction_gradient_decay = "1/L"\n', ("test_predict_gradient_decay",), "expected one of"),
    ],
)


def check_prediction_gradient_decay(prediction_gradient_decay, hidden: bool = False) -> None:
    """Check the prediction of how token 1's gradient at position L falls with L through attention."""
    CARD.prediction.check(prediction_gradient_decay, hidden=hidden)
