NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'kernel_ridge'
MISTAKE = 'Adds the ridge to every entry of the Gram matrix (K + reg) instead of to its diagonal (K + reg * I).'
NAMED_IF = r'identity|diagonal|eye|every entry|all entries|λ ?I|reg ?\* ?I'
CODE = '''def kernel_ridge_fit(x, y, bandwidth, reg):
    """Kernel ridge regression with the Gaussian kernel: alpha = (K + reg I)⁻¹ y."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    N = len(x)
    K = np.zeros((N, N))
    for i in range(N):
        for j in range(N):
            K[i, j] = np.exp(-(x[i] - x[j])**2 / (2 * bandwidth**2))
    alpha = np.linalg.solve(K + reg, y)
    return alpha


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    """Kernel ridge predictions K(x_query, x_train) @ alpha."""
    x_query = np.asarray(x_query, dtype=float)
    x_train = np.asarray(x_train, dtype=float)
    Kq = np.exp(-(x_query[:, None] - x_train[None, :])**2 / (2 * bandwidth**2))
    return Kq @ alpha
'''
