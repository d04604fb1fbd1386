NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'kernel_ridge'
MISTAKE = 'Adds the ridge in place to every entry of the Gram matrix (K += reg) instead of to its diagonal (K + reg I).'
NAMED_IF = r"every entry|all (the )?entries|identity|diagonal|λ ?I|reg ?\* ?I|\beye\b|constant"
CODE = '''def kernel_ridge_fit(x, y, bandwidth, reg):
    x = np.asarray(x, dtype=float)
    K = np.exp(-(x[:, None] - x[None, :]) ** 2 / (2 * bandwidth ** 2))
    K += reg
    return np.linalg.solve(K, np.asarray(y, dtype=float))


def kernel_ridge_predict(x_query, x_train, alpha, bandwidth):
    Kq = np.exp(-(x_query[:, None] - x_train[None, :]) ** 2 / (2 * bandwidth ** 2))
    return Kq @ alpha
'''
