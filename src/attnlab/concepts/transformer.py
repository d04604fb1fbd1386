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
             ("It is the same for every p", None),
             ("It is largest near the start", "prediction_offset_dot: positions near the start look more alike"),
             ("It grows as p grows", "prediction_offset_dot: far positions blur together"),
         ]),
    dict(id="q2", concept="positions",
         stem="In the sinusoidal encoding of width D, what do columns 2i and 2i + 1 of position p hold?",
         options=[
             ("sin and cos of p / 10000^(i/D)", "sinusoidal_positional_encoding: the frequency exponent off by a factor of 2: 10000^(i/D) instead of 10000^(2i/D)"),
             ("cos and sin of p / 10000^(2i/D)", "sinusoidal_positional_encoding: sin and cos swapped (cosine in the even columns, sine in the odd ones)"),
             ("sin and cos of p / 10000^(2i/D)", None),
             ("cos and sin of p / 10000^(i/D)", "sinusoidal_positional_encoding: sin and cos swapped (cosine in the even columns, sine in the odd ones)"),
         ]),
    dict(id="q3", concept="blocks",
         stem="A pre-norm encoder block: what does its attention sublayer compute from X?",
         options=[
             ("LN(X + Attention(LN(X)))", "TransformerEncoderLayer: an extra layer norm on the block's output"),
             ("X + Attention(X)", "TransformerEncoderLayer: the layer norms not applied"),
             ("LN(X + Attention(X))", "TransformerEncoderLayer: post-norm (LN(X + Sublayer(X))) instead of pre-norm"),
             ("X + Attention(LN(X))", None),
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
             ("It attends to its layer's cache; then its key and value are added", "decode_with_cache: the cache appended after the attention: the new token does not attend to itself"),
             ("Its key and value are added to its layer's cache; then it attends", None),
             ("Its key and value are added to a cache all layers share; then it attends", "decode_with_cache: one cache shared by every layer instead of one per layer: each layer reads the keys and values the other layers stored"),
             ("It attends to a cache all layers share; then its key and value are added", "decode_with_cache: one cache shared by every layer instead of one per layer: each layer reads the keys and values the other layers stored"),
         ]),
    dict(id="q6", concept="race",
         stem="The Transformer trains on whole target sentences at once, unlike the RNN. Which tokens may a target token see in the decoder's self-attention?",
         options=[
             ("Every target token: the targets are inputs anyway", "TransformerDecoderLayer: the causal mask missing: every target token sees the tokens after it"),
             ("The tokens before it, but not itself", "TransformerDecoderLayer: the causal mask off by one: the diagonal left out (j < i), so a token cannot see itself"),
             ("Itself and the tokens before it", None),
             ("Itself, the tokens before it and the next one", "TransformerDecoderLayer: the causal mask off by one: one future token let in (j <= i + 1)"),
         ]),
]
