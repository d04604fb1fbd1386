"""Wrong implementations of notebook 05's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
"""
from coursekit import Wrong

# multi_head_attention with one line changed, as a learner would write it from the pieces.
_MHA = '''
def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    B, Lq, D = X_q.shape
    Lk = X_kv.shape[1]
    Dh = D // num_heads
    Q = {split_q}
    K = {split_k}
    V = {split_v}
    scores = Q @ np.swapaxes(K, -1, -2) / {scale}
    weights = {softmax}
    Z = weights @ V
    return {out}, {weights}
'''
_OK = dict(split_q="attnlab.split_heads(X_q @ W_q, num_heads)",
           split_k="attnlab.split_heads(X_kv @ W_k, num_heads)",
           split_v="attnlab.split_heads(X_kv @ W_v, num_heads)",
           scale="np.sqrt(Dh)", softmax="attnlab.masked_softmax(scores, mask)",
           out="attnlab.merge_heads(Z) @ W_o", weights="weights")


def _mha(**changes) -> str:
    return _MHA.format(**{**_OK, **changes})


# The MultiHeadAttention module, with one piece changed.
_MODULE = '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.d_model = d_model
        {init}

    def forward(self, X_q, X_kv, mask=None):
        H = self.num_heads
        Q = at.split_heads({q}, H)
        K = at.split_heads({k}, H)
        V = at.split_heads({v}, H)
        scores = Q @ K.transpose(-1, -2) / {scale}
        weights = {softmax}
        Z = weights @ V
        return {out}, {weights}
'''
_MODULE_OK = dict(
    init="self.W_q = nn.Linear(d_model, d_model, bias=bias)\n"
         "        self.W_k = nn.Linear(d_model, d_model, bias=bias)\n"
         "        self.W_v = nn.Linear(d_model, d_model, bias=bias)\n"
         "        self.W_o = nn.Linear(d_model, d_model, bias=bias)",
    q="self.W_q(X_q)", k="self.W_k(X_kv)", v="self.W_v(X_kv)",
    scale="math.sqrt(self.d_model // H)", softmax="at.masked_softmax(scores, mask)",
    out="self.W_o(at.merge_heads(Z))", weights="weights")


def _module(**changes) -> str:
    return "import math\n" + _MODULE.format(**{**_MODULE_OK, **changes})


WRONG = [
    # split_heads -------------------------------------------------------------------------------
    Wrong("split_heads", '''
def split_heads(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, num_heads, L, D // num_heads)
''', fails=("test_split_heads",), message="without the transpose"),
    Wrong("split_heads", '''
def split_heads(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, L, D // num_heads, num_heads).transpose(0, 3, 1, 2)
''', fails=("test_split_heads",), message="interleaved heads"),
    Wrong("split_heads", '''
def split_heads(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, L, num_heads, D // num_heads)
''', fails=("test_split_heads",), message="not moved in front of the sequence"),
    Wrong("split_heads", '''
def split_heads(X, num_heads):
    B, L, D = X.shape
    Dh = D // num_heads
    return X.reshape(B, L, Dh, num_heads).transpose(0, 2, 1, 3)
''', fails=("test_split_heads",), message="number of heads and the head width swapped"),
    Wrong("split_heads", '''
def split_heads(X, num_heads):
    return np.stack(np.split(X, num_heads, axis=1), axis=1)
''', fails=("test_split_heads",), message="sequence split into H pieces"),
    Wrong("split_heads", '''
def split_heads(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, L, num_heads, D // num_heads).transpose(0, 2, 3, 1)
''', fails=("test_split_heads",), message="moves the wrong axes"),

    # merge_heads -------------------------------------------------------------------------------
    Wrong("merge_heads", '''
def merge_heads(X):
    B, H, L, Dh = X.shape
    return X.reshape(B, L, H * Dh)
''', fails=("test_merge_heads",), message="without transposing back"),
    Wrong("merge_heads", '''
def merge_heads(X):
    B, H, L, Dh = X.shape
    return X.transpose(0, 2, 3, 1).reshape(B, L, H * Dh)
''', fails=("test_merge_heads",), message="interleaved heads"),
    Wrong("merge_heads", '''
def merge_heads(X):
    return X.sum(axis=1)
''', fails=("test_merge_heads",), message="summing the heads"),
    Wrong("merge_heads", '''
def merge_heads(X):
    return np.concatenate([X[:, h] for h in range(X.shape[1])], axis=1)
''', fails=("test_merge_heads",), message="along the sequence axis"),
    Wrong("merge_heads", '''
def merge_heads(X):
    return np.swapaxes(X, 1, 2)
''', fails=("test_merge_heads",), message="not reshaped"),

    # multi_head_attention ----------------------------------------------------------------------
    Wrong("multi_head_attention", _mha(scale="np.sqrt(D)"),
          fails=("test_multi_head_attention", "test_multi_head_attention_masked"),
          message="scaling by √D (the model width)"),
    Wrong("multi_head_attention", _mha(scale="(D / num_heads)"),
          fails=("test_multi_head_attention", "test_multi_head_attention_masked"),
          message="scaling by D/H"),
    Wrong("multi_head_attention", _mha(out="attnlab.merge_heads(Z)"),
          fails=("test_multi_head_attention", "test_multi_head_attention_masked"),
          message="no output projection"),
    Wrong("multi_head_attention", _mha(split_q="(X_q @ W_q).reshape(B, num_heads, Lq, Dh)",
                                       split_k="(X_kv @ W_k).reshape(B, num_heads, Lk, Dh)",
                                       split_v="(X_kv @ W_v).reshape(B, num_heads, Lk, Dh)",
                                       out="Z.reshape(B, Lq, D) @ W_o"),
          fails=("test_multi_head_attention",), message="without the transpose"),
    Wrong("multi_head_attention", _mha(out="Z.reshape(B, Lq, D) @ W_o"),
          fails=("test_multi_head_attention", "test_multi_head_attention_masked"),
          message="merged without transposing back"),
    Wrong("multi_head_attention", _mha(softmax="attnlab.softmax(np.where(mask, scores, -1e9) if mask is not None else scores, axis=1)"),
          fails=("test_multi_head_attention",), message="a softmax over the heads"),
    Wrong("multi_head_attention", '''
def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    out, weights = attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask)
    return out @ W_o, weights
''', fails=("test_multi_head_attention",), message="one head of width D"),
    Wrong("multi_head_attention", _mha(weights="weights.mean(axis=1)"),
          fails=("test_multi_head_attention", "test_multi_head_attention_masked"),
          message="averaged over the heads"),
    Wrong("multi_head_attention", _mha(softmax="attnlab.softmax(scores)"),
          fails=("test_multi_head_attention_masked",), message="ignoring the mask"),
    Wrong("multi_head_attention", _mha(out="attnlab.merge_heads(Z) @ W_o.T"),
          fails=("test_multi_head_attention", "test_multi_head_attention_masked"),
          message="W_o transposed"),
    Wrong("multi_head_attention", _mha(
        split_q="(X_q @ W_q).reshape(B, Lq, Dh, num_heads).transpose(0, 3, 1, 2)",
        split_k="(X_kv @ W_k).reshape(B, Lk, Dh, num_heads).transpose(0, 3, 1, 2)",
        split_v="(X_kv @ W_v).reshape(B, Lk, Dh, num_heads).transpose(0, 3, 1, 2)",
        out="Z.transpose(0, 2, 3, 1).reshape(B, Lq, D) @ W_o"),
          fails=("test_multi_head_attention",), message="interleaved heads"),

    Wrong("multi_head_attention", _mha(softmax="attnlab.softmax(scores if mask is None else "
                                               "np.where(mask, scores, -1e4))"),
          fails=("test_multi_head_attention_masked",),
          message="a finite fill value; a fully masked row must give zero weights"),

    # MultiHeadAttention (torch module) ---------------------------------------------------------
    Wrong("mha_module", _module(init="self.q_proj = nn.Linear(d_model, d_model, bias=bias)\n"
                                     "        self.k_proj = nn.Linear(d_model, d_model, bias=bias)\n"
                                     "        self.v_proj = nn.Linear(d_model, d_model, bias=bias)\n"
                                     "        self.out_proj = nn.Linear(d_model, d_model, bias=bias)",
                                q="self.q_proj(X_q)", k="self.k_proj(X_kv)", v="self.v_proj(X_kv)",
                                out="self.out_proj(at.merge_heads(Z))"),
          fails=("test_mha_module", "test_mha_module_bias_mask"), message="not stored as self.W_q"),
    Wrong("mha_module", _module(init="self.W_q = nn.Linear(d_model, d_model)\n"
                                     "        self.W_k = nn.Linear(d_model, d_model)\n"
                                     "        self.W_v = nn.Linear(d_model, d_model)\n"
                                     "        self.W_o = nn.Linear(d_model, d_model)"),
          fails=("test_mha_module",), message="default bias=True"),
    Wrong("mha_module", _module(init="self.W_q = nn.Linear(d_model, d_model, bias=False)\n"
                                     "        self.W_k = nn.Linear(d_model, d_model, bias=False)\n"
                                     "        self.W_v = nn.Linear(d_model, d_model, bias=False)\n"
                                     "        self.W_o = nn.Linear(d_model, d_model, bias=False)"),
          fails=("test_mha_module_bias_mask",), message="the `bias` argument ignored"),
    Wrong("mha_module", _module(q="X_q @ self.W_q.weight", k="X_kv @ self.W_k.weight",
                                v="X_kv @ self.W_v.weight", out="at.merge_heads(Z) @ self.W_o.weight"),
          fails=("test_mha_module",), message="stores its weight as (out, in)"),
    Wrong("mha_module", _module(scale="math.sqrt(self.d_model)"),
          fails=("test_mha_module", "test_mha_module_bias_mask"), message="scaling by √D"),
    Wrong("mha_module", _module(out="at.merge_heads(Z)"),
          fails=("test_mha_module", "test_mha_module_bias_mask"), message="no output projection"),
    Wrong("mha_module", _module(init="self.W_q = nn.Linear(d_model, d_model // num_heads, bias=bias)\n"
                                     "        self.W_k = nn.Linear(d_model, d_model // num_heads, bias=bias)\n"
                                     "        self.W_v = nn.Linear(d_model, d_model // num_heads, bias=bias)\n"
                                     "        self.W_o = nn.Linear(d_model // num_heads, d_model, bias=bias)"),
          fails=("test_mha_module", "test_mha_module_bias_mask"), message="not (d_model, d_model)"),
    Wrong("mha_module", _module(q="X_q @ self.W_q.weight.T", k="X_kv @ self.W_k.weight.T",
                                v="X_kv @ self.W_v.weight.T", out="at.merge_heads(Z) @ self.W_o.weight.T"),
          fails=("test_mha_module_bias_mask",), message="biases left out"),
    Wrong("mha_module", _module(weights="weights.mean(dim=1)"),
          fails=("test_mha_module", "test_mha_module_bias_mask"), message="averaged over the heads"),
    Wrong("mha_module", _module(softmax="torch.softmax(scores, dim=-1)"),
          fails=("test_mha_module_bias_mask",), message="ignoring the mask"),
    # a finite fill: a fully masked row gets uniform weights and the mean of the values
    Wrong("mha_module", _module(softmax="torch.softmax(scores if mask is None else "
                                        "scores.masked_fill(~mask, -10000.0), dim=-1)"),
          fails=("test_mha_module_bias_mask",),
          message="a finite fill value; a fully masked row must give zero weights"),
    Wrong("mha_module", _module(softmax="torch.softmax(scores if mask is None else "
                                        "scores.masked_fill(mask == 0, float('-inf')), dim=-1)"),
          fails=("test_mha_module_bias_mask",), message="a fully masked row becomes 0/0 = NaN"),

    # merge_value_output ------------------------------------------------------------------------
    Wrong("merge_value_output", '''
def merge_value_output(W_v, W_o, num_heads):
    Dh = W_v.shape[0] // num_heads
    return np.stack([W_v[h * Dh:(h + 1) * Dh].T @ W_o[h * Dh:(h + 1) * Dh] for h in range(num_heads)])
''', fails=("test_merge_value_output",), message="rows instead of its columns"),
    Wrong("merge_value_output", '''
def merge_value_output(W_v, W_o, num_heads):
    Dh = W_v.shape[0] // num_heads
    return np.stack([W_v[:, h * Dh:(h + 1) * Dh] @ W_o[:, h * Dh:(h + 1) * Dh].T for h in range(num_heads)])
''', fails=("test_merge_value_output",), message="W_o's columns instead of its rows"),
    Wrong("merge_value_output", '''
def merge_value_output(W_v, W_o, num_heads):
    return W_v @ W_o
''', fails=("test_merge_value_output",), message="the sum over heads"),
    Wrong("merge_value_output", '''
def merge_value_output(W_v, W_o, num_heads):
    Dh = W_v.shape[0] // num_heads
    return np.stack([W_o[h * Dh:(h + 1) * Dh].T @ W_v[:, h * Dh:(h + 1) * Dh].T for h in range(num_heads)])
''', fails=("test_merge_value_output",), message="each head's product transposed"),
    Wrong("merge_value_output", '''
def merge_value_output(W_v, W_o, num_heads):
    return np.stack([W_v[:, h::num_heads] @ W_o[h::num_heads] for h in range(num_heads)])
''', fails=("test_merge_value_output",), message="interleaved heads"),
    Wrong("merge_value_output", '''
def merge_value_output(W_v, W_o, num_heads):
    Dh = W_v.shape[0] // num_heads
    return np.stack([W_v[:, h * Dh:(h + 1) * Dh] @ W_o[h * Dh:(h + 1) * Dh] for h in range(num_heads)], axis=-1)
''', fails=("test_merge_value_output",), message="stacked on the last axis"),

    # real-world classes (issue 12) ---------------------------------------------------------
    Wrong("multi_head_attention", _mha(split_k="(X_kv @ W_k).reshape(B, Lq, num_heads, Dh).transpose(0, 2, 1, 3)",
                                       split_v="(X_kv @ W_v).reshape(B, Lq, num_heads, Dh).transpose(0, 2, 1, 3)"),
          fails=("test_multi_head_attention",), message="assumes Lq == Lk"),
    Wrong("multi_head_attention", _mha(softmax="attnlab.masked_softmax(scores, mask[:, None] if mask is not None else None)"),
          fails=("test_multi_head_attention_masked",), message="an axis added in the wrong place"),
    Wrong("multi_head_attention", _mha(scale="1.0", out="attnlab.merge_heads(Z)"),
          fails=("test_multi_head_attention", "test_multi_head_attention_masked"),
          message="two known mistakes at once: no scaling of the scores; and no output projection"),
    Wrong("mha_module", _module(weights="torch.nn.functional.dropout(weights, 0.1)"),
          fails=("test_mha_module", "test_mha_module_bias_mask"), message="dropout left active in eval mode"),

    # predict, then run ------------------------------------------------------------------------
    Wrong("predict_params_h1", "prediction_params_h1 = 4 * 64 * 64\n",
          fails=("test_predict_params_h1",), message="the biases forgotten"),
    Wrong("predict_params_h1", "prediction_params_h1 = 12480\n",
          fails=("test_predict_params_h1",), message="no output projection"),
    Wrong("predict_params_h1", 'prediction_params_h1 = "16640"\n',
          fails=("test_predict_params_h1",), message="write it without quotes"),
    Wrong("predict_params_h8", "prediction_params_h8 = 8 * 16640\n",
          fails=("test_predict_params_h8",), message="every head has its own D x D matrices"),
    Wrong("predict_params_h8", "prediction_params_h8 = 2080\n",
          fails=("test_predict_params_h8",), message="shared out among the heads"),
    Wrong("predict_params_h8", "prediction_params_h8 = 16000\n",
          fails=("test_predict_params_h8",), message="The answer is 16640"),
]
