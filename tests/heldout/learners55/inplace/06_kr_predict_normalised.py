NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'kernel_ridge'
MISTAKE = 'Predicts with the softmax-normalised (Nadaraya-Watson) weights instead of the raw kernel values.'
NAMED_IF = r"normali[sz]|softmax|rows? sum|not normali|raw kernel|unnormali"
CODE = '''def kernel_ridge_fit(x, y, bandwidth, reg):
    x = np.asarray(x, dtype=float)
    K = np.exp(-(x[:, None] - x[None, :]) ** 2 / (2 * bandwidth ** 2))
    K[np.diag_indices(len(x))] += reg
    return np.linalg.solve(K, np.asarray(y, dtype=float))

def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    A = attnlab.gaussian_attention_weights(x_query, x_train, bandwidth)
    return A @ alpha
'''
