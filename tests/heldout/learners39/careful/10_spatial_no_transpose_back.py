NOTEBOOK = "10_attention_on_images"
CELL = "spatial_self_attention"
MISTAKE = "Reshapes the (HW, Dv) output tokens straight to (Dv, H, W) without transposing them first, scrambling pixels and channels."
NAMED_IF = r"transpos|swap|reshape|tokens_to_image|channel.{0,30}(pixel|position)"
CODE = '''
def spatial_self_attention(X, W_q, W_k, W_v):
    """Self-attention over the pixels of a feature map."""
    X = np.asarray(X, dtype=float)
    C, H, W = X.shape[-3:]
    T = np.swapaxes(X.reshape(X.shape[:-3] + (C, H * W)), -1, -2)    # (..., HW, C)
    Q, K, V = T @ W_q, T @ W_k, T @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[-1]), axis=-1)
    out = A @ V                                                       # (..., HW, Dv)
    Z = out.reshape(out.shape[:-2] + (W_v.shape[-1], H, W))
    return Z, A
'''
