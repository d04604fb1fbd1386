"""prediction_mla_cache_bytes (notebook 13): a predict-then-run question."""
from __future__ import annotations

from ..checks._predict import Prediction, WrongPrediction
from ._card import Card

PREDICTION = Prediction(
    "prediction_mla_cache_bytes", "number", 1152,
    "Per layer and token MLA keeps one latent of 512 numbers and one decoupled RoPE key of 64 numbers, "
    "shared by all 128 heads: 576 numbers, 1,152 bytes in bf16. The per-head keys and values are "
    "recomputed from the latent (or absorbed), never cached.",
    wrong=(
        WrongPrediction(65536, "keys and values cached after the up-projection",
                        "That is what the latent replaces: 2 · 128 heads · 128 numbers · 2 bytes is the "
                        "cache of plain multi-head attention. MLA caches the latent before the up-projection."),
        WrongPrediction(1024, "the decoupled RoPE key left out",
                        "The RoPE key cannot be absorbed, so it is cached beside the latent: 64 more numbers."),
        WrongPrediction(576, "numbers, not bytes",
                        "576 is the count of numbers; bf16 takes 2 bytes each."),
        WrongPrediction(2176, "the latent cached twice, once for keys and once for values",
                        "One latent serves both: W_uk and W_uv read the same cached vector."),
        WrongPrediction(17408, "a RoPE key per head",
                        "The decoupled RoPE key is one vector shared by every head, not one per head."),
    ),
)

CARD = Card("prediction_mla_cache_bytes", "13_attention_variants", prediction=PREDICTION)


def check_prediction_mla_cache_bytes(prediction_mla_cache_bytes, hidden: bool = False) -> None:
    """Check the prediction of MLA's cache per layer and token, in bytes."""
    CARD.prediction.check(prediction_mla_cache_bytes, hidden=hidden)
