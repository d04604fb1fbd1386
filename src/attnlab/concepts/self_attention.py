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
             ("20 000 × L", "prediction_parameter_count: one set of weights per word"),
             ("30 000", None),
             ("20 000", "prediction_parameter_count: queries and keys only"),
             ("30 000 × L", "prediction_parameter_count: one set of weights per word"),
         ]),
    dict(id="q2", concept="maps",
         stem="Self-attention computes queries, keys and values from X with three separate maps. Which statement about them is right?",
         options=[
             ("The value map could go: X itself is the right output", "self_attention: X used as the values (no W_v)"),
             ("One shared map for queries and keys would do as well", "self_attention: W_q used for the keys as well (Q Qᵀ)"),
             ("Separate query and key maps let a token seek others", None),
         ]),
    dict(id="q3", concept="biases",
         stem="X W + b is written as one product [X, 1] [W; b]. Where do the ones go, and where does b go?",
         options=[
             ("A row of ones under the tokens; b as an extra column of W", "append_ones: a row of ones (a new token) instead of a column (a new feature)"),
             ("A column of ones after the features; b as an extra column of W", "absorb_bias: b appended as a column instead of a row"),
             ("A row of ones under the tokens; b as the last row of W", "append_ones: a row of ones (a new token) instead of a column (a new feature)"),
             ("A column of ones after the features; b as the last row of W", None),
         ]),
    dict(id="q4", concept="equivariance",
         stem="Self-attention without positions reads 'dog bites man' and then 'man bites dog'. What is the output vector at 'dog'?",
         options=[
             ("Different: its neighbours sit on other sides", "prediction_dog_output: word order changes the meaning, so the output changes"),
             ("Equal for some weight matrices, not for others", "prediction_dog_output: equal only for special weights"),
             ("Equal for every choice of the weight matrices", None),
         ]),
    dict(id="q5", concept="module",
         stem="In a torch module, self.W_q = nn.Linear(d_in, d_k). How is X projected to the queries?",
         options=[
             ("X @ self.W_q.weight", "SelfAttention: `X @ self.W_q.weight` without the transpose: nn.Linear stores its weight as (out, in)"),
             ("self.W_q(X)", None),
             ("torch.from_numpy(X.numpy() @ W), with W copied out of the layer", "SelfAttention: a step outside torch's autograd (`.numpy()`, `.detach()`, `torch.no_grad()`): no gradient reaches the projections before it"),
         ]),
    dict(id="q6", concept="module",
         stem="A SelfAttention module maps tokens of width 16 to keys of width 4 and values of width 8. By what are its scores divided?",
         options=[
             ("√16", "SelfAttention: scaling by √d_in (the input width) instead of √d_k"),
             ("4", "SelfAttention: scaling by d_k instead of √d_k"),
             ("√4", None),
             ("√8", "SelfAttention: scaling by √d_v instead of √d_k"),
         ]),
]
