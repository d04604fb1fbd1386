"""prediction_gqa_cache_gb (notebook 11): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_gqa_cache_gb", "number", 4.29,
    "The cache holds one key and one value vector per key/value head, not per query head: 8 "
    "key/value heads instead of 32 is a quarter of 17.18 GB, 4.29 GB. The queries are never cached.",
    rtol=0.01,
    wrong=(
        WrongPrediction(17.18, "the cache follows the query heads",
                        "The 32 query heads are computed afresh for each new token; only keys and "
                        "values are cached, and there are 8 of those heads."),
        WrongPrediction(2.15, "K and V counted once",
                        "Each cached token keeps a key and a value: twice one of them."),
        WrongPrediction(34.36, "bits for bytes, or bf16 counted as 4 bytes",
                        "bf16 takes 2 bytes per number."),
        WrongPrediction(4.0, "GiB for GB",
                        "The count of bytes is right, but in GiB (2³⁰ bytes): 4.0 GiB is 4.29 GB (10⁹ "
                        "bytes), the unit the question and the published figures use."),
    ),
)

CARD = Card("prediction_gqa_cache_gb", "11_modern_attention", prediction=PREDICTION)


def check_prediction_gqa_cache_gb(prediction_gqa_cache_gb, hidden: bool = False) -> None:
    """Check the prediction of the KV cache of the 32-layer model with 8 key/value heads, in GB."""
    CARD.prediction.check(prediction_gqa_cache_gb, hidden=hidden)
