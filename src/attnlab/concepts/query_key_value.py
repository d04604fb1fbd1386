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
         stem="A query falls between two keys of a dictionary, matching both about as well. What does a soft lookup return?",
         options=[
             ("The value of whichever key matches best", "attend: a hard lookup (one-hot weights at the best key)"),
             ("A blend of the two keys", "attend: averaging the keys instead of the values"),
             ("A mix of the values, about half each", None),
             ("The values scaled by their raw match scores", "attend: no softmax: the raw scores used as weights"),
         ]),
    dict(id="q2", concept="scores",
         stem="With the plain dot product as the score function, which key scores highest against a query q?",
         options=[
             ("The key closest to q in direction", "prediction_dot_winner: the best-aligned key wins"),
             ("The key with the largest q·k, its length counting too", None),
             ("The key whose score is largest in absolute value", "prediction_dot_winner: the score largest in size wins, whatever its sign"),
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
         stem="Scaled dot-product attention divides the scores by √d_k. What is the right reason for that divisor?",
         options=[
             ("It brings the scores' variance back to about 1", None),
             ("Dividing by d_k itself is needed to keep the softmax from saturating", "attend: scaling by Dk instead of √Dk"),
             ("It should be the value width, since the output has d_v entries", "attend: scaling by √Dv (the value width) instead of √Dk"),
             ("It should be √(number of keys), since the weights spread over them", "attend: scaling by √Lk (the number of keys) instead of √Dk"),
         ]),
    dict(id="q5", concept="matrix",
         stem="Q has shape (3, 5, 8), K (3, 7, 8) and V (3, 7, 2). What is the shape of the attention weights?",
         options=[
             ("(3, 5, 2)", "prediction_weights_shape: the shape of the output"),
             ("(3, 7, 5)", "prediction_weights_shape: keys down the rows"),
             ("(5, 7)", "prediction_weights_shape: no batch axis"),
             ("(3, 5, 7)", None),
         ]),
    dict(id="q6", concept="matrix",
         stem="In softmax(Q Kᵀ / √d_k) V for a batch, over which axis of the scores is the softmax taken?",
         options=[
             ("The query axis: each key's weights sum to one", "scaled_dot_product_attention: a softmax over the queries (axis -2) instead of over the keys"),
             ("The first axis, the batch", "scaled_dot_product_attention: a softmax over axis 0 (the batch axis when there is a batch)"),
             ("The last axis, the keys", None),
         ]),
]
