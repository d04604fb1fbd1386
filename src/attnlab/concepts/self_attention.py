"""Concept check of notebook 03 (self-attention): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "03_self_attention"

CONCEPTS = {
    "maps": ("Q, K, V as learned maps of one X", "1. One sequence, three roles"),
    "biases": ("biases as a column of ones", "3. Biases, absorbed by a column of ones"),
    "equivariance": ("permutation equivariance", "4. Does self-attention see word order?"),
    "module": ("a torch module", "5. A torch module, and a task that needs attention"),
}

QUESTIONS = [
    dict(id="q1", concept="maps",
         stem="Self-attention on tokens of width 100 projects them to queries, keys and values of width 100 (no biases). How many weights do the projections hold for a sentence of L words?",
         options=[
             ("10 000", "prediction_parameter_count: one projection instead of three"),
             ("20 000", "prediction_parameter_count: queries and keys only"),
             ("30 000 × L", "prediction_parameter_count: one set of weights per word"),
             ("30 000", None),
         ]),
    dict(id="q2", concept="maps",
         stem="Why does self-attention project X three times (queries, keys, values) instead of using X for all three?",
         options=[
             ("A token can look for something other than itself", None),
             ("Only the values need no map: X itself is the right output", "self_attention: X used as the values (no W_v)"),
             ("One map for queries and keys is enough, since they meet in a dot product", "self_attention: W_q used for the keys as well (Q Qᵀ)"),
         ]),
    dict(id="q3", concept="biases",
         stem="X W + b is written as one product [X, 1] [W; b]. Where do the ones go, and where does b go?",
         options=[
             ("A column of ones after the features; b as the last row of W", None),
             ("A row of ones under the tokens; b as the last row of W", "append_ones: a row of ones (a new token) instead of a column (a new feature)"),
             ("A column of ones first; b as the last row of W", "append_ones: ones prepended (the first column) instead of appended (the last)"),
             ("A column of ones after the features; b added to every row of W", "absorb_bias: b added to W instead of stacked under it"),
         ]),
    dict(id="q4", concept="equivariance",
         stem="Self-attention without positions reads 'dog bites man' and then 'man bites dog'. What is the output vector at 'dog'?",
         options=[
             ("Different: the order changes the meaning", "prediction_dog_output: word order changes the meaning, so the output changes"),
             ("Equal only for some special weights", "prediction_dog_output: equal only for special weights"),
             ("The same vector in both sentences", None),
         ]),
    dict(id="q5", concept="module",
         stem="In a torch module, self.W_q = nn.Linear(d_in, d_k). How is X projected to the queries?",
         options=[
             ("X @ self.W_q.weight", "SelfAttention: `X @ self.W_q.weight` without the transpose: nn.Linear stores its weight as (out, in)"),
             ("self.W_q(X)", None),
             ("torch.from_numpy(X.numpy() @ W), with W copied out of the layer", "SelfAttention: a step outside torch's autograd (`.numpy()`, `.detach()`, `torch.no_grad()`): no gradient reaches the projections before it"),
         ]),
    dict(id="q6", concept="module",
         stem="A SelfAttention module has d_in = 16, d_k = 4, d_v = 8. By what are its scores divided?",
         options=[
             ("√4 = 2", None),
             ("√16 = 4", "SelfAttention: scaling by √d_in (the input width) instead of √d_k"),
             ("4, the key width itself", "SelfAttention: scaling by d_k instead of √d_k"),
             ("√8", "SelfAttention: scaling by √d_v instead of √d_k"),
         ]),
]
