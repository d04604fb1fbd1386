NOTEBOOK = '02_query_key_value'
CELL = 'scaled_dot_product_attention'
MISTAKE = 'Writes -inf into the scores with scores[~mask] and normalises in place with no guard, so a fully masked row becomes -inf - (-inf) = nan.'
NAMED_IF = r"nan|fully masked|no key|empty row|nothing to attend|all.zero|zero (weights|output)"
CODE = '''def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2)
    scores /= np.sqrt(Q.shape[-1])
    if mask is not None:
        scores[~np.broadcast_to(mask, scores.shape)] = -np.inf
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    return scores @ V, scores
'''
