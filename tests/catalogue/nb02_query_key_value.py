"""Wrong implementations of notebook 02's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
"""
from coursekit import Wrong

SDPA_ALL = ("test_sdpa", "test_sdpa_batched", "test_sdpa_mask", "test_sdpa_fully_masked")
SDPA_MASKS = ("test_sdpa_mask", "test_sdpa_fully_masked")

WRONG = [
    # attend ----------------------------------------------------------------------------------
    Wrong("attend", '''
def attend(q, K, V):
    scores = K @ q / np.sqrt(len(q))
    weights = np.zeros(len(K), dtype=int)
    weights[np.argmax(scores)] = 1          # hard attention: a one-hot of the best key
    return weights @ V, weights
''', fails=("test_attend",), message="an integer (or boolean) array returned where the answer is floats"),
    Wrong("attend", '''
def attend(q, K, V):
    weights = attnlab.softmax(K @ q)
    return weights @ V, weights
''', fails=("test_attend",), message="no scaling"),
    Wrong("attend", '''
def attend(q, K, V):
    d_k = len(q)
    weights = attnlab.softmax(K @ q / d_k)
    return weights @ V, weights
''', fails=("test_attend",), message="scaling by Dk instead of √Dk"),
    Wrong("attend", '''
def attend(q, K, V):
    weights = attnlab.softmax(K @ q / np.sqrt(V.shape[1]))
    return weights @ V, weights
''', fails=("test_attend",), message="scaling by √Dv"),
    Wrong("attend", '''
def attend(q, K, V):
    weights = attnlab.softmax(K @ q / np.sqrt(len(q)))
    return weights, weights @ V
''', fails=("test_attend", "test_attend_sharp"), message="returning (weights, output)"),
    Wrong("attend", '''
def attend(q, K, V):
    weights = attnlab.softmax(K @ q / np.sqrt(len(q)))
    return weights @ K, weights
''', fails=("test_attend", "test_attend_sharp"), message="averaging the keys"),
    Wrong("attend", '''
def attend(q, K, V):
    scores = q @ K / np.sqrt(len(q))
    weights = attnlab.softmax(scores)
    return weights @ V, weights
''', fails=("test_attend", "test_attend_sharp"), message="over the wrong axis"),
    Wrong("attend", '''
def attend(q, K, V):
    e = np.exp(K @ q / np.sqrt(len(q)))
    weights = e / e.sum()
    return weights @ V, weights
''', fails=("test_attend_sharp",), message="without max subtraction"),

    # score_variance --------------------------------------------------------------------------
    Wrong("score_variance", '''
def score_variance(d_k, n_samples, rng):
    q = np.random.randn(n_samples, d_k)  # numpy's global generator, not the one passed in
    k = np.random.randn(n_samples, d_k)
    return float(np.var(np.sum(q * k, axis=1)))
''', fails=("test_score_variance", "test_score_variance_rng"), message="numpy's global random state", label="np.random.randn, rng unused"),
    Wrong("score_variance", '''
def score_variance(d_k, n_samples, rng):
    return float(d_k)  # the theory says so
''', fails=("test_score_variance",), message="a fixed number", label="hard-coded d_k"),
    Wrong("score_variance", '''
def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(q))
''', fails=("test_score_variance",), message="a variance near 1 instead of d_k"),
    Wrong("score_variance", '''
def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    scores = (q * k).sum(axis=1) / np.sqrt(d_k)
    return float(scores.var())
''', fails=("test_score_variance",), message="a variance near 1 instead of d_k", label="scaled score"),
    Wrong("score_variance", '''
def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.std(np.sum(q * k, axis=1)))
''', fails=("test_score_variance",), message="the standard deviation instead of the variance"),
    Wrong("score_variance", '''
def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.mean(np.sum(q * k, axis=1)))
''', fails=("test_score_variance",), message="the mean of the dot products"),
    Wrong("score_variance", '''
def score_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    return float(np.var(np.einsum("nd,nd->n", q, q)))
''', fails=("test_score_variance",), message="q·q instead of q·k"),
    Wrong("score_variance", '''
def score_variance(d_k, n_samples, rng):
    q = np.random.randn(n_samples, d_k)
    k = np.random.randn(n_samples, d_k)
    return float(np.var(np.sum(q * k, axis=1)))
''', fails=("test_score_variance_rng",), message="global random state"),
    Wrong("score_variance", '''
def score_variance(d_k, n_samples, rng):
    gen = np.random.default_rng(42)
    q = gen.normal(size=(n_samples, d_k))
    k = gen.normal(size=(n_samples, d_k))
    return float(np.var(np.sum(q * k, axis=1)))
''', fails=("test_score_variance_rng",), message="a generator of your own"),
    Wrong("score_variance", '''
def score_variance(d_k, n_samples, rng):
    return float(d_k) * (1 + np.sqrt((2 + 6 / d_k) / n_samples) * rng.standard_normal())
''', fails=("test_score_variance_rng",), message="noise made to scatter like an estimate"),

    # scaled_dot_product_attention --------------------------------------------------------------
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))   # the max over every key
    if mask is not None:
        e = e * mask
    total = e.sum(axis=-1, keepdims=True)
    weights = np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)
    return weights @ V, weights
''', fails=("test_sdpa_mask",), message="the max subtracted over every key, masked ones too"),
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1)
    return weights @ V, weights
''', fails=("test_sdpa_batched", "test_sdpa_mask", "test_sdpa_fully_masked"), message="`K.T` on a batch"),
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1)
    return weights @ V, weights
''', fails=SDPA_ALL, message="no scaling"),
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / d_k
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1)
    return weights @ V, weights
''', fails=SDPA_ALL, message="scaling by Dk instead of √Dk"),
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-2, keepdims=True))
    weights = e / e.sum(axis=-2, keepdims=True)
    return weights @ V, weights
''', fails=SDPA_ALL, message="over the queries (axis -2)"),
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    weights = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]))
    return weights @ V, weights
''', fails=SDPA_MASKS, message="the mask is ignored"),
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores[mask] = -np.inf
    m = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1)
    return weights @ V, weights
''', fails=SDPA_MASKS, message="the mask is inverted"),
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    weights = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]))
    if mask is not None:
        weights = weights * mask
    return weights @ V, weights
''', fails=SDPA_MASKS, message="after the softmax (weights * mask) without renormalising"),
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    weights = attnlab.softmax(scores)
    return weights @ V, weights
''', fails=("test_sdpa_fully_masked",), message="uniform weights instead of zeros"),
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    weights = attnlab.softmax(scores)
    return weights @ V, weights
''', fails=("test_sdpa_fully_masked",), message="a fully masked row becomes NaN"),
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isfinite(m), m, 0))
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1)
    return weights, weights @ V
''', fails=SDPA_ALL, message="returning (weights, output)"),

    # real-world classes (issue 12) ---------------------------------------------------------
    Wrong("scaled_dot_product_attention", '''
import torch

def scaled_dot_product_attention(Q, K, V, mask=None):
    Q, K, V = (torch.as_tensor(a, dtype=torch.float32) for a in (Q, K, V))
    scores = Q @ K.T / K.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~torch.as_tensor(mask), float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
    return (weights @ V).numpy(), weights.numpy()
''', fails=("test_sdpa_batched",), message="`K.T` on a batch", label="torch K.T"),
    Wrong("scaled_dot_product_attention", '''
def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = scores + (1.0 - mask) * -1e9
    weights = attnlab.softmax(scores)
    return weights @ V, weights
''', fails=("test_sdpa_fully_masked",), message="an additive mask"),
    # predict, then run ------------------------------------------------------------------------
    Wrong("predict_dot_winner", 'prediction_dot_winner = "k1"\n',
          fails=("test_predict_dot_winner",), message="the best-aligned key wins"),
    Wrong("predict_dot_winner", 'prediction_dot_winner = "K4"\n',
          fails=("test_predict_dot_winner",), message="whatever its sign"),
    Wrong("predict_dot_winner", 'prediction_dot_winner = 2\n',
          fails=("test_predict_dot_winner",), message="expected one of 'k1'"),
    Wrong("predict_score_variance", "prediction_score_variance = 8\n",
          fails=("test_predict_score_variance",), message="the standard deviation"),
    Wrong("predict_score_variance", "prediction_score_variance = 1.0\n",
          fails=("test_predict_score_variance",), message="give a standard-normal score"),
    Wrong("predict_score_variance", "prediction_score_variance = 64 ** 2\n",
          fails=("test_predict_score_variance",), message="d_k² instead of d_k"),
    Wrong("predict_score_variance", "prediction_score_variance = 0\n",
          fails=("test_predict_score_variance",), message="orthogonal"),
    Wrong("predict_score_variance", 'prediction_score_variance = "64"\n',
          fails=("test_predict_score_variance",), message="without quotes"),
    Wrong("predict_weights_shape", "prediction_weights_shape = (2, 4, 5)\n",
          fails=("test_predict_weights_shape",), message="the shape of the output"),
    Wrong("predict_weights_shape", "prediction_weights_shape = [2, 6, 4]\n",
          fails=("test_predict_weights_shape",), message="keys down the rows"),
    Wrong("predict_weights_shape", "prediction_weights_shape = (4, 6)\n",
          fails=("test_predict_weights_shape",), message="no batch axis"),
]
