NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'kernel_ridge'
MISTAKE = "Normalises each query's kernel row to sum to one in kernel_ridge_predict (as in Nadaraya-Watson), which kernel ridge does not do."
NAMED_IF = 'normali|softmax|divid|rows? sum|sum to one|unnormali'
CODE = '''def kernel_ridge_fit(x, y, bandwidth, reg):
    x = np.asarray(x, dtype=float)
    d = x[:, None] - x[None, :]
    K = np.exp(-d ** 2 / (2 * bandwidth ** 2))
    return np.linalg.solve(K + reg * np.eye(len(x)), np.asarray(y, dtype=float))


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    d = np.asarray(x_query, dtype=float)[:, None] - np.asarray(x_train, dtype=float)[None, :]
    Kq = np.exp(-d ** 2 / (2 * bandwidth ** 2))
    Kq = Kq / Kq.sum(axis=1, keepdims=True)
    return Kq @ alpha
'''
