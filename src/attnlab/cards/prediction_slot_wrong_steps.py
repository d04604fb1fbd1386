"""prediction_slot_wrong_steps (notebook 11): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_slot_wrong_steps", "indices", (4, 5, 6, 8, 9, 10, 12),
    "Until the ring wraps, the token at position t sits in slot t: turning by the slot is turning by the "
    "position, and steps 0 to 3 are right. At step 4 the new token lands in slot 0 and is turned as if it "
    "were the first token, while the keys it reads keep the turns of slots 1 to 3: the offsets its scores "
    "see are -1, -2 and -3 instead of 3, 2 and 1. But whenever the new token lands in the last slot "
    "(t % 4 = 3: steps 7 and 11) the window's four tokens sit in slots 0 to 3 in the order of their "
    "positions, every turn is off by the same amount, and the offsets are right again. Wrong: steps 4, 5, "
    "6, 8, 9, 10 and 12, 7 of the 13.",
    wrong=(
        WrongPrediction((4, 5, 6, 7, 8, 9, 10, 11, 12), "every step after the wrap",
                        "Steps 7 and 11 are exact: at those two steps the ring holds the window sorted by "
                        "position, slot 0 the oldest, so all the turns are off by one common amount."),
        WrongPrediction(tuple(range(13)), "every step",
                        "Before the ring wraps the slot of a token is its position, so the turns are the right "
                        "ones; after it, steps 7 and 11 are exact as well."),
        WrongPrediction((), "none: RoPE only sees offsets",
                        "RoPE sees the offsets between the turns. With slots as turns they are differences of "
                        "slots, and once the ring has wrapped those are not always the distances between the "
                        "tokens: at step 4 the query is turned by 0 and the keys of positions 1 to 3 by 1 to 3."),
        WrongPrediction((4, 8, 12), "only the steps that land in slot 0",
                        "Steps 5, 6, 9 and 10 are wrong too: at step 5 (slot 1) the key of position 2 is turned "
                        "by 2 and seems to come after the query, turned by 1. Only a token in the last slot sees "
                        "the window in order."),
        WrongPrediction((3, 4, 5, 6, 7, 8, 9, 10, 11, 12), "from the step that fills the last slot",
                        "Step 3 writes slot 3 = position 3: the slots still equal the positions. The first "
                        "wrong step is 4, and steps 7 and 11 are exact."),
    ),
)

CARD = Card("prediction_slot_wrong_steps", "11_modern_attention", prediction=PREDICTION)


def check_prediction_slot_wrong_steps(prediction_slot_wrong_steps, hidden: bool = False) -> None:
    """Check the prediction of the steps a ring that turns by the slot gets wrong."""
    CARD.prediction.check(prediction_slot_wrong_steps, hidden=hidden)
