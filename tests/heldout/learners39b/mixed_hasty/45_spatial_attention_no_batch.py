NOTEBOOK = '10_attention_on_images'
CELL = 'spatial_self_attention'
MISTAKE = 'Unpacks C, H, W = X.shape and uses .T, so it only works for one (C, H, W) map and fails for a batch (..., C, H, W).'
NAMED_IF = 'batch|leading (axis|axes|dim)|rank|\\.t\\b|unpack|only (works )?for (one|a single)|3-?d|4-?d'
CODE = '''\
def spatial_self_attention(X, W_q, W_k, W_v):
    """Self-attention over the pixels of a feature map."""
    C, H, W = X.shape
    T = X.reshape(C, H * W).T                      # (H*W, C)
    Q, K, V = T @ W_q, T @ W_k, T @ W_v
    scores = Q @ K.T / np.sqrt(W_q.shape[1])       # (H*W, H*W)
    scores = scores - scores.max(axis=1, keepdims=True)
    A = np.exp(scores)
    A = A / A.sum(axis=1, keepdims=True)
    Z = (A @ V).T.reshape(-1, H, W)                # (Dv, H, W)
    return Z, A
'''
