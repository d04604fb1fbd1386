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
             ("1, 1/2, …, 1/128", "alibi_slopes: the head index counted from 0 (the first slope is 1)"),
             ("1/2, 1/4, …, 1/256", None),
             ("1/128, …, 1/2, 1", "alibi_slopes: the slopes in the wrong order (the smallest first)"),
             ("1/256, …, 1/4, 1/2", "alibi_slopes: the slopes in the wrong order (the smallest first)"),
         ]),
    dict(id="q3", concept="mods", reread="3. Mask mods: causal, windows, documents, prefixes",
         stem="Packed documents with ids [0, 0, 1, 1, 1] and a causal document mask: which keys may token 3 attend to?",
         options=[
             ("Keys 1, 2 and 3", "document_mask: document boundaries shifted by one: each document's first token sees the end of the previous one"),
             ("Keys 0, 1 and 4", "document_mask: the opposite convention, True = blocked"),
             ("Keys 2 and 3", None),
             ("Keys 2, 3 and 4", "document_mask: not causal inside a document (every token of the document visible)"),
         ]),
    dict(id="q4", concept="mods", reread="3. Mask mods: causal, windows, documents, prefixes",
         stem="A prefix-LM mask over a prompt (the prefix) and its continuation: which description is right?",
         options=[
             ("Prefix and continuation tokens see only themselves and earlier tokens", "prediction_prefix_lm_count: the prefix causal inside (a plain causal mask)"),
             ("Prefix and continuation tokens see every token, later ones too", "prediction_prefix_lm_count: the suffix sees the future (everything visible)"),
             ("Prefix tokens see the whole prefix; the others, only the continuation", "prediction_prefix_lm_count: the suffix cut off from the prefix"),
             ("Prefix tokens see the whole prefix; the others, all earlier tokens", None),
         ]),
    dict(id="q5", concept="sinks",
         stem="A long sequence keeps a cache of n_sinks sink tokens and a recent window of size W. Which keys does the newest query see?",
         options=[
             ("The first n_sinks, then the last W + 1, itself among them", "sink_window_keys: a window off by one (window + 1 recent keys)"),
             ("The first n_sinks, then the last W, itself among them", None),
             ("The first n_sinks, then the W before it, itself left out", "sink_window_keys: the newest token left out of the window"),
         ]),
    dict(id="q6", concept="latent",
         stem="What does multi-head latent attention cache for each token?",
         options=[
             ("Each head's keys and values, rebuilt from the latent", "prediction_mla_cache_bytes: keys and values cached after the up-projection"),
             ("One latent vector, shared by keys and values", "prediction_mla_cache_bytes: the decoupled RoPE key left out"),
             ("Two latent vectors, one for keys and one for values", "prediction_mla_cache_bytes: the latent cached twice, once for keys and once for values"),
             ("One latent vector and one shared RoPE key", None),
         ]),
    dict(id="q7", concept="topk",
         stem="Top-k attention lets each query attend to its k best-scoring keys. What are their weights?",
         options=[
             ("The full softmax's weights, the other keys' zeroed", "topk_attention: the full softmax with the other weights zeroed (not renormalised)"),
             ("A softmax over the k best scores of each key's column", "topk_attention: keys ranked over the wrong axis (the top k of each column, over the queries)"),
             ("A softmax over those k keys' scores alone", None),
         ]),
]
