"""Concept check of notebook 02 (queries, keys and values): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "02_query_key_value"

CONCEPTS = {
    "lookup": ("soft dictionary lookup", "1. A dictionary lookup, hard and soft"),
    "scores": ("score functions", "2. Score functions, side by side"),
    "scaling": ("why divide by √d_k", "3. Why divide by √d_k?"),
    "matrix": ("the matrix form", "4. All queries at once: scaled dot-product attention"),
}

QUESTIONS = [
    dict(id="q1", concept="lookup",
         stem="A query lies between two keys of a dictionary, as close to one as to the other. What does a soft lookup return?",
         options=[
             ("An even mix of the two keys' values", None),
             ("The value of the key that matches slightly better", "attend: a hard lookup (one-hot weights at the best key)"),
             ("An even mix of the two keys themselves", "attend: averaging the keys instead of the values"),
             ("The two values, each scaled by its raw score", "attend: no softmax: the raw scores used as weights"),
         ]),
    dict(id="q2", concept="scores",
         stem="With the plain dot product as the score function, which key scores highest against a query q?",
         options=[
             ("The key with the largest cosine similarity to q", "prediction_dot_winner: the best-aligned key wins"),
             ("The key with the largest |q·k|, whatever its sign", "prediction_dot_winner: the score largest in size wins, whatever its sign"),
             ("The key with the largest projection onto q", None),
         ]),
    dict(id="q3", concept="scaling",
         stem="q and k each hold d_k independent standard-normal numbers. What is the variance of q·k?",
         options=[
             ("√d_k", "prediction_score_variance: the standard deviation √d_k instead of the variance d_k"),
             ("1", "prediction_score_variance: standard-normal entries give a standard-normal score"),
             ("d_k", None),
             ("0", "prediction_score_variance: independent vectors are orthogonal, so q·k = 0"),
         ]),
    dict(id="q4", concept="scaling",
         stem="Scaled dot-product attention divides the scores by a constant before the softmax. Which constant, and why?",
         options=[
             ("d_k: it keeps the scores small enough for the softmax", "attend: scaling by Dk instead of √Dk"),
             ("√d_v: it gives the output the scale of one value", "attend: scaling by √Dv (the value width) instead of √Dk"),
             ("√Lk: it offsets the weights spreading over Lk keys", "attend: scaling by √Lk (the number of keys) instead of √Dk"),
             ("√d_k: it makes the scores' scale independent of d_k", None),
         ]),
    dict(id="q5", concept="matrix",
         stem="Q has shape (3, 5, 8), K (3, 7, 8) and V (3, 7, 2). What is the shape of the attention weights?",
         options=[
             ("(3, 5, 2)", "prediction_weights_shape: the shape of the output"),
             ("(3, 5, 7)", None),
             ("(3, 7, 5)", "prediction_weights_shape: keys down the rows"),
             ("(3, 5, 8)", "prediction_weights_shape: the width of the queries"),
         ]),
    dict(id="q6", concept="matrix",
         stem="In softmax(Q Kᵀ / √d_k) V for a batch, over which axis of the scores is the softmax taken?",
         options=[
             ("The query axis: each key's weights sum to one", "scaled_dot_product_attention: a softmax over the queries (axis -2) instead of over the keys"),
             ("The first axis, the batch", "scaled_dot_product_attention: a softmax over axis 0 (the batch axis when there is a batch)"),
             ("The last axis, the keys", None),
         ]),
]
