"""prediction_prefix_lm_count (notebook 13): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_prefix_lm_count", "number", 24,
    "Every one of the 6 queries sees the 3 prefix keys: 18 entries. The suffix keys 3, 4, 5 are seen "
    "causally, by the queries at or after them: 1 + 2 + 3 = 6 more. 24 in all (a causal mask has 21, "
    "a bidirectional one 36).",
    wrong=(
        WrongPrediction(21, "the prefix causal inside (a plain causal mask)",
                        "Inside the prefix attention is bidirectional: token 0 sees tokens 1 and 2 too."),
        WrongPrediction(36, "the suffix sees the future (everything visible)",
                        "After the prefix a token sees only itself and the tokens before it."),
        WrongPrediction(27, "a prefix one token too long (k <= prefix_len)",
                        "The prefix is tokens 0 .. prefix_len - 1: k < prefix_len."),
        WrongPrediction(22, "a prefix one token too short",
                        "The prefix holds prefix_len tokens, 0 .. prefix_len - 1."),
        WrongPrediction(15, "the suffix cut off from the prefix",
                        "The suffix is generated from the prefix: every suffix token sees the whole prefix."),
    ),
)

CARD = Card("prediction_prefix_lm_count", "13_attention_variants", prediction=PREDICTION)


def check_prediction_prefix_lm_count(prediction_prefix_lm_count, hidden: bool = False) -> None:
    """Check the prediction of the number of allowed entries of a prefix-LM mask, L = 6, prefix_len = 3."""
    CARD.prediction.check(prediction_prefix_lm_count, hidden=hidden)
