"""prediction_frozen_count (notebook 12): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_frozen_count", "number", 36,
    "The loss reaches the weights only through the prediction, the last entry of the query row's "
    "output. In the query's scores z_q W_kq z_iᵀ, row d of W_kq is multiplied by the query's last "
    "entry, the 0 written for its unknown target: 6 entries. Of the values z_i W_pv the prediction "
    "reads only the last column, which the first d = 5 columns of W_pv never make: 30 entries. "
    "6 + 30 = 36, and they get no gradient whatever the prompt and the weights.",
    wrong=(
        WrongPrediction(46, "the zeros of the gradient-descent construction",
                        "An entry that is zero in the construction is one the loss wants to be zero: it gets "
                        "a gradient wherever it is not zero yet. No gradient at all means the entry never "
                        "reaches the prediction."),
        WrongPrediction(0, "every entry reaches the loss",
                        "The query's last entry is always 0, and the prediction reads one column of the "
                        "values: some entries are multiplied by 0, or feed outputs nobody reads."),
        WrongPrediction(6, "only the row of W_kq that meets the query's 0",
                        "The values' other columns are never read by the prediction: the first d columns "
                        "of W_pv make only those."),
        WrongPrediction(30, "only the columns of W_pv the prediction never reads",
                        "The query's last entry is the 0 of its unknown target, and in z_q W_kq it multiplies "
                        "a whole row of W_kq."),
        WrongPrediction(11, "the construction's zeros of W_kq",
                        "The last column of W_kq meets the examples' targets y_i, which are not 0: only the "
                        "row that meets the query's 0 is out of reach; and W_pv has entries out of reach too."),
        WrongPrediction(42, "the examples' targets taken for zeros too (W_kq's last row and column)",
                        "Only the query's last entry is 0: the keys are the example rows, whose last entry is "
                        "their target."),
    ),
)

CARD = Card("prediction_frozen_count", "12_what_attention_learns", prediction=PREDICTION)


def check_prediction_frozen_count(prediction_frozen_count, hidden: bool = False) -> None:
    """Check the prediction of how many entries of W_kq and W_pv get no gradient (d = 5)."""
    CARD.prediction.check(prediction_frozen_count, hidden=hidden)
