"""Concept check of notebook 10 (attention on images): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "10_attention_on_images"

CONCEPTS = {
    "tokens": ("a feature map as tokens", "1. A feature map is a set of tokens"),
    "positions": ("2-D positions", "2. Where is a pixel? Positions in two dimensions"),
    "cnn": ("attention against a CNN", "4. Receptive fields: what an output can see"),
    "channels": ("channel attention", "6. Channel attention: weights over channels"),
    "patches": ("patches", "7. The cost: (H·W)², and patches"),
}

QUESTIONS = [
    dict(id="q1", concept="tokens",
         stem="A feature map of shape (C, H, W) becomes a sequence of tokens. What shape, and which token is pixel (i, j)?",
         options=[
             ("(C, H·W); one token per channel", "image_to_tokens: positions merged but the channel axis not moved: shape (..., C, H*W)"),
             ("(H·W, C); token j·H + i", "image_to_tokens: column-major positions (token j*H + i instead of i*W + j)"),
             ("(H·W, C); token i·W + j", None),
             ("(H·W, C) by reshaping the (C, H, W) array as it is", "image_to_tokens: channels and positions swapped: a reshape to (H*W, C) without moving the channel axis"),
         ]),
    dict(id="q2", concept="positions",
         stem="The course's 2-D positional encoding of width D gives pixel (i, j) which vector?",
         options=[
             ("A 1-D encoding of i beside a 1-D encoding of j, D/2 each", None),
             ("A 1-D encoding of the flat index i·W + j", "positional_encoding_2d: a 1-D encoding of the flat index p = i*W + j instead of a 2-D one"),
             ("A 1-D encoding of i in both halves", "positional_encoding_2d: the 2-D encoding uses one axis twice (the row index in both halves)"),
             ("The features of i and j alternating one by one", "positional_encoding_2d: the row and column features interleaved instead of in two halves"),
         ]),
    dict(id="q3", concept="cnn",
         stem="Three stacked 3 x 3 convolutions (stride 1): how many input pixels can one output pixel depend on?",
         options=[
             ("9", "prediction_receptive_field: one 3 x 3 view"),
             ("27", "prediction_receptive_field: the two 3 x 3 views added"),
             ("49", None),
             ("729", "prediction_receptive_field: the two 3 x 3 views multiplied"),
         ]),
    dict(id="q4", concept="tokens", reread="3. Spatial self-attention",
         stem="Spatial self-attention with no positional encoding; the input's pixels are shuffled. What happens to the output?",
         options=[
             ("Shuffled the same way", None),
             ("Identical: it averages over every pixel anyway", "prediction_shuffled_output: a weighted average over all pixels does not care about order"),
             ("Changed completely", "prediction_shuffled_output: moving pixels changes which pixels attend to which"),
         ]),
    dict(id="q5", concept="channels",
         stem="Squeeze-and-excitation channel attention: what is the squeeze, and what gates the channels?",
         options=[
             ("The mean over the channels; a sigmoid", "ChannelAttention: the squeeze taken over the channels instead of over the positions"),
             ("The mean over the positions; a softmax across channels", "ChannelAttention: a softmax over the channels instead of a sigmoid"),
             ("The max over the positions; a sigmoid", "ChannelAttention: a max over the positions instead of the mean (global max pooling)"),
             ("The mean over the positions; a sigmoid", None),
         ]),
    dict(id="q6", concept="patches",
         stem="A (3, 32, 32) image is cut into patches with P = 4. What are the tokens?",
         options=[
             ("64 tokens of 48 values, each a 4 x 4 square", None),
             ("64 rows of a plain reshape to (64, 48)", "patchify: patches cut by a plain reshape (each token mixes channels and rows of the image)"),
             ("8 tokens, each 4 whole rows of the image", "patchify: strips of P whole rows instead of P x P squares"),
         ]),
]
