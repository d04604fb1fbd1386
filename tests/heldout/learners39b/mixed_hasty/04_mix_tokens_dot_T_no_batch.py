NOTEBOOK = '01_weighted_averages'
CELL = 'mix_tokens'
MISTAKE = 'Uses X.T for the transpose, which reverses all axes: right for one (L, D) sequence but wrong (or a shape error) for a batch (..., L, D).'
NAMED_IF = 'batch|leading (axis|axes|dim)|rank|\\.T\\b|all (the )?axes|last two axes|swapaxes|transpos'
CODE = '''\
def mix_tokens(X):
    """Parameter-free self-attention softmax(X Xᵀ) X, softmax over each row."""
    scores = X @ X.T                                        # (L, L)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ X                                      # (L, D)
'''
