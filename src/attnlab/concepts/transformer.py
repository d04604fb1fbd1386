"""Concept check of notebook 09 (the Transformer): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "09_transformer"

CONCEPTS = {
    "positions": ("positional encodings", "2. Sinusoidal positional encodings"),
    "blocks": ("the encoder and decoder blocks", "3. The encoder block"),
    "cache": ("decoding with a key-value cache", "6. Decoding with a key-value cache"),
    "race": ("raced against 07's RNN", "5. Parallel training"),
}

QUESTIONS = [
    dict(id="q1", concept="positions",
         stem="For sinusoidal encodings, how does the dot product PE_p · PE_(p+k) depend on the position p?",
         options=[
             ("It is larger for small p", "prediction_offset_dot: positions near the start look more alike"),
             ("It does not: only k matters", None),
             ("It is larger for large p", "prediction_offset_dot: far positions blur together"),
         ]),
    dict(id="q2", concept="positions",
         stem="In the sinusoidal encoding of width D, what do columns 2i and 2i + 1 of position p hold?",
         options=[
             ("cos and sin of p / 10000^(2i/D), in that order", "sinusoidal_positional_encoding: sin and cos swapped (cosine in the even columns, sine in the odd ones)"),
             ("sin and cos of p / 10000^(i/D)", "sinusoidal_positional_encoding: the frequency exponent off by a factor of 2: 10000^(i/D) instead of 10000^(2i/D)"),
             ("sin and cos of p · 10000^(2i/D)", "sinusoidal_positional_encoding: positions multiplied by 10000^(2i/D) instead of divided by it"),
             ("sin and cos of p / 10000^(2i/D)", None),
         ]),
    dict(id="q3", concept="blocks",
         stem="A pre-norm encoder block: what does its attention sublayer compute from X?",
         options=[
             ("LN(X + Attention(X))", "TransformerEncoderLayer: post-norm (LN(X + Sublayer(X))) instead of pre-norm"),
             ("LN(X) + Attention(LN(X))", "TransformerEncoderLayer: the residual added after the norm (X = LN(X) + Sublayer(LN(X))), not around it"),
             ("X + Attention(LN(X))", None),
             ("Attention(LN(X))", "TransformerEncoderLayer: a residual connection missing (X = Sublayer(LN(X)))"),
         ]),
    dict(id="q4", concept="blocks", reread="4. The decoder block",
         stem="In the pre-norm decoder block, where do the cross-attention's keys and values come from?",
         options=[
             ("The decoder's own states", "TransformerDecoderLayer: the cross-attention reading the decoder's own states instead of the encoder's output"),
             ("The encoder's output, normalised once more by the decoder", "TransformerDecoderLayer: the encoder's output normalised again by norm2 before the cross-attention"),
             ("The encoder's output, as it is", None),
         ]),
    dict(id="q5", concept="cache",
         stem="Decoding with a key-value cache: what happens at each step for the one new token?",
         options=[
             ("It attends to the cache, then its key and value are added", "decode_with_cache: the cache appended after the attention: the new token does not attend to itself"),
             ("Its key and value join its layer's cache, then it attends", None),
             ("Its key and value join one cache that all layers read", "decode_with_cache: one cache shared by every layer instead of one per layer: each layer reads the keys and values the other layers stored"),
             ("It gets position 0's encoding, being the only input", "decode_with_cache: positions restarted at 0: every new token gets the positional vector of position 0"),
         ]),
    dict(id="q6", concept="race",
         stem="The Transformer trains on whole target sentences at once, unlike the RNN. What keeps a target token from reading the answer?",
         options=[
             ("Nothing is needed: the targets are given anyway", "TransformerDecoderLayer: the causal mask missing: every target token sees the tokens after it"),
             ("A mask letting each token see itself and the later tokens", "TransformerDecoderLayer: the causal mask transposed (the upper triangle): every token sees only itself and the future"),
             ("A causal mask in the decoder's self-attention", None),
         ]),
]
