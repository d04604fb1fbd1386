NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'kernel_ridge'
MISTAKE = 'In kernel_ridge_predict divides the squared distance by 2σ instead of 2σ² (the bandwidth is not squared).'
NAMED_IF = r'σ²|sigma ?\*\* ?2|bandwidth ?\*\* ?2|squar'
CODE = '''def kernel_ridge_fit(x, y, bandwidth, reg):
    """Kernel ridge regression with the Gaussian kernel: alpha = (K + reg I)⁻¹ y."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    K = np.exp(-(x[:, None] - x[None, :])**2 / (2 * bandwidth**2))
    return np.linalg.solve(K + reg * np.eye(len(x)), y)


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    """Kernel ridge predictions K(x_query, x_train) @ alpha."""
    preds = []
    for q in range(len(x_query)):
        k_row = np.exp(-(x_query[q] - np.asarray(x_train))**2 / (2 * bandwidth))
        preds.append(k_row @ alpha)
    return np.array(preds)
'''
