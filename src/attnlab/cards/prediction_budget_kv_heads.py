"""prediction_budget_kv_heads (notebook 11): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_budget_kv_heads", "number", 20,
    "One key/value head costs 2 (keys and values) x 40 layers x 128 numbers x 2 bytes per token: "
    "20,480 bytes, and 32 requests of 2,048 tokens make that 1.34 GB. 32 GB holds 23.8 of those, "
    "but the 40 query heads must be cut into equal groups of neighbouring heads, so the number of "
    "key/value heads divides 40: 1, 2, 4, 5, 8, 10, 20 or 40. The largest that fits is 20 (26.8 GB), "
    "groups of 2 query heads.",
    wrong=(
        WrongPrediction(23, "as many heads as the budget holds",
                        "23 caches would fit, but 40 query heads cannot be cut into 23 equal groups: the "
                        "count of key/value heads divides the count of query heads."),
        WrongPrediction(24, "the budget's share rounded up",
                        "The cache must fit: round down, not up; and the count must divide the 40 query heads."),
        WrongPrediction(25, "32 GiB read for 32 GB",
                        "A GB is 10⁹ bytes; 32 GiB would be 34.4 GB. And whatever the budget, the count of "
                        "key/value heads must divide the 40 query heads."),
        WrongPrediction(40, "keys only (no factor 2)",
                        "Every cached token keeps a key and a value per key/value head and layer: twice what "
                        "the keys alone take. All 40 heads would need 53.7 GB."),
        WrongPrediction(2, "the size of a group instead of the number of key/value heads",
                        "2 is how many query heads share one key/value head at the answer; the question asks "
                        "for the key/value heads: 40 / 2 = 20."),
        WrongPrediction(1, "multi-query attention, the smallest cache",
                        "MQA fits, but it is not the largest grouping that does: more key/value heads keep "
                        "more of the model's capacity, and up to 20 fit."),
    ),
)

CARD = Card("prediction_budget_kv_heads", "11_modern_attention", prediction=PREDICTION)


def check_prediction_budget_kv_heads(prediction_budget_kv_heads, hidden: bool = False) -> None:
    """Check the prediction of the most key/value heads whose cache fits the budget (OPT-13B's shapes)."""
    CARD.prediction.check(prediction_budget_kv_heads, hidden=hidden)
