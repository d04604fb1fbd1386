"""Wrong implementations of notebook 06's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
"""
from coursekit import Wrong

# The right kernel_ridge_* functions, to pair with a wrong one in the same solution cell.
_KRR_FIT_OK = '''
def kernel_ridge_fit(x, y, bandwidth, reg):
    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
    return np.linalg.solve(K + reg * np.eye(len(x)), y)
'''
_KRR_PREDICT_OK = '''
def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    K = np.exp(-(x_query[:, None] - x_train[None, :])**2 / (2 * bandwidth**2))
    return K @ alpha
'''

WRONG = [
    # gaussian_attention_weights --------------------------------------------------------------
    Wrong("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = x_query[:, None] - x_keys[None, :]
    return attnlab.softmax(-d**2 / bandwidth**2, axis=-1)
''', fails=("test_gaussian_weights", "test_gaussian_weights_stable"), message="missing 1/2 in the exponent"),
    Wrong("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = x_query[:, None] - x_keys[None, :]
    return attnlab.softmax(-d**2 / (2 * bandwidth), axis=-1)
''', fails=("test_gaussian_weights",), message="σ not squared"),
    Wrong("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = x_query[:, None] - x_keys[None, :]
    return attnlab.softmax(-d**2 / (2 * bandwidth**2), axis=0)
''', fails=("test_gaussian_weights",), message="normalising over the queries"),
    Wrong("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = x_query[:, None] - x_keys[None, :]
    return np.exp(-d**2 / (2 * bandwidth**2))
''', fails=("test_gaussian_weights", "test_gaussian_weights_stable"), message="no normalisation"),
    Wrong("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = np.abs(x_query[:, None] - x_keys[None, :])
    return attnlab.softmax(-d / (2 * bandwidth**2), axis=-1)
''', fails=("test_gaussian_weights",), message="distances not squared"),
    Wrong("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = x_query[:, None] - x_keys[None, :]
    e = np.exp(-d**2 / (2 * bandwidth**2))
    return e / e.sum(axis=1, keepdims=True)
''', fails=("test_gaussian_weights_stable",), message="no max subtraction"),
    Wrong("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = x_keys[:, None] - x_query[None, :]
    return attnlab.softmax(-d**2 / (2 * bandwidth**2), axis=-1)
''', fails=("test_gaussian_weights", "test_gaussian_weights_stable"), message="queries and keys swapped"),
    Wrong("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    d = x_query[:, None] - x_keys[None, :]
    return attnlab.softmax(d**2 / (2 * bandwidth**2), axis=-1)
''', fails=("test_gaussian_weights",), message="a plus sign in the exponent"),

    # nadaraya_watson --------------------------------------------------------------------------
    Wrong("nadaraya_watson", '''
def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    K = np.exp(-(x_query[:, None] - x_keys[None, :])**2 / (2 * bandwidth**2))
    return K @ y_values
''', fails=("test_nadaraya_watson",), message="kernel-weighted sum instead of an average"),
    Wrong("nadaraya_watson", '''
def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    scores = -(x_query[:, None] - x_keys[None, :])**2 / (2 * bandwidth**2)
    return attnlab.softmax(scores, axis=0) @ y_values
''', fails=("test_nadaraya_watson",), message="normalised over the queries"),
    Wrong("nadaraya_watson", '''
def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    return attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth) * y_values
''', fails=("test_nadaraya_watson",), message="without summing them"),
    Wrong("nadaraya_watson", '''
def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    return np.full(len(x_query), np.mean(y_values))
''', fails=("test_nadaraya_watson",), message="plain mean of the targets"),
    Wrong("nadaraya_watson", '''
def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    return y_values @ attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth)
''', fails=("test_nadaraya_watson",), message="wrong way round"),
    Wrong("nadaraya_watson", '''
def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    scores = -(x_query[:, None] - x_keys[None, :])**2 / (2 * bandwidth)
    return attnlab.softmax(scores) @ y_values
''', fails=("test_nadaraya_watson",), message="σ not squared"),

    # fit_bandwidth ----------------------------------------------------------------------------
    Wrong("fit_bandwidth", '''
def fit_bandwidth(x, y, candidates):
    best, best_error = None, np.inf
    for sigma in candidates:
        scores = -(x[:, None] - x[None, :]) ** 2 / (2 * sigma ** 2)
        weights = attnlab.masked_softmax(scores, ~np.eye(len(x), dtype=bool))
        error = np.mean((weights @ y - y) ** 2)
        if error <= best_error:  # a tie replaces the best: the last of equal errors wins
            best, best_error = sigma, error
    return float(best)
''', fails=("test_fit_bandwidth_candidates",), message="the last of tied candidates kept"),
    Wrong("fit_bandwidth", '''
def fit_bandwidth(x, y, candidates):
    errors = []
    for sigma in candidates:
        pred = attnlab.nadaraya_watson(x, x, y, sigma)
        errors.append(np.mean((pred - y)**2))
    return candidates[np.argmin(errors)]
''', fails=("test_fit_bandwidth", "test_fit_bandwidth_candidates"), message="no leave-one-out"),
    Wrong("fit_bandwidth", '''
def fit_bandwidth(x, y, candidates):
    errors = []
    for sigma in candidates:
        W = attnlab.gaussian_attention_weights(x, x, sigma)
        np.fill_diagonal(W, 0.0)
        errors.append(np.mean((W @ y - y)**2))
    return candidates[np.argmin(errors)]
''', fails=("test_fit_bandwidth",), message="not renormalised"),
    Wrong("fit_bandwidth", '''
def fit_bandwidth(x, y, candidates):
    N = len(x)
    errors = []
    for sigma in candidates:
        scores = -(x[:, None] - x[None, :])**2 / (2 * sigma**2)
        W = attnlab.masked_softmax(scores, ~np.eye(N, dtype=bool))
        errors.append(np.mean((W @ y - y)**2))
    return candidates[np.argmax(errors)]
''', fails=("test_fit_bandwidth", "test_fit_bandwidth_candidates"), message="highest error"),
    Wrong("fit_bandwidth", '''
def fit_bandwidth(x, y, candidates):
    N = len(x)
    errors = []
    for sigma in candidates:
        scores = -(x[:, None] - x[None, :])**2 / (2 * sigma**2)
        W = attnlab.masked_softmax(scores, ~np.eye(N, dtype=bool))
        errors.append(np.mean((W @ y - y)**2))
    return min(errors)
''', fails=("test_fit_bandwidth", "test_fit_bandwidth_candidates"), message="returning the lowest error"),
    Wrong("fit_bandwidth", '''
def fit_bandwidth(x, y, candidates):
    N = len(x)
    errors = []
    for sigma in candidates:
        scores = -(x[:, None] - x[None, :])**2 / (2 * sigma**2)
        W = attnlab.masked_softmax(scores, ~np.eye(N, dtype=bool))
        errors.append(np.mean((W @ y - y)**2))
    return np.argmin(errors)
''', fails=("test_fit_bandwidth", "test_fit_bandwidth_candidates"), message="returning the index"),
    Wrong("fit_bandwidth", '''
def fit_bandwidth(x, y, candidates):
    N = len(x)
    best, best_error = None, np.inf
    for sigma in candidates:
        scores = -(x[:, None] - x[None, :])**2 / sigma**2
        W = attnlab.masked_softmax(scores, ~np.eye(N, dtype=bool))
        error = np.mean((W @ y - y)**2)
        if error < best_error:
            best, best_error = sigma, error
    return best
''', fails=("test_fit_bandwidth",), message="missing 1/2"),

    # kernel_ridge (fit and predict in one cell) -----------------------------------------------
    Wrong("kernel_ridge", '''
def kernel_ridge_fit(x, y, bandwidth, reg):
    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
    return np.linalg.solve(K, y)
''' + _KRR_PREDICT_OK, fails=("test_kernel_ridge_fit",), message="no regularisation"),
    Wrong("kernel_ridge", '''
def kernel_ridge_fit(x, y, bandwidth, reg):
    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
    return np.linalg.inv(K) @ y + reg * y
''' + _KRR_PREDICT_OK, fails=("test_kernel_ridge_fit",), message="reg added outside the inverse"),
    Wrong("kernel_ridge", '''
def kernel_ridge_fit(x, y, bandwidth, reg):
    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
    return np.linalg.solve(K + reg, y)
''' + _KRR_PREDICT_OK, fails=("test_kernel_ridge_fit",), message="reg added to every entry"),
    Wrong("kernel_ridge", '''
def kernel_ridge_fit(x, y, bandwidth, reg):
    K = np.exp(-bandwidth * (x[:, None] - x[None, :])**2)
    return np.linalg.solve(K + reg * np.eye(len(x)), y)
''' + _KRR_PREDICT_OK, fails=("test_kernel_ridge_fit",), message="precision γ"),
    Wrong("kernel_ridge", '''
def kernel_ridge_fit(x, y, bandwidth, reg):
    K = attnlab.gaussian_attention_weights(x, x, bandwidth)
    return np.linalg.solve(K + reg * np.eye(len(x)), y)
''' + _KRR_PREDICT_OK, fails=("test_kernel_ridge_fit",), message="softmax-normalised kernel"),
    Wrong("kernel_ridge", '''
def kernel_ridge_fit(x, y, bandwidth, reg):
    K = np.exp(-(x[:, None] - x[None, :])**2 / bandwidth**2)
    return np.linalg.solve(K + reg * np.eye(len(x)), y)


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    K = np.exp(-(x_query[:, None] - x_train[None, :])**2 / bandwidth**2)
    return K @ alpha
''', fails=("test_kernel_ridge_fit", "test_kernel_ridge_predict"), message="missing 1/2"),
    Wrong("kernel_ridge", _KRR_FIT_OK + '''
def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    K = np.exp(-(x_train[:, None] - x_query[None, :])**2 / (2 * bandwidth**2))
    return K @ alpha
''', fails=("test_kernel_ridge_predict",), message="without transposing"),
    Wrong("kernel_ridge", _KRR_FIT_OK + '''
def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    return attnlab.gaussian_attention_weights(x_query, x_train, bandwidth) @ alpha
''', fails=("test_kernel_ridge_predict",), message="attention weights (a softmax-normalised kernel)"),
    Wrong("kernel_ridge", _KRR_FIT_OK + '''
def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    K = np.exp(-(x_query[:, None] - x_train[None, :])**2 / (2 * bandwidth**2))
    return K.sum(axis=1)
''', fails=("test_kernel_ridge_predict",), message="alpha ignored"),
    Wrong("kernel_ridge", _KRR_FIT_OK + '''
def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    K = np.exp(-(x_query[:, None] - x_train[None, :])**2 / (2 * bandwidth))
    return K @ alpha
''', fails=("test_kernel_ridge_predict",), message="σ not squared"),

    # linear_attention -------------------------------------------------------------------------
    Wrong("linear_attention", '''
def linear_attention(Q, K, V, feature_map, causal=False):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    A = phi_Q @ np.swapaxes(phi_K, -1, -2)
    if causal:
        A = np.tril(A)
    return A @ V
''', fails=("test_linear_attention", "test_linear_attention_causal"), message="no normaliser"),
    Wrong("linear_attention", '''
def linear_attention(Q, K, V, feature_map, causal=False):
    phi_K = feature_map(K)
    A = Q @ np.swapaxes(phi_K, -1, -2)
    if causal:
        A = np.tril(A)
    return A / A.sum(axis=-1, keepdims=True) @ V
''', fails=("test_linear_attention", "test_linear_attention_causal"), message="not applied to the queries"),
    Wrong("linear_attention", '''
def linear_attention(Q, K, V, feature_map, causal=False):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    S = np.swapaxes(phi_K, -1, -2) @ V
    return phi_Q @ S / (phi_Q @ phi_K.sum(axis=-2)[..., None])
''', fails=("test_linear_attention_causal",), message="causal ignored"),
    Wrong("linear_attention", '''
def linear_attention(Q, K, V, feature_map, causal=False):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    if not causal:
        S = np.swapaxes(phi_K, -1, -2) @ V
        return phi_Q @ S / (phi_Q @ phi_K.sum(axis=-2)[..., None])
    S = np.cumsum(phi_K[..., :, :, None] * V[..., :, None, :], axis=-3) - phi_K[..., :, :, None] * V[..., :, None, :]
    z = np.cumsum(phi_K, axis=-2) - phi_K
    return np.einsum("...lm,...lmv->...lv", phi_Q, S) / np.sum(phi_Q * z, axis=-1, keepdims=True)
''', fails=("test_linear_attention_causal",), message="prefix sum off by one"),
    Wrong("linear_attention", '''
def linear_attention(Q, K, V, feature_map, causal=False):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    S = phi_K.T @ V
    return phi_Q @ S / (phi_Q @ phi_K.sum(axis=-2)[..., None])
''', fails=("test_linear_attention",), message="`.T` on a batch"),
    Wrong("linear_attention", '''
def linear_attention(Q, K, V, feature_map, causal=False):
    A = feature_map(Q) @ np.swapaxes(feature_map(K), -1, -2)
    A = A / A.sum(axis=-1, keepdims=True)
    if causal:
        A = np.tril(A)
    return A @ V
''', fails=("test_linear_attention_causal",), message="mask applied after normalising"),
    Wrong("linear_attention", '''
def linear_attention(Q, K, V, feature_map, causal=False):
    scores = Q @ np.swapaxes(K, -1, -2)
    if causal:
        scores = np.where(np.tril(np.ones(scores.shape[-2:], dtype=bool)), scores, -np.inf)
    return attnlab.softmax(scores, axis=-1) @ V
''', fails=("test_linear_attention", "test_linear_attention_causal"), message="softmax attention"),
    Wrong("linear_attention", '''
def linear_attention(Q, K, V, feature_map, causal=False):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    A = phi_Q @ np.swapaxes(phi_K, -1, -2)
    if causal:
        A = np.tril(A)
    return A / A.sum(axis=-2, keepdims=True) @ V
''', fails=("test_linear_attention", "test_linear_attention_causal"), message="normalising over the queries"),

    # linear_attention_recurrent ---------------------------------------------------------------
    Wrong("linear_attention_recurrent", '''
def linear_attention_recurrent(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    S = np.zeros((phi_K.shape[1], V.shape[1]))
    z = np.zeros(phi_K.shape[1])
    out = []
    for t in range(len(Q)):
        out.append(phi_Q[t] @ S / (phi_Q[t] @ z))
        S = S + np.outer(phi_K[t], V[t])
        z = z + phi_K[t]
    return np.array(out)
''', fails=("test_linear_attention_recurrent",), message="state updated after the readout"),
    Wrong("linear_attention_recurrent", '''
def linear_attention_recurrent(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    S = np.zeros((phi_K.shape[1], V.shape[1]))
    out = []
    for t in range(len(Q)):
        S = S + np.outer(phi_K[t], V[t])
        out.append(phi_Q[t] @ S)
    return np.array(out)
''', fails=("test_linear_attention_recurrent",), message="no normaliser"),
    Wrong("linear_attention_recurrent", '''
def linear_attention_recurrent(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    out = []
    for t in range(len(Q)):
        S = np.outer(phi_K[t], V[t])
        z = phi_K[t]
        out.append(phi_Q[t] @ S / (phi_Q[t] @ z))
    return np.array(out)
''', fails=("test_linear_attention_recurrent",), message="state overwritten instead of accumulated"),
    Wrong("linear_attention_recurrent", '''
def linear_attention_recurrent(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    S = np.zeros((phi_K.shape[1], V.shape[1]))
    z = np.zeros(K.shape[1])
    out = []
    for t in range(len(Q)):
        S = S + np.outer(phi_K[t], V[t])
        z = z + K[t]
        out.append(phi_Q[t] @ S / (phi_Q[t] @ z))
    return np.array(out)
''', fails=("test_linear_attention_recurrent",), message="normaliser without the feature map"),
    Wrong("linear_attention_recurrent", '''
def linear_attention_recurrent(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    S = phi_K.T @ V
    z = phi_K.sum(axis=0)
    return np.array([phi_Q[t] @ S / (phi_Q[t] @ z) for t in range(len(Q))])
''', fails=("test_linear_attention_recurrent",), message="reading the final state"),
    Wrong("linear_attention_recurrent", '''
def linear_attention_recurrent(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    S = np.zeros((phi_K.shape[1], V.shape[1]))
    z = np.zeros(phi_K.shape[1])
    for t in range(len(Q)):
        S = S + np.outer(phi_K[t], V[t])
        z = z + phi_K[t]
        out = phi_Q[t] @ S / (phi_Q[t] @ z)
    return out
''', fails=("test_linear_attention_recurrent",), message="returning only the last output"),

    # real-world classes (issue 12) ---------------------------------------------------------
    Wrong("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    scores = -(x_query[:, None] - x_keys[None, :]) ** 2 / 2  # sigma = 1
    return attnlab.softmax(scores, axis=-1)
''', fails=("test_gaussian_weights",), message="the bandwidth ignored"),
    Wrong("nadaraya_watson", '''
def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    return attnlab.gaussian_attention_weights(x_query, x_keys, 1.0) @ y_values
''', fails=("test_nadaraya_watson",), message="the bandwidth ignored"),

    # predict, then run ------------------------------------------------------------------------
    Wrong("predict_gradient_decay", 'prediction_gradient_decay = "exponentially"\n',
          fails=("test_predict_gradient_decay",), message="attention decays like a recurrence"),
    Wrong("predict_gradient_decay", 'prediction_gradient_decay = "Constant "\n',
          fails=("test_predict_gradient_decay",), message="a path of length 1 loses nothing"),
    Wrong("predict_gradient_decay", 'prediction_gradient_decay = "1/L"\n',
          fails=("test_predict_gradient_decay",), message="expected one of"),
    Wrong("predict_first_output", 'prediction_first_output = "zero"\n',
          fails=("test_predict_first_output",), message="no earlier token, nothing to read"),
    Wrong("predict_first_output", 'prediction_first_output = "the mean of all the values"\n',
          fails=("test_predict_first_output",), message="linear attention has no causal mask"),
    Wrong("predict_first_output", 'prediction_first_output = "it depends on q_0 and k_0"\n',
          fails=("test_predict_first_output",), message="the weights depend on the features"),
]
