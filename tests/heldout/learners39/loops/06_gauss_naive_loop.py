NOTEBOOK = '06_attention_as_kernel_machine'
CELL = 'gaussian_attention_weights'
MISTAKE = 'Normalises plain exponentials in a double loop without subtracting the row maximum, so a query far from every key gives 0/0 = NaN.'
NAMED_IF = r'nan|stabl|underflow|0 ?/ ?0|max(imum)?|finite'
FAILS = ('test_gaussian_weights', 'test_gaussian_weights_stable')
CODE = '''def gaussian_attention_weights(x_query, x_keys, bandwidth):
    """Nadaraya-Watson weights softmax_k(-(x_q - x_k)² / (2 σ²))."""
    Lq, Lk = len(x_query), len(x_keys)
    A = np.zeros((Lq, Lk))
    for q in range(Lq):
        for k in range(Lk):
            A[q, k] = np.exp(-(x_query[q] - x_keys[k])**2 / (2 * bandwidth**2))
        A[q] = A[q] / A[q].sum()
    return A
'''
