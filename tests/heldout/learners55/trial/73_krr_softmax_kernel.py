NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'kernel_ridge'
MISTAKE = 'Builds the Gram matrix with the softmax-normalised attention weights instead of the raw Gaussian kernel.'
NAMED_IF = 'normali|softmax|rows? sum|unnormali|raw kernel|not normalised'
CODE = '''def kernel_ridge_fit(x, y, bandwidth, reg):
    x = np.asarray(x, dtype=float)
    K = attnlab.gaussian_attention_weights(x, x, bandwidth)
    return np.linalg.solve(K + reg * np.eye(len(x)), np.asarray(y, dtype=float))


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    d = np.asarray(x_query, dtype=float)[:, None] - np.asarray(x_train, dtype=float)[None, :]
    return np.exp(-d ** 2 / (2 * bandwidth ** 2)) @ alpha
'''
