"""Notebook 05: wrong implementations the catalogue does not list."""
from uncatalogued import U

_MHA_INIT = '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)
'''

WRONG = [
    U("split_heads", '''
import torch
def split_heads(X, num_heads):
    B, L, D = X.shape
    return torch.as_tensor(X).view(B, L, num_heads, D // num_heads).transpose(1, 2)
''', "test_split_heads", "in torch, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("split_heads", '''
def split_heads(X, num_heads):
    L, D = X.shape[-2:]
    return X.reshape(L, num_heads, D // num_heads).transpose(1, 0, 2)
''', "test_split_heads", "one sequence only (no batch axis)", needs_layer=True, words=("batch axis", "leading axes", "leading axis"), kind="fixed-rank"),
    U("split_heads", '''
def split_heads(X, num_heads):
    B, L, D = X.shape
    Dh = D // num_heads
    return np.stack([X[:, :, h * Dh:(h + 1) * Dh] for h in range(num_heads)], axis=2)
''', "test_split_heads", "stacked on the wrong axis (B, L, H, Dh)", words=("axis", "transpose", "shape"),
      kind="axes"),

    U("merge_heads", '''
import torch
def merge_heads(X):
    B, H, L, Dh = X.shape
    return torch.as_tensor(X).transpose(1, 2).reshape(B, L, H * Dh)
''', "test_merge_heads", "in torch, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("merge_heads", '''
def merge_heads(X):
    return np.concatenate(X, axis=-1)
''', "test_merge_heads", "concatenates over the batch, not the heads", needs_layer=True, words=("batch axis", "leading axes", "head"),
      kind="fixed-rank"),
    U("merge_heads", '''
def merge_heads(X):
    B, H, L, Dh = X.shape
    return X.transpose(0, 2, 1, 3).reshape(B, L, H * Dh)[:, ::-1]
''', "test_merge_heads", "the sequence reversed", words=("order", "reverse", "permut"), kind="order"),

    U("multi_head_attention", '''
def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    D = X_q.shape[-1]
    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(D // num_heads)
    weights = attnlab.masked_softmax(scores, True if mask is None else mask[:, 0] if np.ndim(mask) == 4 else mask)
    return (weights @ V) @ W_o, np.repeat(weights[:, None], num_heads, axis=1)
''', "test_multi_head_attention", "heads never split (one head, scaled by sqrt(Dh))", needs_layer=True, words=("split", "one head"),
      kind="heads"),
    U("multi_head_attention", '''
def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    if mask is not None:
        mask = np.swapaxes(mask, -1, -2)
    Z, weights = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    return attnlab.merge_heads(Z) @ W_o, weights
''', "test_multi_head_attention_masked", "the mask on the query axis", words=("query axis", "along the queries", "wrong axis", "transposed mask", "mask transposed"), kind="mask axis"),
    U("multi_head_attention", '''
def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    scores = K @ np.swapaxes(Q, -1, -2) / np.sqrt(Q.shape[-1])
    weights = attnlab.masked_softmax(scores, True if mask is None else mask)
    return attnlab.merge_heads(weights @ V) @ W_o, weights
''', "test_multi_head_attention", "K Qᵀ instead of Q Kᵀ", needs_layer=True, words=("transpose", "swap"), kind="transpose"),
    U("multi_head_attention", '''
import torch
def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    Z, weights = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    return torch.from_numpy(attnlab.merge_heads(Z) @ W_o), torch.from_numpy(weights)
''', "test_multi_head_attention", "tensors back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("multi_head_attention", '''
def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(X_q.shape[-1])
    weights = attnlab.masked_softmax(scores, True if mask is None else mask)
    return attnlab.merge_heads(weights @ V), weights
''', "test_multi_head_attention", "sqrt(D) and no output projection", words=("sqrt", "scal", "projection"),
      kind="two at once"),
    U("multi_head_attention", '''
def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    Z, weights = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    return attnlab.merge_heads(Z) @ W_o, np.swapaxes(weights, -1, -2)
''', "test_multi_head_attention", "the weights returned transposed", words=("transpose",),
      kind="transpose"),

    U("mha_module", _MHA_INIT + '''
    def forward(self, X_q, X_kv, mask=None):
        H = self.num_heads
        Q = at.split_heads(self.W_q(X_q), H)
        K = at.split_heads(self.W_k(X_kv), H)
        V = at.split_heads(self.W_v(X_kv), H)
        scores = Q @ K.transpose(-1, -2) / Q.shape[-1] ** 0.5
        if mask is not None:
            scores = scores.masked_fill(~mask, -10000.0)
        weights = torch.softmax(scores, dim=-1)
        return self.W_o(at.merge_heads(weights @ V)), weights
''', "test_mha_module_bias_mask", "masked scores filled with a finite -10000", words=("fully masked", "finite", "-10000", "uniform", "no key", "no word"),
      kind="range"),
    U("mha_module", _MHA_INIT + '''
    def forward(self, X_q, X_kv, mask=None):
        H = self.num_heads
        Q = at.split_heads(self.W_q(X_q), H)
        K = at.split_heads(self.W_k(X_kv), H)
        V = at.split_heads(self.W_v(X_kv), H)
        if mask is not None:
            mask = torch.as_tensor(mask).transpose(-1, -2)
        Z, weights = at.scaled_dot_product_attention(Q, K, V, mask)
        return self.W_o(at.merge_heads(Z)), weights
''', "test_mha_module_bias_mask", "the mask on the query axis", needs_layer=True, words=("query axis", "along the queries", "wrong axis", "transposed mask", "mask transposed"), kind="mask axis"),
    U("mha_module", _MHA_INIT + '''
    def forward(self, X_q, X_kv, mask=None):
        H = self.num_heads
        Q, K, V = self.W_q(X_q), self.W_k(X_kv), self.W_v(X_kv)
        scores = Q @ K.transpose(-1, -2) / (Q.shape[-1] // H) ** 0.5
        weights = at.masked_softmax(scores, None if mask is None else mask[:, 0])
        out = self.W_o(weights @ V)
        return out, weights[:, None].expand(-1, H, -1, -1)
''', "test_mha_module", "heads never split", needs_layer=True, words=("split", "one head"), kind="heads"),
    U("mha_module", _MHA_INIT + '''
    def forward(self, X_q, X_kv, mask=None):
        H = self.num_heads
        Q = at.split_heads(self.W_q(X_q), H)
        K = at.split_heads(self.W_k(X_kv), H)
        V = at.split_heads(self.W_v(X_kv), H)
        scores = Q @ K.T / Q.shape[-1] ** 0.5
        weights = at.masked_softmax(scores, mask)
        return self.W_o(at.merge_heads(weights @ V)), weights
''', "test_mha_module", "K.T on a batched 4-D tensor", needs_layer=True, words=("K.T", "batch axis", "leading axes", ".T"), kind="fixed-rank"),
    U("mha_module", _MHA_INIT + '''
    def forward(self, X_q, X_kv, mask=None):
        H = self.num_heads
        Q = at.split_heads(self.W_q(X_q), H)
        K = at.split_heads(self.W_k(X_kv), H)
        V = at.split_heads(self.W_v(X_kv), H)
        Z, weights = at.scaled_dot_product_attention(Q, K, V, mask)
        return self.W_o(at.merge_heads(Z)), weights.transpose(-1, -2)
''', "test_mha_module", "the weights returned transposed", words=("transpose",), kind="transpose"),

    U("merge_value_output", '''
def merge_value_output(W_v, W_o, num_heads):
    D = W_v.shape[0]
    Dh = D // num_heads
    return np.stack([W_o[h * Dh:(h + 1) * Dh] @ W_v[:, h * Dh:(h + 1) * Dh] for h in range(num_heads)])
''', "test_merge_value_output", "the product in the wrong order (Dh, Dh)", words=("order", "shape", "swap"),
      kind="arguments swapped"),
    U("merge_value_output", '''
import torch
def merge_value_output(W_v, W_o, num_heads):
    D = W_v.shape[0]
    Dh = D // num_heads
    W_v, W_o = torch.as_tensor(W_v), torch.as_tensor(W_o)
    return torch.stack([W_v[:, h * Dh:(h + 1) * Dh] @ W_o[h * Dh:(h + 1) * Dh] for h in range(num_heads)])
''', "test_merge_value_output", "in torch, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("merge_value_output", '''
def merge_value_output(W_v, W_o, num_heads):
    D = W_v.shape[0]
    Dh = D // num_heads
    return np.stack([W_v[:, h * Dh:(h + 1) * Dh] @ W_o[h * Dh:(h + 1) * Dh] for h in range(num_heads - 1)])
''', "test_merge_value_output", "the last head left out", words=("head", "shape"), kind="off-by-one"),
]
