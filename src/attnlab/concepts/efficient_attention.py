"""Concept check of notebook 08 (efficient attention): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "08_efficient_attention"

CONCEPTS = {
    "memory": ("why naive attention needs Lq x Lk memory", "1. Where the memory goes"),
    "online": ("the online softmax", "2. The online softmax"),
    "tiles": ("attention tile by tile, forward and backward", "4. Tiled attention: the FlashAttention idea"),
}

QUESTIONS = [
    dict(id="q1", concept="memory",
         stem="Naive attention over 32 768 tokens, one head of width 64, in float32: how much memory do the scores take?",
         options=[
             ("1 GiB", "prediction_score_memory_gib: numbers counted, not bytes"),
             ("4 GiB", None),
             ("8 GiB", "prediction_score_memory_gib: 8 bytes per number"),
             ("8 MiB", "prediction_score_memory_gib: L x d instead of L x L"),
         ]),
    dict(id="q2", concept="online",
         stem="Two parts of a row have statistics (m_a, l_a) and (m_b, l_b): a max, and the sum of exp(s − max). With m = max(m_a, m_b), what is the merged sum?",
         options=[
             ("l_a + l_b", "merge_softmax_stats: adding the two parts without rescaling them to a common max"),
             ("l_a e^(m − m_a) + l_b e^(m − m_b)", "merge_softmax_stats: rescaling with exp(m - m_a) instead of exp(m_a - m)"),
             ("l_a e^(m_a − m) + l_b e^(m_b − m)", None),
             ("l_a + l_b e^(m_b − m_a), the max kept at m_a", "merge_softmax_stats: keeping m_a as the max instead of max(m_a, m_b)"),
         ]),
    dict(id="q3", concept="online",
         stem="A new tile of keys raises a query's running max from m to m'. What happens to the running sum l and the accumulator acc?",
         options=[
             ("Both are multiplied by e^(m − m')", None),
             ("l is rescaled; acc is kept as it is", "online_softmax_update: not rescaling the accumulator when the max changes"),
             ("Neither changes: only the new tile's terms use m'", "online_softmax_update: not rescaling l or acc when the max changes"),
             ("Both are multiplied by e^(m' − m)", "online_softmax_update: rescaling with exp(m' - m) instead of exp(m - m')"),
         ]),
    dict(id="q4", concept="tiles",
         stem="Causal tiled attention with 7 tiles of queries and 7 tiles of keys (equal lengths): how many tiles are computed?",
         options=[
             ("49", "prediction_causal_tiles: every tile is computed and masked"),
             ("21", "prediction_causal_tiles: the tiles on the diagonal are skipped"),
             ("28", None),
         ]),
    dict(id="q5", concept="tiles", reread="5. The weights, recomputed from the log-sum-exp",
         stem="How does the tiled backward pass get the attention weights of one tile?",
         options=[
             ("It reads them from the full weight matrix the forward pass kept", "tiled_attention_backward: materialising the full (Lq, Lk) weights in the backward pass (no tiling)"),
             ("It recomputes them from the scores and each query's log-sum-exp", None),
             ("It recomputes them with a softmax over the tile's own keys", "weights_from_logsumexp: a softmax over the given keys (it ignores logsumexp)"),
         ]),
    dict(id="q6", concept="tiles", reread="7. The backward pass, tile by tile",
         stem="Summed over all keys, what does the gradient of the loss with respect to the keys, dK, equal?",
         options=[
             ("The sum of dQ", "prediction_dk_sum: queries and keys play the same part"),
             ("Zero", None),
             ("It depends on the inputs", "prediction_dk_sum: the gradient of each key is its own"),
         ]),
]
