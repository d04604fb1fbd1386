NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'kernel_ridge'
MISTAKE = "Builds both kernels with exp(-(x - x')^2 / (2 sigma)) instead of 2 sigma^2."
NAMED_IF = r"σ²|σ\^?2|sigma\s*(\*\*|\^)\s*2|squared? (bandwidth|sigma|σ|width)|(bandwidth|sigma|σ|width)[^.]{0,20}(not )?squared|2 ?σ\b|2 ?sigma\b|2 ?\* ?bandwidth\b|2σ²"
CODE = '''def kernel_ridge_fit(x, y, bandwidth, reg):
    x = np.asarray(x, dtype=float)
    K = (x[:, None] - x[None, :]) ** 2
    K /= -2 * bandwidth
    np.exp(K, out=K)
    K[np.diag_indices(len(x))] += reg
    return np.linalg.solve(K, np.asarray(y, dtype=float))


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    Kq = (x_query[:, None] - x_train[None, :]) ** 2
    Kq /= -2 * bandwidth
    np.exp(Kq, out=Kq)
    return Kq @ alpha
'''
