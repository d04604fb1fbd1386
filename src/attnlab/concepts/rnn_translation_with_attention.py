"""Concept check of notebook 07 (RNN translation with attention): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "07_rnn_translation_with_attention"

CONCEPTS = {
    "encoder-decoder": ("a GRU encoder-decoder on a generated toy language", "4. The decoder step"),
    "bahdanau-luong": ("Bahdanau and Luong attention", "3. Attention: a fresh context for every target word"),
    "alignment": ("alignment heatmaps", "6. Does attention look at the right word?"),
}

QUESTIONS = [
    dict(id="q1", concept="bahdanau-luong",
         stem="Which is Bahdanau's additive score of a decoder query q against an encoder key k?",
         options=[
             ("Σ_units (W_q q + W_k k)", "AdditiveAttention: v missing: the hidden units summed instead of weighted by v"),
             ("vᵀ tanh(W_q q + W_k k)", None),
             ("Σ_units tanh(W_q q + W_k k)", "AdditiveAttention: v missing: the hidden units summed instead of weighted by v"),
             ("vᵀ (W_q q + W_k k)", "AdditiveAttention: tanh missing: vᵀ(W_q q + W_k k) instead of vᵀ tanh(W_q q + W_k k)"),
         ]),
    dict(id="q2", concept="bahdanau-luong",
         stem="Luong's 'general' score is qᵀ W k. How is it used before the softmax?",
         options=[
             ("As it is, unscaled", None),
             ("Divided by √d_k, as in the Transformer", "MultiplicativeAttention: scores scaled by √Dk (Luong's scores are not scaled)"),
             ("Replaced by qᵀk: W only changes the speed", "MultiplicativeAttention: kind='general' computed as a plain dot product (W unused)"),
         ]),
    dict(id="q3", concept="bahdanau-luong",
         stem="With attention, what context vector does the decoder get at each target word?",
         options=[
             ("A weighted mean of the projected keys W_k k", "AdditiveAttention: the context averages the projected keys W_k k instead of the keys"),
             ("A plain mean of the encoder outputs", "AttentionDecoder: the context is the plain average of the encoder outputs (no attention)"),
             ("A plain mean of the projected keys W_k k", "AdditiveAttention: the context averages the projected keys W_k k instead of the keys"),
             ("A weighted mean of the encoder outputs", None),
         ]),
    dict(id="q4", concept="encoder-decoder",
         stem="In the course's decoder step, which decoder state queries the attention?",
         options=[
             ("The state before the step, s_(t−1)", "AttentionDecoder: the decoder querying with the wrong state: the previous state s_{t-1} instead of the new state s_t"),
             ("The state after the GRU has read the previous word, s_t", None),
             ("The mean of the encoder outputs, as no state is needed", "AttentionDecoder: the context is the plain average of the encoder outputs (no attention)"),
         ]),
    dict(id="q5", concept="encoder-decoder", reread="5. Greedy decoding",
         stem="Greedy decoding runs on a batch of sentences, with a step limit. When should the loop stop?",
         options=[
             ("When the first sentence has produced <eos>", "greedy_decode: stopping as soon as one sentence ends, instead of when all have ended"),
             ("When the step limit is reached, never sooner", "greedy_decode: not stopping once every sentence has produced <eos> (always max_len steps)"),
             ("When the last sentence has produced <eos>", None),
         ]),
    dict(id="q6", concept="alignment",
         stem="What do the attention heatmaps of a trained RNN translator show about the words it attends to?",
         options=[
             ("The peaks follow the gold alignment, bar a few words", None),
             ("The peaks follow the gold alignment at every word", "prediction_clitic_peak: attention follows the gold alignment"),
             ("The peaks follow the gold alignment, one word behind it", "prediction_clitic_peak: attention lags one step behind"),
         ]),
    dict(id="q7", concept="alignment",
         stem="Alignment accuracy over a batch: how are target tokens aligned to no source word (gold = −1) counted?",
         options=[
             ("As misses: they stay in the denominator", "alignment_accuracy: unaligned tokens (gold = -1) counted in the denominator"),
             ("Not at all", None),
             ("Against the last source word, index −1", "alignment_accuracy: gold = -1 used as an index: it picks the last source word, so unaligned tokens count as hits"),
         ]),
]
