"""Wrong implementations of notebook 12's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
"""
from coursekit import Wrong

IP = ("test_icl_prompt",)
LSA = ("test_linear_self_attention",)
GD = ("test_gd_step_prediction",)
PT = ("test_previous_token_score",)
PM = ("test_prefix_matching_score",)
SA = ("test_soft_align",)

WRONG = [
    # icl_prompt ------------------------------------------------------------------------------
    Wrong("icl_prompt", '''
def icl_prompt(X, y, x_query):
    examples = np.concatenate([y[..., None], X], axis=-1)
    query = np.concatenate([np.zeros(x_query.shape[:-1] + (1,)), x_query], axis=-1)
    return np.concatenate([examples, query[..., None, :]], axis=-2)
''', IP, "target put first"),
    Wrong("icl_prompt", '''
def icl_prompt(X, y, x_query):
    examples = np.concatenate([X, y[..., None]], axis=-1)
    query = np.concatenate([x_query, np.zeros(x_query.shape[:-1] + (1,))], axis=-1)
    return np.concatenate([query[..., None, :], examples], axis=-2)
''', IP, "query row put first"),
    Wrong("icl_prompt", '''
def icl_prompt(X, y, x_query):
    return np.concatenate([X, y[..., None]], axis=-1)
''', IP, "query row forgotten"),
    Wrong("icl_prompt", '''
def icl_prompt(X, y, x_query):
    examples = np.concatenate([X, y[..., None]], axis=-1)
    query = np.concatenate([x_query, np.zeros(x_query.shape[:-1] + (1,))], axis=-1)
    Z = np.concatenate([examples, query[..., None, :]], axis=-2)
    return np.swapaxes(Z, -1, -2)
''', IP, "prompt transposed"),
    Wrong("icl_prompt", '''
def icl_prompt(X, y, x_query):
    examples = np.concatenate([X, y[..., None]], axis=-1)
    query = np.concatenate([x_query, y.mean(-1, keepdims=True)], axis=-1)
    return np.concatenate([examples, query[..., None, :]], axis=-2)
''', IP, "mean of y"),
    # linear_self_attention -------------------------------------------------------------------
    Wrong("linear_self_attention", '''
def linear_self_attention(Z, W_kq, W_pv):
    N = Z.shape[-2] - 1
    scores = Z @ W_kq @ np.swapaxes(Z, -1, -2)
    return Z + scores @ (Z @ W_pv) / N
''', LSA, "query row used as a key"),
    Wrong("linear_self_attention", '''
def linear_self_attention(Z, W_kq, W_pv):
    Z_c = Z[..., :-1, :]
    scores = Z @ W_kq @ np.swapaxes(Z_c, -1, -2)
    return Z + scores @ (Z_c @ W_pv) / Z.shape[-2]
''', LSA, "divided by N+1 instead of N"),
    Wrong("linear_self_attention", '''
def linear_self_attention(Z, W_kq, W_pv):
    N = Z.shape[-2] - 1
    Z_c = Z[..., :N, :]
    return (Z @ W_kq @ np.swapaxes(Z_c, -1, -2)) @ (Z_c @ W_pv) / N
''', LSA, "no residual"),
    Wrong("linear_self_attention", '''
def linear_self_attention(Z, W_kq, W_pv):
    N = Z.shape[-2] - 1
    Z_c = Z[..., :N, :]
    return Z + (Z @ W_kq.T @ np.swapaxes(Z_c, -1, -2)) @ (Z_c @ W_pv) / N
''', LSA, "W_kq transposed"),
    Wrong("linear_self_attention", '''
def linear_self_attention(Z, W_kq, W_pv):
    Z_c = Z[..., :-1, :]
    scores = attnlab.softmax(Z @ W_kq @ np.swapaxes(Z_c, -1, -2), axis=-1)
    return Z + scores @ (Z_c @ W_pv)
''', LSA, "a softmax over the scores"),
    # gd_step_prediction ----------------------------------------------------------------------
    Wrong("gd_step_prediction", '''
def gd_step_prediction(X, y, x_query, Gamma):
    N = X.shape[-2]
    w = np.einsum("...nd,...n->...d", X, y) @ Gamma / N
    return (x_query * w).sum(-1)
''', GD, "Γ transposed"),
    Wrong("gd_step_prediction", '''
def gd_step_prediction(X, y, x_query, Gamma):
    N = X.shape[-2]
    w = np.einsum("...nd,...n->...d", X, y) @ Gamma.T / (N + 1)
    return (x_query * w).sum(-1)
''', GD, "divided by N+1 instead of N"),
    Wrong("gd_step_prediction", '''
def gd_step_prediction(X, y, x_query, Gamma):
    w = np.einsum("...nd,...n->...d", X, y) @ Gamma.T
    return (x_query * w).sum(-1)
''', GD, "no 1/N"),
    Wrong("gd_step_prediction", '''
def gd_step_prediction(X, y, x_query, Gamma):
    N = X.shape[-2]
    w = -np.einsum("...nd,...n->...d", X, y) @ Gamma.T / N
    return (x_query * w).sum(-1)
''', GD, "sign flipped"),
    Wrong("gd_step_prediction", '''
def gd_step_prediction(X, y, x_query, Gamma):
    N = X.shape[-2]
    return np.einsum("...nd,...n->...d", X, y) @ Gamma.T / N
''', GD, "weights w returned"),
    # previous_token_score --------------------------------------------------------------------
    Wrong("previous_token_score", '''
def previous_token_score(weights):
    return float(np.diagonal(weights, offset=1, axis1=-2, axis2=-1).mean())
''', PT, "one diagonal off"),
    Wrong("previous_token_score", '''
def previous_token_score(weights):
    return float(np.diagonal(weights, axis1=-2, axis2=-1).mean())
''', PT, "weights[t, t] (the token itself)"),
    Wrong("previous_token_score", '''
def previous_token_score(weights):
    return float(np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).sum())
''', PT, "a sum instead of a mean"),
    Wrong("previous_token_score", '''
def previous_token_score(weights):
    W = weights.reshape(-1, *weights.shape[-2:])[0]
    return float(np.diagonal(W, offset=-1).mean())
''', PT, "only the first matrix"),
    # prefix_matching_score -------------------------------------------------------------------
    Wrong("prefix_matching_score", '''
def prefix_matching_score(weights, period):
    t = np.arange(period, weights.shape[-1])
    return float(weights[..., t, t - period].mean())
''', PM, "period off by one"),
    Wrong("prefix_matching_score", '''
def prefix_matching_score(weights, period):
    t = np.arange(period, weights.shape[-1])
    return float(weights[..., t, t - period + 2].mean())
''', PM, "period off by one"),
    Wrong("prefix_matching_score", '''
def prefix_matching_score(weights, period):
    t = np.arange(period - 1, weights.shape[-1])
    return float(weights[..., t, t - period + 1].mean())
''', PM, "started at t = period-1"),
    Wrong("prefix_matching_score", '''
def prefix_matching_score(weights, period):
    t = np.arange(period, weights.shape[-1])
    return float(weights[..., t, t - period + 1].sum())
''', PM, "a sum instead of a mean"),
    # soft_align ------------------------------------------------------------------------------
    Wrong("soft_align", '''
def soft_align(A, B):
    E = A @ np.swapaxes(B, -1, -2)
    beta = attnlab.softmax(E, axis=-2) @ B
    alpha = attnlab.softmax(np.swapaxes(E, -1, -2), axis=-1) @ A
    return beta, alpha
''', SA, "softmax over the wrong axis of E for beta"),
    Wrong("soft_align", '''
def soft_align(A, B):
    E = A @ np.swapaxes(B, -1, -2)
    W = attnlab.softmax(E, axis=-1)
    return W @ B, np.swapaxes(W, -1, -2) @ A
''', SA, "softmax over the wrong axis of E for alpha"),
    Wrong("soft_align", '''
def soft_align(A, B):
    E = A @ np.swapaxes(B, -1, -2)
    beta = attnlab.softmax(E, axis=-1) @ B
    alpha = attnlab.softmax(np.swapaxes(E, -1, -2), axis=-1) @ A
    return alpha, beta
''', SA, "alpha and beta swapped"),
    Wrong("soft_align", '''
def soft_align(A, B):
    E = A @ np.swapaxes(B, -1, -2) / np.sqrt(A.shape[-1])
    beta = attnlab.softmax(E, axis=-1) @ B
    alpha = attnlab.softmax(np.swapaxes(E, -1, -2), axis=-1) @ A
    return beta, alpha
''', SA, "scaled by √D"),
    # predictions -----------------------------------------------------------------------------
    Wrong("predict_beats_least_squares", 'prediction_beats_least_squares = "the trained layer"\n',
          ("test_predict_beats_least_squares",), "least squares"),
    Wrong("predict_beats_least_squares", 'prediction_beats_least_squares = "the same"\n',
          ("test_predict_beats_least_squares",), "least squares"),
    Wrong("predict_reversed_hypothesis", 'prediction_reversed_hypothesis = "different"\n',
          ("test_predict_reversed_hypothesis",), "the same"),
    Wrong("predict_reversed_hypothesis", 'prediction_reversed_hypothesis = "reversed"\n',
          ("test_predict_reversed_hypothesis",), "the same"),
]
