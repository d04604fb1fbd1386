NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'kernel_ridge'
MISTAKE = 'In the fit, adds reg to every entry of K (K + reg) instead of to its diagonal (K + reg I).'
NAMED_IF = 'identity|\\bi\\b|diagonal|every entry|all entries|eye|scalar|ridge'
CODE = '''\
def kernel_ridge_fit(x, y, bandwidth, reg):
    """Kernel ridge regression with the Gaussian kernel: alpha = (K + reg I)⁻¹ y."""
    K = np.exp(-(x[:, None] - x[None, :]) ** 2 / (2 * bandwidth ** 2))   # (N, N)
    return np.linalg.solve(K + reg, y)


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    """Kernel ridge predictions K(x_query, x_train) @ alpha."""
    K = np.exp(-(x_query[:, None] - x_train[None, :]) ** 2 / (2 * bandwidth ** 2))   # (Lq, N)
    return K @ alpha
'''
