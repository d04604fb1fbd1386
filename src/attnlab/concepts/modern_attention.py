"""Concept check of notebook 11 (modern attention): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "11_modern_attention"

CONCEPTS = {
    "rope": ("RoPE", "1. Rotary position embeddings (RoPE)"),
    "kv-cache": ("the KV cache's memory", "2. The KV cache: decoding is a memory bill"),
    "gqa": ("grouped-query and multi-query attention", "3. Multi-query and grouped-query attention"),
    "window": ("sliding windows", "4. Sliding windows: a cache that stops growing"),
}

QUESTIONS = [
    dict(id="q1", concept="rope",
         stem="With RoPE, every token of a sequence is moved 5 positions later. What happens to the scores q_i · k_j?",
         options=[
             ("Every score changes", "prediction_shifted_scores: new positions give new rotations, so new scores"),
             ("Only each token's score with itself stays", "prediction_shifted_scores: a token against itself has offset 0"),
             ("Every score stays the same", None),
         ]),
    dict(id="q2", concept="rope",
         stem="RoPE turns pair k of a head of width Dh by the angle p·θ_k at position p. What is θ_k?",
         options=[
             ("base^(+k/Dh)", "rope: frequencies growing with k (base^(+2k/Dh)) instead of shrinking"),
             ("base^(−k/Dh)", "rope: frequencies base^(-k/Dh) instead of base^(-2k/Dh)"),
             ("base^(+2k/Dh)", "rope: frequencies growing with k (base^(+2k/Dh)) instead of shrinking"),
             ("base^(−2k/Dh)", None),
         ]),
    dict(id="q3", concept="kv-cache",
         stem="A layer has 32 query heads and 8 key/value heads of width 128, cached in bfloat16. How many bytes does its cache hold per token?",
         options=[
             ("2048", "kv_cache_bytes: K and V counted once (no factor 2)"),
             ("4096", None),
             ("16 384", "prediction_gqa_cache_gb: the cache follows the query heads"),
             ("32 768", "kv_cache_bytes: bits for bytes (8 times too many)"),
         ]),
    dict(id="q4", concept="gqa",
         stem="Grouped-query attention with 32 query heads and 8 key/value heads: which key/value head does query head h use, and how?",
         options=[
             ("Head h // 4, read where it is stored", None),
             ("Head h % 8", "grouped_query_attention: query heads grouped in tile order (h % Hkv where h // n_rep is right)"),
             ("Head h // 4, copied once for every query head", "grouped_query_attention: a copy of the cache per query head (repeat_kv, then ordinary attention)"),
         ]),
    dict(id="q5", concept="window",
         stem="A causal sliding window of size W: which keys j may query i attend to?",
         options=[
             ("i − W ≤ j < i", "sliding_window_mask: the token does not see itself (`0 < (i + offset) - j`)"),
             ("i − W < j ≤ i", None),
             ("i − W < j < i", "sliding_window_mask: the token does not see itself (`0 < (i + offset) - j`)"),
             ("i − W ≤ j ≤ i", "sliding_window_mask: a window off by one: the token sees itself and `window` tokens before it"),
         ]),
]
