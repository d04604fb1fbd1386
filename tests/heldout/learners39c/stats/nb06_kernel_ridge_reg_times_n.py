NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'kernel_ridge'
MISTAKE = 'adds N * lambda to the diagonal (the scikit-learn-style per-sample ridge) instead of lambda'
NAMED_IF = 'reg|λ|lambda|ridge|\\bN\\b|n ?\\*|scal|regulari|diagonal'
CODE = '''def kernel_ridge_fit(x, y, bandwidth, reg):
    """Kernel ridge regression with the Gaussian kernel: alpha = (K + reg I)⁻¹ y."""
    x = np.asarray(x, dtype=float); y = np.asarray(y, dtype=float)
    N = len(x)
    Kmat = np.exp(-(x[:, None] - x[None, :]) ** 2 / (2 * bandwidth ** 2))
    return np.linalg.solve(Kmat + N * reg * np.eye(N), y)   # penalty per sample


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    """Kernel ridge predictions K(x_query, x_train) @ alpha."""
    xq = np.asarray(x_query, dtype=float); xt = np.asarray(x_train, dtype=float)
    Kq = np.exp(-(xq[:, None] - xt[None, :]) ** 2 / (2 * bandwidth ** 2))
    return Kq @ np.asarray(alpha, dtype=float)
'''
