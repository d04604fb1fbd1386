"""Concept check of notebook 05 (multi-head attention): data for :mod:`attnlab.concepts`.

Each option is ``(text, None)`` for the right one, else ``(text, "<exercise>: <misconception>")``."""
NOTEBOOK = "05_multi_head_attention"

CONCEPTS = {
    "split-merge": ("split and merge heads", "2. Splitting and merging heads with reshapes"),
    "sum": ("`Σ H_i W_iᴼ = Cat[H] Wᴼ`", "4. Concatenate-then-project is a sum over heads"),
    "params": ("parameter count", "4. Concatenate-then-project is a sum over heads"),
    "torch": ("matching `nn.MultiheadAttention`", "5. A PyTorch module"),
}

QUESTIONS = [
    dict(id="q1", concept="split-merge",
         stem="X of shape (B, L, 8) is split into 2 heads. What shape comes out, and which features of X does head 0 get?",
         options=[
             ("(B, L, 2, 4); features 0, 2, 4 and 6", "split_heads: interleaved heads (a reshape to (B, L, Dh, H)): head h gets columns h, h+H, h+2H, ..."),
             ("(B, 2, L, 4); features 0 to 3", None),
             ("(B, 2, L, 4); features 0, 2, 4 and 6", "split_heads: interleaved heads (a reshape to (B, L, Dh, H)): head h gets columns h, h+H, h+2H, ..."),
             ("(B, L, 2, 4); features 0 to 3", "split_heads: the heads cut but not moved in front of the sequence (shape (B, L, H, Dh))"),
         ]),
    dict(id="q2", concept="split-merge",
         stem="X of shape (B, L, D) is reshaped straight to (B, H, L, Dh), with no transpose. What does 'head' h then hold?",
         options=[
             ("Features h·Dh to (h+1)·Dh of every token", "split_heads: a reshape straight to (B, H, L, Dh), without the transpose"),
             ("Features h, h+H, h+2H, … of every token", "split_heads: interleaved heads (a reshape to (B, L, Dh, H)): head h gets columns h, h+H, h+2H, ..."),
             ("All D features of L/H consecutive tokens", None),
         ]),
    dict(id="q3", concept="split-merge",
         stem="The heads' outputs, shape (B, H, L, Dh), are merged before the output projection. How?",
         options=[
             ("Summed over the heads: (B, L, Dh)", "merge_heads: summing the heads instead of concatenating them"),
             ("Averaged over the heads: (B, L, Dh)", "merge_heads: averaging the heads instead of concatenating them"),
             ("Joined along the features: (B, L, H·Dh)", None),
             ("Joined along the sequence: (B, H·L, Dh)", "merge_heads: the heads concatenated along the sequence axis (shape (B, H*L, Dh))"),
         ]),
    dict(id="q4", concept="sum",
         stem="The heads' outputs H_1, ..., H_n, merged and multiplied by W_O, can be written as a sum over the heads. Which sum?",
         options=[
             ("Σ_h H_h W_O[the rows of head h]", None),
             ("Σ_h H_h W_O[the columns of head h]", "merge_value_output: W_o's columns instead of its rows for head h"),
             ("(Σ_h H_h) W_O, the heads added first", "merge_heads: summing the heads instead of concatenating them"),
         ]),
    dict(id="q5", concept="params",
         stem="nn.MultiheadAttention with model width 64 and biases: how does its parameter count with 8 heads compare with 1 head?",
         options=[
             ("8 times as large", "prediction_params_h8: every head has its own D x D matrices"),
             ("An eighth as large", "prediction_params_h8: the parameters are shared out among the heads"),
             ("Equal", None),
         ]),
    dict(id="q6", concept="torch", reread="3. Multi-head attention",
         stem="Multi-head attention with model width 32 and 2 heads: by what are each head's scores divided?",
         options=[
             ("√32", "multi_head_attention: scaling by √D (the model width) instead of √(D/H) (the head width)"),
             ("√16", None),
             ("16", "multi_head_attention: scaling by D/H instead of √(D/H)"),
         ]),
    dict(id="q7", concept="torch",
         stem="To compute a torch layer self.W_q = nn.Linear(D, D), made with its default arguments, in numpy: which expression is right?",
         options=[
             ("X @ W_q.weight.T", "MultiHeadAttention: the projections' biases left out (`X @ self.W_q.weight.T` without `+ self.W_q.bias`)"),
             ("X @ W_q.weight + W_q.bias", "MultiHeadAttention: `X @ self.W_q.weight`: nn.Linear stores its weight as (out, in)"),
             ("X @ W_q.weight.T + W_q.bias", None),
             ("X @ W_q.weight", "MultiHeadAttention: `X @ self.W_q.weight`: nn.Linear stores its weight as (out, in)"),
         ]),
]
