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
         stem="A feature map of shape (C, H, W) becomes a sequence of tokens. What shape, and where is pixel (i, j)?",
         options=[
             ("(C, H·W), pixel (i, j) at column i·W + j", "image_to_tokens: positions merged but the channel axis not moved: shape (..., C, H*W)"),
             ("(H·W, C), pixel (i, j) at row j·H + i", "image_to_tokens: column-major positions (token j*H + i instead of i*W + j)"),
             ("(C, H·W), pixel (i, j) at column j·H + i", "image_to_tokens: positions merged but the channel axis not moved: shape (..., C, H*W)"),
             ("(H·W, C), pixel (i, j) at row i·W + j", None),
         ]),
    dict(id="q2", concept="positions",
         stem="The course's 2-D positional encoding of width D gives pixel (i, j) which vector?",
         options=[
             ("A 1-D encoding of the pixel's place in the flattened image", "positional_encoding_2d: a 1-D encoding of the flat index p = i*W + j instead of a 2-D one"),
             ("A 1-D encoding of i in one half, of j in the other", None),
             ("A 1-D encoding of i in one half, of i in the other", "positional_encoding_2d: the 2-D encoding uses one axis twice (the row index in both halves)"),
             ("1-D encodings of i and j, their features interleaved", "positional_encoding_2d: the row and column features interleaved instead of in two halves"),
         ]),
    dict(id="q3", concept="cnn",
         stem="Three stacked 3 x 3 convolutions (stride 1): how many input pixels can one output pixel depend on?",
         options=[
             ("9, a 3 x 3 square", "prediction_receptive_field: one 3 x 3 view"),
             ("27, three 3 x 3 squares", "prediction_receptive_field: the two 3 x 3 views added"),
             ("49, a 7 x 7 square", None),
             ("729, 9 x 9 x 9 pixels", "prediction_receptive_field: the two 3 x 3 views multiplied"),
             ("Every pixel of the input", "prediction_receptive_field: every pixel, as for attention"),
         ]),
    dict(id="q4", concept="tokens", reread="3. Spatial self-attention",
         stem="Spatial self-attention with no positional encoding; the input's pixels are shuffled. What happens to the output?",
         options=[
             ("The same outputs, moved as the pixels were", None),
             ("The same outputs, in the same places as before", "prediction_shuffled_output: a weighted average over all pixels does not care about order"),
             ("New outputs: each pixel now attends differently", "prediction_shuffled_output: moving pixels changes which pixels attend to which"),
         ]),
    dict(id="q5", concept="channels",
         stem="Squeeze-and-excitation channel attention: what is the squeeze, and what gates the channels?",
         options=[
             ("The max over the positions; a softmax across channels", "ChannelAttention: a max over the positions instead of the mean (global max pooling)"),
             ("The mean over the positions; a sigmoid per channel", None),
             ("The max over the positions; a sigmoid per channel", "ChannelAttention: a max over the positions instead of the mean (global max pooling)"),
             ("The mean over the positions; a softmax across channels", "ChannelAttention: a softmax over the channels instead of a sigmoid"),
         ]),
    dict(id="q6", concept="patches",
         stem="A (3, 32, 32) image is cut into patches with P = 4. What are the tokens?",
         options=[
             ("64 tokens of 48 values: rows of a plain reshape of the array", "patchify: patches cut by a plain reshape (each token mixes channels and rows of the image)"),
             ("64 tokens of 48 values: 4 x 4 squares, numbered column by column", "patchify: patches cut across the wrong axes: the patch grid numbered column by column"),
             ("64 tokens of 48 values: 4 x 4 squares, numbered row by row", None),
             ("8 tokens of 384 values: strips of 4 whole rows", "patchify: strips of P whole rows instead of P x P squares"),
         ]),
]
