NOTEBOOK = "06_attention_as_kernel_machine"
CELL = "kernel_ridge"
MISTAKE = "Solves (K + N·λ I) alpha = y (the 1/N-averaged-loss convention) instead of (K + λ I) alpha = y."
NAMED_IF = r"N ?\*? ?λ|N ?\*? ?reg|n ?λ|λ ?N|reg.{0,30}(N|length|number)|ridge.{0,30}(scal|N)|\(K ?\+ ?λ ?I\)"
CODE = '''
def kernel_ridge_fit(x, y, bandwidth, reg):
    """Kernel ridge regression with the Gaussian kernel: alpha = (K + reg I)⁻¹ y."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    N = len(x)
    K = np.exp(-(x[:, None] - x[None, :]) ** 2 / (2 * bandwidth ** 2))
    return np.linalg.solve(K + N * reg * np.eye(N), y)


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    """Kernel ridge predictions K(x_query, x_train) @ alpha."""
    x_query = np.asarray(x_query, dtype=float)
    x_train = np.asarray(x_train, dtype=float)
    K = np.exp(-(x_query[:, None] - x_train[None, :]) ** 2 / (2 * bandwidth ** 2))
    return K @ np.asarray(alpha, dtype=float)
'''
