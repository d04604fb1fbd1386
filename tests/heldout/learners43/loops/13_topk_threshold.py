NOTEBOOK = "13_attention_variants"
CELL = 'topk_attention'
MISTAKE = 'Keeps every key whose score is at least the k-th largest, so ties at the edge keep more than k keys.'
NAMED_IF = r"tie|more than k|threshold|k-?th (largest |highest )?score|exactly k|>= ?(the )?k|at least the"
CODE = '''
def topk_attention(Q, K, V, k):
    """Top-k attention: softmax over each query's k highest-scoring keys only."""
    Dh = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Dh)
    kth = np.sort(scores, axis=-1)[..., -k][..., None]
    masked = np.where(scores >= kth, scores, -np.inf)
    w = attnlab.softmax(masked, axis=-1)
    return w @ V, w
'''
