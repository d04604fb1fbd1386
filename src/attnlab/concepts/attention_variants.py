"""Concept check of notebook 13 (attention variants): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "13_attention_variants"

CONCEPTS = {
    "mods": ("score and mask mods: ALiBi, soft-capping, document and prefix-LM masks",
             "1. One function: dense attention with a score mod and a mask mod"),
    "sinks": ("attention sinks", "4. Attention sinks: keep the first tokens"),
    "latent": ("latent attention", "5. Multi-head latent attention: cache a latent, not keys and values"),
    "topk": ("top-k", "6. Top-k attention: keep each query's best keys"),
}

QUESTIONS = [
    dict(id="q1", concept="mods",
         stem="Dense attention with a mask mod: what happens to a (query, key) pair the mask mod blocks?",
         options=[
             ("Its weight is zeroed after the softmax", "attention_with_mods: the mask applied after the softmax (weights zeroed, not renormalised)"),
             ("Its score is set to −1e9", "attention_with_mods: a fully masked row gets uniform weights (-1e9 instead of excluding the keys)"),
             ("It is left out of the softmax", None),
         ]),
    dict(id="q2", concept="mods", reread="2. Score mods: ALiBi, soft-capping, relative-position biases",
         stem="Which are the ALiBi slopes of 8 heads, head 1 first?",
         options=[
             ("1, 1/2, 1/4, …, 1/128", "alibi_slopes: the head index counted from 0 (the first slope is 1)"),
             ("2^(−1/8), 2^(−2/8), …, 2^(−1)", "alibi_slopes: the 8 left out of the exponent (2^(-h/H))"),
             ("1/256, 1/128, …, 1/2", "alibi_slopes: the slopes in the wrong order (the smallest first)"),
             ("1/2, 1/4, …, 1/256", None),
         ]),
    dict(id="q3", concept="mods", reread="3. Mask mods: causal, windows, documents, prefixes",
         stem="Packed documents with ids [0, 0, 1, 1, 1] and a causal document mask: which keys may token 2 attend to?",
         options=[
             ("Keys 1 and 2", "document_mask: document boundaries shifted by one: each document's first token sees the end of the previous one"),
             ("Key 2", None),
             ("Keys 0, 1 and 2", "document_mask: the documents ignored (a plain causal mask)"),
             ("Keys 2, 3 and 4", "document_mask: not causal inside a document (every token of the document visible)"),
         ]),
    dict(id="q4", concept="mods", reread="3. Mask mods: causal, windows, documents, prefixes",
         stem="A prefix-LM mask over a prompt (the prefix) and its continuation: which description is right?",
         options=[
             ("Every token sees only itself and earlier tokens", "prediction_prefix_lm_count: the prefix causal inside (a plain causal mask)"),
             ("Continuation tokens see every token, later ones too", "prediction_prefix_lm_count: the suffix sees the future (everything visible)"),
             ("Prefix tokens see the whole prefix; the rest is causal", None),
             ("Continuation tokens see only the continuation", "prediction_prefix_lm_count: the suffix cut off from the prefix"),
         ]),
    dict(id="q5", concept="sinks",
         stem="A long sequence keeps a cache of n_sinks sink tokens and a recent window of size W. Which keys does the newest query see?",
         options=[
             ("The first n_sinks and the last W + 1", "sink_window_keys: a window off by one (window + 1 recent keys)"),
             ("The first n_sinks and the last W, itself included", None),
             ("The first n_sinks and the W before itself", "sink_window_keys: the newest token left out of the window"),
         ]),
    dict(id="q6", concept="latent",
         stem="What does multi-head latent attention cache for each token?",
         options=[
             ("Every head's keys and values, rebuilt from the latent", "prediction_mla_cache_bytes: keys and values cached after the up-projection"),
             ("The latent vector and nothing else", "prediction_mla_cache_bytes: the decoupled RoPE key left out"),
             ("The latent, twice: once for keys, once for values", "prediction_mla_cache_bytes: the latent cached twice, once for keys and once for values"),
             ("One latent and one small shared RoPE key", None),
         ]),
    dict(id="q7", concept="topk",
         stem="Top-k attention keeps each query's k best keys. What are their weights?",
         options=[
             ("A softmax over the k kept scores", None),
             ("The full softmax's weights, the others set to zero", "topk_attention: the full softmax with the other weights zeroed (not renormalised)"),
             ("A softmax over the k best queries of each key", "topk_attention: keys ranked over the wrong axis (the top k of each column, over the queries)"),
         ]),
]
