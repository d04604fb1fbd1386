"""prediction_score_memory_gib (notebook 08): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_score_memory_gib", "number", 16.0,
    "65536² = 2³² numbers of 4 bytes each (float32): 2³⁴ bytes = 16 GiB for one L x L matrix, "
    "one head of one sequence. Q, K, V and the output together take 64 MiB, 256 times less.",
    rtol=0.02,
    wrong=(
        WrongPrediction(4.0, "numbers counted, not bytes",
                        "2³² numbers is 4 Gi *numbers*; each float32 takes 4 bytes."),
        WrongPrediction(32.0, "8 bytes per number",
                        "8 bytes is float64; float32 takes 4."),
        WrongPrediction(0.015625, "L x d instead of L x L",
                        "16 MiB is one (L, d) matrix such as Q; the scores are (L, L)."),
    ),
)

CARD = Card(
    "prediction_score_memory_gib", "08_efficient_attention", prediction=PREDICTION,
    examples=[
        Example("prediction_score_memory_gib = 4\n", ("test_predict_score_memory_gib",),
                "numbers counted, not bytes", label="an integer"),
        Example("prediction_score_memory_gib = 16384\n", ("test_predict_score_memory_gib",),
                "The answer is 16", label="MiB instead of GiB"),
    ],
)


def check_prediction_score_memory_gib(prediction_score_memory_gib, hidden: bool = False) -> None:
    """Check the prediction of the memory of one 65536 x 65536 float32 matrix, in GiB."""
    CARD.prediction.check(prediction_score_memory_gib, hidden=hidden)
