NOTEBOOK = '08_efficient_attention'
CELL = 'weights_from_logsumexp'
MISTAKE = "Writes the scores with an einsum string from a key-major layout ('...kq') and returns the weights as (..., Lk, Lq), never transposing them back."
NAMED_IF = 'transpos|swap|\\(\\.\\.\\., ?(Lk|T), ?Lq\\)|axes|shape|key[- ]major'
CODE = '''def weights_from_logsumexp(Q, K, logsumexp):
    s = np.einsum("...qd,...kd->...kq", Q, K) / np.sqrt(Q.shape[-1])
    return np.exp(s - logsumexp[..., None, :])
'''
