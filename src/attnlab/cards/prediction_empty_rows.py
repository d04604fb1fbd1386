"""prediction_empty_rows (notebook 04): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card, Example

PREDICTION = Prediction(
    "prediction_empty_rows", "indices", {0, 1},
    "Query i sees keys 0 .. i + Lk - Lq = i - 2. For i = 0 that range ends at -2 and for i = 1 at "
    "-1: no key at all. Query 2 sees key 0, and the last query, 4, sees all three keys. "
    "Bottom-right alignment lines up the *last* query with the last key, so with more queries "
    "than keys the first Lq - Lk = 2 queries are left with nothing.",
    wrong=(
        WrongPrediction(set(), "every query sees at least key 0",
                        "That is true of the top-left (is_causal) mask, where query i sees keys "
                        "0 .. i; the bottom-right mask shifts the diagonal by Lk - Lq = -2."),
        WrongPrediction({3, 4}, "the last queries see nothing",
                        "Bottom-right alignment gives the last query *every* key (it plays the "
                        "newest token, which may look at all the cached keys)."),
        WrongPrediction({0}, "only the first query is empty",
                        "Query 1 sees keys 0 .. 1 - 2 = -1, an empty range too."),
    ),
)

CARD = Card(
    "prediction_empty_rows", "04_masks_and_cross_attention", prediction=PREDICTION,
    examples=[
        Example("prediction_empty_rows = [3, 4]\n", ("test_predict_empty_rows",),
                "the last queries see nothing", label="a list"),
        Example("prediction_empty_rows = 0\n", ("test_predict_empty_rows",),
                "only the first query is empty", label="a bare int"),
        Example("prediction_empty_rows = np.array([False, False, True, True, True])\n",
                ("test_predict_empty_rows",), "boolean mask"),
    ],
)


def check_prediction_empty_rows(prediction_empty_rows, hidden: bool = False) -> None:
    """Check the prediction of the empty rows of a bottom-right causal mask with Lq=5, Lk=3."""
    CARD.prediction.check(prediction_empty_rows, hidden=hidden)
