"""Concept check of notebook 04 (masks and cross-attention): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "04_masks_and_cross_attention"

CONCEPTS = {
    "masks": ("causal and padding masks", "2. The causal mask: no peeking at the future"),
    "empty-rows": ("fully masked rows", "4. The masked softmax, and a row with nothing to attend to"),
    "cross": ("cross-attention with Lq != Lk", "7. Cross-attention: queries from one sequence, keys and values from another"),
}

QUESTIONS = [
    dict(id="q1", concept="masks",
         stem="With True meaning 'may attend', which entries (i the query, j the key) of a causal mask with Lq = Lk are True?",
         options=[
             ("Those with j < i", "causal_mask: a strict mask j < i: each query may not see its own position (the diagonal is masked)"),
             ("Those with j ≥ i", "causal_mask: the transposed mask (the upper triangle: each query sees the future, not the past)"),
             ("Those with j ≤ i", None),
             ("Those with j > i", "causal_mask: the opposite convention, True = blocked (as nn.MultiheadAttention's attn_mask)"),
         ]),
    dict(id="q2", concept="masks", reread="3. The padding mask: ignore the filler",
         stem="Two sentences of 3 and 5 words are padded to Lk = 6 keys. Which padding mask is right (True: may attend)?",
         options=[
             ("Shape (2, 5); True where j ≤ length of b", "padding_mask: a mask as wide as the longest sequence, max(lengths), instead of Lk"),
             ("Shape (2, 6); True where j ≤ length of b", "padding_mask: j <= lengths[b]: one padding position too many is allowed"),
             ("Shape (2, 5); True where j < length of b", "padding_mask: a mask as wide as the longest sequence, max(lengths), instead of Lk"),
             ("Shape (2, 6); True where j < length of b", None),
         ]),
    dict(id="q3", concept="empty-rows",
         stem="A query may attend to no key at all. What should a masked softmax return for its row?",
         options=[
             ("NaN everywhere: there is nothing to average", "masked_softmax: filling masked scores with -inf: a fully masked row becomes 0/0 = NaN"),
             ("Equal weights 1/Lk on every key", "masked_softmax: filling masked scores with a big negative number (-1e9): a fully masked row gets uniform weights instead of zeros"),
             ("The softmax of its raw scores", "masked_softmax: an additive mask (`scores + (1 - mask) * -1e9`): a fully masked row gets the softmax of its raw scores instead of zeros"),
             ("Zeros", None),
         ]),
    dict(id="q4", concept="empty-rows",
         stem="How should a masked softmax keep a query from attending to one key?",
         options=[
             ("Set that key's score to 0 before the softmax", "masked_softmax: setting masked scores to 0 instead of -inf (a score of 0 still gets weight e^0)"),
             ("Leave the key out of the softmax's sum", None),
             ("Zero that key's weight after the softmax, keeping the other weights", "masked_softmax: the mask applied after the softmax, without renormalising (rows no longer sum to 1)"),
         ]),
    dict(id="q5", concept="masks", reread="6. Careful: `nn.MultiheadAttention` uses the opposite convention",
         stem="A padding mask with True on the real tokens is passed as attn_mask to torch.nn.MultiheadAttention. Which keys does a query attend to?",
         options=[
             ("The real tokens", "prediction_unflipped_keys: the keys our mask allows"),
             ("The padded positions", None),
             ("No key at all", "prediction_unflipped_keys: everything is blocked"),
         ]),
    dict(id="q6", concept="cross",
         stem="Cross-attention from a target sentence T (3 tokens) to a source sentence S (5 tokens): where do queries, keys and values come from?",
         options=[
             ("Queries from T; keys and values from S", None),
             ("Queries, keys and values from S", "cross_attention: queries projected from X_kv instead of X_q"),
             ("Queries from S; keys and values from T", "cross_attention: queries projected from X_kv instead of X_q"),
             ("Queries, keys and values from T", "cross_attention: keys and values taken from X_q (self-attention, X_kv unused)"),
         ]),
    dict(id="q7", concept="cross",
         stem="In that cross-attention, T has width 9, S width 6, the keys width 2 and the values width 7. By what are the scores divided?",
         options=[
             ("√9", "cross_attention: scaling by √Dq (the width of X_q) instead of √Dk"),
             ("√2", None),
             ("√7", "cross_attention: scaling by √Dv instead of √Dk"),
             ("2", "cross_attention: scaling by Dk instead of √Dk"),
         ]),
]
