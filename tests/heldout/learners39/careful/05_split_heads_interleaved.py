NOTEBOOK = "05_multi_head_attention"
CELL = "split_heads"
MISTAKE = "Reshapes the features as (Dh, H) instead of (H, Dh), so head h gets the interleaved columns h, h+H, ... rather than the contiguous block h*Dh:(h+1)*Dh."
NAMED_IF = r"interleav|contiguous|block|\(Dh, ?H\)|\(H, ?Dh\)|stride|reshape order"
CODE = '''
def split_heads(X, num_heads):
    """Cut the features of every token into num_heads heads."""
    X = np.asarray(X)
    B, L, D = X.shape
    Dh = D // num_heads
    return X.reshape(B, L, Dh, num_heads).transpose(0, 3, 1, 2)
'''
