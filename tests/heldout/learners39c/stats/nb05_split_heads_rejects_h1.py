NOTEBOOK = '05_multi_head_attention'
CELL = 'split_heads'
MISTAKE = 'validation too strict: refuses num_heads = 1 (and num_heads = D) as degenerate'
NAMED_IF = 'raise|reject|too strict|input check|own check|H ?= ?1|one head|valid input|ValueError|num_heads'
CODE = '''def split_heads(X, num_heads):
    """Cut the features of every token into num_heads heads."""
    B, L, D = X.shape
    if num_heads < 2 or num_heads >= D or D % num_heads:
        raise ValueError(f"num_heads must be a proper divisor of D={D}, got {num_heads}")
    Dh = D // num_heads
    return np.swapaxes(X.reshape(B, L, num_heads, Dh), 1, 2)
'''
