"""Notebook 03: wrong implementations the catalogue does not list."""
from uncatalogued import U

WRONG = [
    U("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    scores = K @ np.swapaxes(Q, -1, -2) / np.sqrt(W_q.shape[1])
    A = attnlab.softmax(scores, axis=-1)
    return A @ V, A
''', "test_self_attention", "K Qᵀ instead of Q Kᵀ", words=("transpose", "swap", "axis"),
      kind="transpose"),
    U("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1]), axis=-1)
    return np.swapaxes(A, -1, -2) @ V, A
''', "test_self_attention", "Z = Aᵀ V", needs_layer=False, words=("transpose",), kind="transpose"),
    U("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1]), axis=-1)
    return A @ V, np.swapaxes(A, -1, -2)
''', "test_self_attention", "A returned transposed", words=("transpose",), kind="transpose"),
    U("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(np.einsum("id,jd->ij", Q, K) / np.sqrt(W_q.shape[1]), axis=-1)
    return A @ V, A
''', "test_self_attention_batched", "einsum for one sequence only", words=("batch axis", "leading axes", "leading axis"), kind="fixed-rank"),
    U("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(X.shape[-2]), axis=-1)
    return A @ V, A
''', "test_self_attention", "scaled by sqrt(L)", words=("scal", "sqrt"), kind="constant"),
    U("self_attention", '''
import torch
def self_attention(X, W_q, W_k, W_v):
    X, W_q, W_k, W_v = (torch.as_tensor(a, dtype=torch.float64) for a in (X, W_q, W_k, W_v))
    A = torch.softmax((X @ W_q) @ (X @ W_k).transpose(-1, -2) / W_q.shape[1] ** 0.5, dim=-1)
    return A @ (X @ W_v), A
''', "test_self_attention", "in torch, tensors back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    scores = Q @ np.swapaxes(K, -1, -2)
    A = attnlab.softmax(scores, axis=-2)
    return A @ V, A
''', "test_self_attention", "no scaling and a softmax over the queries", words=("scal", "axis"),
      kind="two at once"),

    U("append_ones", '''
def append_ones(X):
    return np.pad(X, ((0, 0), (0, 1)), constant_values=1.0)
''', "test_append_ones_batched", "np.pad with widths for a 2-D array", words=("batch axis", "leading axes", "leading axis"), kind="fixed-rank"),
    U("append_ones", '''
import torch
def append_ones(X):
    X = torch.as_tensor(X)
    return torch.cat([X, torch.ones(*X.shape[:-1], 1, dtype=X.dtype)], dim=-1)
''', "test_append_ones", "in torch, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("append_ones", '''
def append_ones(X):
    ones = np.ones(X.shape[:-1] + (1,), dtype=int)
    return np.concatenate([X, ones], axis=-1).astype(int)
''', "test_append_ones", "an int array", words=("int", "float", "dtype", "type"), kind="types"),

    U("absorb_bias", '''
def absorb_bias(W, b):
    return np.vstack([W, np.ones_like(b)])
''', "test_absorb_bias", "a row of ones instead of b", needs_layer=True, words=("bias", "b "), kind="value"),
    U("absorb_bias", '''
import torch
def absorb_bias(W, b):
    return torch.cat([torch.as_tensor(W), torch.as_tensor(b)[None, :]], dim=0)
''', "test_absorb_bias", "in torch, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),

    U("SelfAttention", '''
class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.d_k = d_k
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        scores = K @ Q.transpose(-1, -2) / math.sqrt(self.d_k)
        A = at.masked_softmax(scores, mask)
        return A @ V, A
''', "test_self_attention_module", "K Qᵀ in the module", needs_layer=True, words=("transpose", "swap"),
      kind="transpose"),
    U("SelfAttention", '''
class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.d_k = d_k
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        scores = Q @ K.transpose(-1, -2) / math.sqrt(self.d_k)
        if mask is not None:
            mask = torch.as_tensor(mask).transpose(-1, -2)
        A = at.masked_softmax(scores, mask)
        return A @ V, A
''', "test_self_attention_module_mask", "the mask on the query axis", words=("query axis", "along the queries", "wrong axis", "transposed mask", "mask transposed"), kind="mask axis"),
    U("SelfAttention", '''
class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.d_k = d_k
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        scores = Q @ K.transpose(-1, -2) / math.sqrt(V.shape[-1])
        A = at.masked_softmax(scores, mask)
        return A @ V, A
''', "test_self_attention_module", "scaled by sqrt(d_v)", words=("scal", "sqrt"), kind="constant"),
    U("SelfAttention", '''
class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.d_k = d_k
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        scores = (Q @ K.transpose(-1, -2) / math.sqrt(self.d_k)).detach().numpy()
        A = attnlab.masked_softmax(scores, True if mask is None else np.asarray(mask))
        A = torch.as_tensor(A, dtype=V.dtype)
        return A @ V, A
''', "test_self_attention_module", "the softmax in numpy (no gradient to W_q, W_k)", words=("grad",),
      kind="torch/numpy"),
    U("SelfAttention", '''
class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.d_k = d_k
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        scores = Q @ K.transpose(-1, -2) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(~mask, -10000.0)
        A = torch.softmax(scores, dim=-1)
        return A @ V, A
''', "test_self_attention_module_mask", "a finite -10000 fill", words=("fully masked", "finite", "-10000", "uniform", "no key", "no word"), kind="range"),
]
