"""prediction_causal_tiles (notebook 08): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_causal_tiles", "number", 15,
    "Query tile a (rows 8a to 8a + 7) needs the key tiles b <= a: the tile b = a crosses the "
    "diagonal (masked inside), the tiles b < a lie below it (computed in full), the tiles b > a lie "
    "above it (skipped). That is a + 1 tiles for a = 0, ..., 4: 1 + 2 + 3 + 4 + 5 = 15 of the "
    "5 x 6 = 30 tiles. The sixth column of key tiles (keys 40 to 47) lies entirely above the "
    "diagonal: no query of 0 to 39 may see those keys.",
    wrong=(
        WrongPrediction(30, "every tile is computed and masked",
                        "A tile that lies entirely above the diagonal holds only masked scores: "
                        "tiled attention skips it without reading its keys."),
        WrongPrediction(10, "the tiles on the diagonal are skipped",
                        "A tile on the diagonal holds keys j <= i for some of its queries (query 8a "
                        "sees key 8a): it is computed, with the mask inside it."),
        WrongPrediction(20, "half of the tiles plus the diagonal",
                        "The grid is 5 x 6, not square: the last key tile is above the diagonal for "
                        "every query tile. Count the tiles b <= a row by row."),
    ),
)

CARD = Card("prediction_causal_tiles", "08_efficient_attention", prediction=PREDICTION)


def check_prediction_causal_tiles(prediction_causal_tiles, hidden: bool = False) -> None:
    """Check the prediction of how many 8 x 8 tiles causal tiled attention computes for Lq=40, Lk=48."""
    CARD.prediction.check(prediction_causal_tiles, hidden=hidden)
