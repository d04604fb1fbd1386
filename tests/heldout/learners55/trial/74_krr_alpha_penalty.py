NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'kernel_ridge'
MISTAKE = 'Solves the ridge with a penalty on the coefficients, alpha = (K^2 + reg I)^-1 K y, instead of (K + reg I)^-1 y.'
NAMED_IF = 'K ?\\^ ?2|K²|K\\s*@\\s*K|penalt|coefficients themselves|\\|\\|α|‖α|alpha.?ᵀ|norm of'
CODE = '''def kernel_ridge_fit(x, y, bandwidth, reg):
    x = np.asarray(x, dtype=float)
    d = x[:, None] - x[None, :]
    K = np.exp(-d ** 2 / (2 * bandwidth ** 2))
    return np.linalg.solve(K @ K + reg * np.eye(len(x)), K @ np.asarray(y, dtype=float))


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    d = np.asarray(x_query, dtype=float)[:, None] - np.asarray(x_train, dtype=float)[None, :]
    return np.exp(-d ** 2 / (2 * bandwidth ** 2)) @ alpha
'''
