"""Notebook 06: wrong implementations the catalogue does not list."""
from uncatalogued import U

WRONG = [
    U("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    diff = np.asarray(x_query, dtype=float)[:, None] - np.asarray(x_keys, dtype=float)[None, :]
    return attnlab.softmax(-diff**2 / 2 * bandwidth**2, axis=-1)
''', "test_gaussian_weights", "precedence: multiplied by σ²/2", words=("bandwidth", "σ", "sigma"), kind="constant"),
    U("gaussian_attention_weights", '''
import torch
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    xq = torch.as_tensor(x_query, dtype=torch.float64)
    xk = torch.as_tensor(x_keys, dtype=torch.float64)
    return torch.softmax(-(xq[:, None] - xk[None, :])**2 / (2 * bandwidth**2), dim=-1)
''', "test_gaussian_weights", "in torch, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    diff = np.asarray(x_query, dtype=float)[:, None] - np.asarray(x_keys, dtype=float)[None, :]
    e = np.exp(-diff**2 / (2 * bandwidth**2))
    return e / e.sum(axis=0, keepdims=True)
''', ("test_gaussian_weights", "test_gaussian_weights_stable"), "no max subtraction and over the queries",
      words=("axis", "over the queries", "max subtraction"), kind="two at once"),
    U("gaussian_attention_weights", '''
def gaussian_attention_weights(x_query, x_keys, bandwidth):
    diff = np.asarray(x_query, dtype=float)[:, None] - np.asarray(x_keys, dtype=float)[None, :]
    return attnlab.softmax(-np.abs(diff) / (2 * bandwidth**2), axis=-1)
''', "test_gaussian_weights", "a Laplace kernel (|d| instead of d²)", kind="kernel"),

    U("nadaraya_watson", '''
def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    weights = attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth)
    return (weights * np.asarray(y_values, dtype=float)).mean(axis=-1)
''', "test_nadaraya_watson", "mean over the keys instead of the sum", words=("factor", "mean", "sum"),
      kind="constant"),
    U("nadaraya_watson", '''
def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    weights = attnlab.gaussian_attention_weights(x_keys, x_query, bandwidth)
    return np.asarray(y_values, dtype=float) @ weights
''', "test_nadaraya_watson", "weights of the keys over the queries, y @ W", words=("swap", "queries", "keys"),
      kind="arguments swapped"),
    U("nadaraya_watson", '''
import torch
def nadaraya_watson(x_query, x_keys, y_values, bandwidth):
    weights = attnlab.gaussian_attention_weights(x_query, x_keys, bandwidth)
    return torch.from_numpy(weights @ np.asarray(y_values, dtype=float))
''', "test_nadaraya_watson", "a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),

    U("fit_bandwidth", '''
def fit_bandwidth(x, y, candidates):
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    N = len(x)
    others = ~np.eye(N, k=1, dtype=bool)
    errors = []
    for sigma in candidates:
        w = attnlab.masked_softmax(-(x[:, None] - x[None, :])**2 / (2 * sigma**2), others)
        errors.append(np.mean((w @ y - y)**2))
    return candidates[int(np.argmin(errors))]
''', "test_fit_bandwidth", "leaves out the next point instead of itself", kind="off-by-one"),
    U("fit_bandwidth", '''
def fit_bandwidth(x, y, candidates):
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    others = ~np.eye(len(x), dtype=bool)
    errors = []
    for sigma in np.sort(candidates):
        w = attnlab.masked_softmax(-(x[:, None] - x[None, :])**2 / (2 * sigma**2), others)
        errors.append(np.mean((w @ y - y)**2))
    return candidates[int(np.argmin(errors))]
''', "test_fit_bandwidth_candidates", "errors of the sorted candidates, index into the unsorted", needs_layer=True,
      words=("order", "candidate", "sort"), kind="order"),

    U("kernel_ridge", '''
def kernel_ridge_fit(x, y, bandwidth, reg):
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    K = np.exp(-(x[:, None] - x[None, :])**2 / bandwidth**2)
    return np.linalg.solve(K, y)


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    K = np.exp(-(np.asarray(x_query, dtype=float)[:, None] - np.asarray(x_train, dtype=float)[None, :])**2
               / (2 * bandwidth**2))
    return K @ np.asarray(alpha, dtype=float)
''', "test_kernel_ridge_fit", "no ridge and no 1/2 in the fit", needs_layer=True, words=("reg", "ridge", "1/2", "2σ"),
      kind="two at once"),
    U("kernel_ridge", '''
import torch
def kernel_ridge_fit(x, y, bandwidth, reg):
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
    return np.linalg.solve(K + reg * np.eye(len(x)), y)


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    K = np.exp(-(np.asarray(x_query, dtype=float)[:, None] - np.asarray(x_train, dtype=float)[None, :])**2
               / (2 * bandwidth**2))
    return torch.from_numpy(K) @ torch.as_tensor(alpha, dtype=torch.float64)
''', "test_kernel_ridge_predict", "predict returns a tensor", words=("tensor", "torch", "numpy"),
      kind="torch/numpy"),
    U("kernel_ridge", '''
def kernel_ridge_fit(x, y, bandwidth, reg):
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
    K += reg * np.eye(len(x))
    return np.linalg.inv(K) @ y


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    x_query = np.asarray(x_query, dtype=float)
    K = np.exp(-(x_query[:, None] - np.asarray(x_train, dtype=float)[None, :])**2 / (2 * bandwidth))
    return K @ np.asarray(alpha, dtype=float)
''', "test_kernel_ridge_predict", "σ not squared in predict only", words=("σ", "bandwidth", "squared"),
      kind="constant"),

    U("linear_attention", '''
def linear_attention(Q, K, V, feature_map, causal=False):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    if not causal:
        return (phi_Q @ (phi_K.T @ V)) / (phi_Q @ phi_K.sum(axis=0))[:, None]
    S = np.cumsum(phi_K[:, :, None] * V[:, None, :], axis=0)
    z = np.cumsum(phi_K, axis=0)
    return np.einsum("lm,lmv->lv", phi_Q, S) / np.sum(phi_Q * z, axis=-1, keepdims=True)
''', ("test_linear_attention", "test_linear_attention_causal"), "one sequence only (no batch axis)",
      words=("batch axis", "leading axes", ".T"), kind="fixed-rank"),
    U("linear_attention", '''
def linear_attention(Q, K, V, feature_map, causal=False):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    A = phi_Q @ np.swapaxes(phi_K, -1, -2)
    if causal:
        A = np.tril(A)
    return (A / A.sum(axis=-1, keepdims=True)) @ V
''', ("test_linear_attention", "test_linear_attention_causal"), "the (Lq, Lk) kernel matrix (quadratic)", words=("quadratic", "kernel matrix", "memory"),
      kind="mechanism"),

    U("linear_attention_recurrent", '''
def linear_attention_recurrent(Q, K, V, feature_map):
    return attnlab.linear_attention(Q, K, V, feature_map, causal=True)
''', "test_linear_attention_recurrent", "the library's prefix-sum version, no recurrence", words=("running state", "recurrence", "prefix"), kind="mechanism"),
    U("linear_attention_recurrent", '''
def linear_attention_recurrent(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    L, M = phi_K.shape
    S = np.zeros((M, V.shape[-1]))
    z = np.zeros(M)
    outputs = []
    for t in range(L):
        S = S + np.outer(phi_K[t], V[t])
        outputs.append(phi_Q[t] @ S / (phi_Q[t] @ (z + 1e-9)))
        z = z + phi_K[t]
    return np.array(outputs)
''', "test_linear_attention_recurrent", "normaliser updated after the readout", kind="off-by-one"),
    U("linear_attention_recurrent", '''
import torch
def linear_attention_recurrent(Q, K, V, feature_map):
    phi_Q, phi_K = feature_map(Q), feature_map(K)
    L, M = phi_K.shape
    S = torch.zeros(M, V.shape[-1], dtype=torch.float64)
    z = torch.zeros(M, dtype=torch.float64)
    outputs = []
    for t in range(L):
        S = S + torch.outer(torch.as_tensor(phi_K[t]), torch.as_tensor(V[t]))
        z = z + torch.as_tensor(phi_K[t])
        q = torch.as_tensor(phi_Q[t])
        outputs.append(q @ S / (q @ z))
    return torch.stack(outputs)
''', "test_linear_attention_recurrent", "a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
]
