NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'kernel_ridge'
MISTAKE = 'Uses the sklearn-style gamma = 1 / bandwidth**2 in exp(-gamma d^2), dropping the factor 2 of 2 sigma^2, in both the fit and the prediction.'
NAMED_IF = 'bandwidth|2 ?σ|2σ|sigma|factor (of )?(2|two)|gamma|width|kernel'
CODE = '''def kernel_ridge_fit(x, y, bandwidth, reg):
    x = np.asarray(x, dtype=float)
    gamma = 1.0 / bandwidth ** 2
    K = np.exp(-gamma * (x[:, None] - x[None, :]) ** 2)
    return np.linalg.solve(K + reg * np.eye(len(x)), np.asarray(y, dtype=float))


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    gamma = 1.0 / bandwidth ** 2
    K = np.exp(-gamma * (np.asarray(x_query, dtype=float)[:, None] - np.asarray(x_train, dtype=float)[None, :]) ** 2)
    return K @ np.asarray(alpha, dtype=float)
'''
