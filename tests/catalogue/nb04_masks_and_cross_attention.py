"""Wrong implementations of notebook 04's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
"""
from coursekit import Wrong

WRONG = [
    # causal_mask -------------------------------------------------------------------------------
    Wrong("causal_mask", '''
def causal_mask(Lq, Lk):
    return np.tril(np.ones((Lq, Lk), dtype=bool), k=-1)
''', fails=("test_causal_mask",), message="strict mask j < i"),
    Wrong("causal_mask", '''
def causal_mask(Lq, Lk):
    return np.triu(np.ones((Lq, Lk), dtype=bool))
''', fails=("test_causal_mask",), message="the transposed mask"),
    Wrong("causal_mask", '''
def causal_mask(Lq, Lk):
    return np.tril(np.ones((Lq, Lk)))
''', fails=("test_causal_mask",), message="a mask of numbers instead of booleans"),
    Wrong("causal_mask", '''
def causal_mask(Lq, Lk):
    return np.tril(np.ones((Lq, Lk), dtype=bool), k=Lk - Lq)
''', fails=("test_causal_mask",), message="bottom-right aligned"),
    Wrong("causal_mask", '''
def causal_mask(Lq, Lk):
    return np.triu(np.ones((Lq, Lk), dtype=bool), k=1)
''', fails=("test_causal_mask",), message="True = blocked"),
    Wrong("causal_mask", '''
def causal_mask(Lq, Lk):
    i = np.arange(Lq)[None, :]
    j = np.arange(Lk)[:, None]
    return j <= i
''', fails=("test_causal_mask",), message="the shape (Lk, Lq)"),
    Wrong("causal_mask", '''
def causal_mask(Lq, Lk):
    return np.tril(np.ones((Lq, Lq), dtype=bool))
''', fails=("test_causal_mask",), message="square (Lq, Lq) mask"),

    # padding_mask ------------------------------------------------------------------------------
    Wrong("padding_mask", '''
def padding_mask(lengths, Lk):
    mask = np.zeros((len(lengths), Lk), dtype=bool)
    for b, n in enumerate(lengths):
        mask[b, :n + 1] = True
    return mask
''', fails=("test_padding_mask",), message="j <= lengths[b]"),
    Wrong("padding_mask", '''
def padding_mask(lengths, Lk):
    mask = np.zeros((len(lengths), Lk), dtype=bool)
    for b, n in enumerate(lengths):
        mask[b, n:] = True
    return mask
''', fails=("test_padding_mask",), message="inverted mask"),
    Wrong("padding_mask", '''
def padding_mask(lengths, Lk):
    return np.arange(Lk)[:, None] < np.asarray(lengths)[None, :]
''', fails=("test_padding_mask",), message="the shape (Lk, B)"),
    Wrong("padding_mask", '''
def padding_mask(lengths, Lk):
    mask = np.zeros((len(lengths), Lk))
    for b, n in enumerate(lengths):
        mask[b, :n] = 1
    return mask
''', fails=("test_padding_mask",), message="a mask of numbers instead of booleans"),
    Wrong("padding_mask", '''
def padding_mask(lengths, Lk):
    return np.tile(np.arange(Lk) < max(lengths), (len(lengths), 1))
''', fails=("test_padding_mask",), message="the same mask for every sequence"),

    # masked_softmax ----------------------------------------------------------------------------
    # the range the contract allows: scores of 1e4, masked keys holding the row's largest score
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True)) * mask   # the max over every key
    total = e.sum(axis=-1, keepdims=True)
    return np.where(total > 0, e / np.where(total > 0, total, 1), 0.0)
''', fails=("test_masked_softmax",), message="the max subtracted over every key, masked ones too"),
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    e = np.where(mask, np.exp(scores), 0.0)
    total = e.sum(axis=-1, keepdims=True)
    return np.where(total > 0, e / np.where(total > 0, total, 1), 0.0)
''', fails=("test_masked_softmax",), message="without the max subtraction"),
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    return attnlab.softmax(scores) * mask
''', fails=("test_masked_softmax", "test_masked_softmax_fully_masked"), message="after the softmax"),
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    weights = attnlab.softmax(np.where(mask, -1e9, scores))
    return weights * ~mask
''', fails=("test_masked_softmax",), message="the mask inverted"),
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    return attnlab.softmax(np.where(mask, scores, -np.inf))
''', fails=("test_masked_softmax_fully_masked",), message="filling masked scores with -inf"),
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    return attnlab.softmax(np.where(mask, scores, -1e9))
''', fails=("test_masked_softmax_fully_masked",), message="big negative number (-1e9)"),
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    return attnlab.softmax(scores)
''', fails=("test_masked_softmax", "test_masked_softmax_fully_masked"), message="ignoring the mask"),
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    return attnlab.softmax(scores * mask)
''', fails=("test_masked_softmax", "test_masked_softmax_fully_masked"), message="setting masked scores to 0"),
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    weights = attnlab.softmax(np.where(mask, scores, -1e9), axis=-2)
    return weights * mask
''', fails=("test_masked_softmax",), message="the wrong axis"),
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    scores = scores.copy()
    scores[~mask] = -1e9
    return attnlab.softmax(scores) * mask
''', fails=("test_masked_softmax", "test_masked_softmax_fully_masked"), message="boolean indexing"),
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    scores[~np.broadcast_to(mask, scores.shape)] = -1e9
    return attnlab.softmax(scores) * mask
''', fails=("test_masked_softmax", "test_masked_softmax_fully_masked"), message="changed its input arrays in place"),

    # cross_attention ---------------------------------------------------------------------------
    Wrong("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(K.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    if mask is not None:
        e = e * mask                      # masked after the shift: the max saw the masked keys
    total = e.sum(axis=-1, keepdims=True)
    weights = np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)
    return weights @ V, weights
''', fails=("test_cross_attention_masked",), message="the max subtracted over every key, masked ones too"),
    Wrong("cross_attention", '''
import torch

def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q, K, V = (torch.as_tensor(a) for a in (X_q @ W_q, X_kv @ W_k, X_kv @ W_v))
    scores = Q @ K.transpose(-1, -2) / K.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~torch.as_tensor(mask), float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    return weights @ V, weights
''', fails=("test_cross_attention", "test_cross_attention_masked"),
          message="a torch tensor returned from a numpy exercise"),
    Wrong("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q = X_kv @ W_q
    K = X_kv @ W_k
    V = X_kv @ W_v
    return attnlab.scaled_dot_product_attention(Q, K, V, mask)
''', fails=("test_cross_attention", "test_cross_attention_masked"), message="queries projected from X_kv"),
    Wrong("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q = X_q @ W_q
    K = X_kv @ W_k
    V = X_kv @ W_k
    return attnlab.scaled_dot_product_attention(Q, K, V, mask)
''', fails=("test_cross_attention", "test_cross_attention_masked"), message="W_k used for the values"),
    Wrong("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(V.shape[-1])
    weights = attnlab.masked_softmax(scores, mask)
    return weights @ V, weights
''', fails=("test_cross_attention", "test_cross_attention_masked"), message="scaling by √Dv"),
    Wrong("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / Q.shape[-1]
    weights = attnlab.masked_softmax(scores, mask)
    return weights @ V, weights
''', fails=("test_cross_attention", "test_cross_attention_masked"), message="scaling by Dk"),
    Wrong("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v)
''', fails=("test_cross_attention_masked",), message="ignoring the mask"),
    Wrong("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = attnlab.softmax(scores, axis=-2)
    return weights @ V, weights
''', fails=("test_cross_attention", "test_cross_attention_masked"), message="over the queries"),
    Wrong("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    Q, K, V = X_q @ W_q, X_kv @ W_k, X_kv @ W_v
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    weights = attnlab.masked_softmax(scores, mask)
    return weights @ V, weights
''', fails=("test_cross_attention",), message="`X.T` on a batch"),
    Wrong("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    return attnlab.scaled_dot_product_attention(X_q @ W_q, X_q @ W_k, X_q @ W_v, mask)
''', fails=("test_cross_attention",), message="keys and values taken from X_q"),
    Wrong("cross_attention", '''
def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    if mask is not None:
        mask = ~mask
    return attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask)
''', fails=("test_cross_attention_masked",), message="the mask inverted"),

    # real-world classes (issue 12) ---------------------------------------------------------
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    return attnlab.softmax(scores + (~mask) * -1e9, axis=-1)
''', fails=("test_masked_softmax_fully_masked",), message="an additive mask"),
    Wrong("masked_softmax", '''
def masked_softmax(scores, mask):
    scores = np.where(mask, -np.inf, scores)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''', fails=("test_masked_softmax", "test_masked_softmax_fully_masked"),
          message="the mask inverted", label="inverted, -inf"),
    Wrong("padding_mask", '''
def padding_mask(lengths, Lk):
    return np.arange(lengths.max())[None, :] < lengths[:, None]
''', fails=("test_padding_mask",), message="as wide as the longest sequence"),

    # predict, then run ------------------------------------------------------------------------
    Wrong("predict_empty_rows", "prediction_empty_rows = set()\n",
          fails=("test_predict_empty_rows",), message="every query sees at least key 0"),
    Wrong("predict_empty_rows", "prediction_empty_rows = [3, 4]\n",
          fails=("test_predict_empty_rows",), message="the last queries see nothing"),
    Wrong("predict_empty_rows", "prediction_empty_rows = 0\n",
          fails=("test_predict_empty_rows",), message="only the first query is empty"),
    Wrong("predict_empty_rows", "prediction_empty_rows = np.array([False, False, True, True, True])\n",
          fails=("test_predict_empty_rows",), message="boolean mask"),
    Wrong("predict_unflipped_keys", "prediction_unflipped_keys = {0}\n",
          fails=("test_predict_unflipped_keys",), message="the keys our mask allows"),
    Wrong("predict_unflipped_keys", "prediction_unflipped_keys = {1, 2, 3, 4}\n",
          fails=("test_predict_unflipped_keys",), message="only the causal mask flipped"),
    Wrong("predict_unflipped_keys", "prediction_unflipped_keys = set()\n",
          fails=("test_predict_unflipped_keys",), message="everything is blocked"),
]
