"""Wrong implementations of notebook 03's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
"""
from coursekit import Wrong

SA = ("test_self_attention", "test_self_attention_batched")
AO = ("test_append_ones", "test_append_ones_batched")
MODULE = ("test_self_attention_module", "test_self_attention_module_mask")


def _module(init: str, forward: str) -> str:
    """A learner's SelfAttention class with the given __init__ and forward bodies."""
    return f'''
class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
{init}

    def forward(self, X, mask=None):
{forward}
'''


INIT = '''        self.d_in, self.d_k, self.d_v = d_in, d_k, d_v
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)'''

QKV = '''        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)'''

WRONG = [
    # self_attention ---------------------------------------------------------------------------
    Wrong("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(Q @ K.T / np.sqrt(K.shape[-1]))
    return A @ V, A
''', fails=("test_self_attention_batched",), message="`K.T` (or `X.T`) on a batch"),
    Wrong("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2))
    return A @ V, A
''', fails=SA, message="no scaling"),
    Wrong("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    D = X.shape[-1]
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(D))
    return A @ V, A
''', fails=SA, message="scaling by √D (the input width)"),
    Wrong("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / K.shape[-1])
    return A @ V, A
''', fails=SA, message="scaling by Dk instead of √Dk"),
    Wrong("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(V.shape[-1]))
    return A @ V, A
''', fails=SA, message="scaling by √Dv"),
    Wrong("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]), axis=0)
    return A @ V, A
''', fails=SA, message="a softmax over the wrong axis"),
    Wrong("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K = X @ W_q, X @ W_k
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]))
    return A @ X, A
''', fails=SA, message="X used as the values"),
    Wrong("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_q, X @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]))
    return A @ V, A
''', fails=SA, message="W_q used for the keys"),
    Wrong("self_attention", '''
def self_attention(X, W_q, W_k, W_v):
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1]))
    return A, A @ V
''', fails=SA, message="returning (A, Z)"),

    # append_ones ------------------------------------------------------------------------------
    Wrong("append_ones", '''
def append_ones(X):
    return np.concatenate([np.ones(X.shape[:-1] + (1,)), X], axis=-1)
''', fails=AO, message="ones prepended"),
    Wrong("append_ones", '''
def append_ones(X):
    return np.hstack([X, np.ones((X.shape[0], 1))])
''', fails=("test_append_ones_batched",), message="`np.hstack` / `axis=1`"),
    Wrong("append_ones", '''
def append_ones(X):
    ones = np.ones(X.shape[:-1] + (1,))
    return np.concatenate([X, ones], axis=1)
''', fails=("test_append_ones_batched",), message="`np.hstack` / `axis=1`", label="axis=1"),
    Wrong("append_ones", '''
def append_ones(X):
    ones = np.ones(X.shape[:-2] + (1, X.shape[-1]))
    return np.concatenate([X, ones], axis=-2)
''', fails=AO, message="a row of ones"),
    Wrong("append_ones", '''
def append_ones(X):
    return np.concatenate([X, np.zeros(X.shape[:-1] + (1,))], axis=-1)
''', fails=AO, message="a column of zeros"),
    Wrong("append_ones", '''
def append_ones(X):
    return X + 1
''', fails=AO, message="adding 1 to every entry"),

    # absorb_bias ------------------------------------------------------------------------------
    Wrong("absorb_bias", '''
def absorb_bias(W, b):
    return np.vstack([b, W])
''', fails=("test_absorb_bias",), message="b as the first row"),
    Wrong("absorb_bias", '''
def absorb_bias(W, b):
    return np.hstack([W.T, b[:, None]])
''', fails=("test_absorb_bias",), message="transposed: shape (M, D+1)"),
    Wrong("absorb_bias", '''
def absorb_bias(W, b):
    return W + b
''', fails=("test_absorb_bias",), message="b added to W"),
    Wrong("absorb_bias", '''
def absorb_bias(W, b):
    return np.append(W, b)
''', fails=("test_absorb_bias",), message="a flat array"),
    Wrong("absorb_bias", '''
def absorb_bias(W, b):
    return np.column_stack([W, b])
''', fails=("test_absorb_bias",), message="b appended as a column"),

    # SelfAttention ----------------------------------------------------------------------------
    Wrong("SelfAttention", _module('''        self.d_k = d_k
        self.W_q = nn.Linear(d_in, d_k)
        self.W_k = nn.Linear(d_in, d_k)
        self.W_v = nn.Linear(d_in, d_v)''', QKV + '''
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_k), mask)
        return A @ V, A'''), fails=MODULE, message="the `bias` argument not passed on"),
    Wrong("SelfAttention", _module('''        self.d_k = d_k
        self.query = nn.Linear(d_in, d_k, bias=bias)
        self.key = nn.Linear(d_in, d_k, bias=bias)
        self.value = nn.Linear(d_in, d_v, bias=bias)''', '''        Q, K, V = self.query(X), self.key(X), self.value(X)
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_k), mask)
        return A @ V, A'''), fails=MODULE, message="not the nn.Linear attributes W_q, W_k, W_v"),
    Wrong("SelfAttention", _module(INIT, QKV + '''
        A = at.masked_softmax(Q @ K.transpose(-1, -2), mask)
        return A @ V, A'''), fails=MODULE, message="no scaling"),
    Wrong("SelfAttention", _module(INIT, QKV + '''
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_in), mask)
        return A @ V, A'''), fails=MODULE, message="scaling by √d_in"),
    Wrong("SelfAttention", _module(INIT, QKV + '''
        scores = Q @ K.transpose(-1, -2) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        A = torch.softmax(scores, dim=-2)
        return A @ V, A'''), fails=MODULE, message="a softmax over the wrong axis"),
    Wrong("SelfAttention", _module(INIT, QKV + '''
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_k), mask)
        return A @ X, A'''), fails=MODULE, message="X used as the values"),
    Wrong("SelfAttention", _module(INIT, QKV + '''
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_k), mask)
        return A, A @ V'''), fails=MODULE, message="returning (A, Z)"),
    Wrong("SelfAttention", _module(INIT, QKV + '''
        A = torch.softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_k), dim=-1)
        return A @ V, A'''), fails=("test_self_attention_module_mask",), message="the mask is ignored"),
    Wrong("SelfAttention", _module(INIT, QKV + '''
        scores = Q @ K.transpose(-1, -2) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        A = torch.softmax(scores, dim=-1)
        return A @ V, A'''), fails=("test_self_attention_module_mask",), message="a fully masked row becomes NaN"),
    Wrong("SelfAttention", _module(INIT, QKV + '''
        scores = Q @ K.transpose(-1, -2) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(~mask, -1e9)
        A = torch.softmax(scores, dim=-1)
        return A @ V, A'''), fails=("test_self_attention_module_mask",), message="large negative number"),

    # real-world classes (issue 12) ---------------------------------------------------------
    Wrong("SelfAttention", _module(INIT, QKV + '''
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_k), mask)
        A = torch.nn.functional.dropout(A, p=0.1)  # training=True by default
        return A @ V, A'''), fails=MODULE, message="dropout left active in eval mode"),
    Wrong("SelfAttention", _module(INIT, '''        Q, K, V = X @ self.W_q.weight, X @ self.W_k.weight, X @ self.W_v.weight
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_k), mask)
        return A @ V, A'''), fails=MODULE, message="`X @ self.W_q.weight` without the transpose"),

    # predict, then run ------------------------------------------------------------------------
    Wrong("predict_parameter_count", "prediction_parameter_count = 4 * 3 * 300 * 100\n",
          fails=("test_predict_parameter_count",), message="one set of weights per word"),
    Wrong("predict_parameter_count", "prediction_parameter_count = 300 * 100\n",
          fails=("test_predict_parameter_count",), message="one projection instead of three"),
    Wrong("predict_parameter_count", "prediction_parameter_count = 2 * 300 * 100\n",
          fails=("test_predict_parameter_count",), message="queries and keys only"),
    Wrong("predict_dog_output", 'prediction_dog_output = "Different"\n',
          fails=("test_predict_dog_output",), message="word order changes the meaning"),
    Wrong("predict_dog_output", 'prediction_dog_output = "depend on the weights"\n',
          fails=("test_predict_dog_output",), message="equal only for special weights"),
    Wrong("predict_dog_output", 'prediction_dog_output = "same"\n',
          fails=("test_predict_dog_output",), message="expected one of 'the same'"),
]
