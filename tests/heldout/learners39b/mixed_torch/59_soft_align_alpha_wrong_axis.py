NOTEBOOK = '12_what_attention_learns'
CELL = 'soft_align'
MISTAKE = "Computes alpha from the row-softmax of E transposed (softmax over b's positions, then transposed) instead of the softmax of Eᵀ's rows (over a's positions): alpha is normalised over the wrong axis."
NAMED_IF = "axis|\\bdim\\b|column|normali|wrong direction|transpos|e ?ᵀ|e\\.t|over (the )?(a|b)'?s? (positions|tokens|words)"
CODE = '''\
def soft_align(A, B):
    """Soft alignment of two sentences (decomposable attention's attend step)."""
    At, Bt = torch.as_tensor(A), torch.as_tensor(B)
    E = At @ Bt.transpose(-1, -2)                  # (..., La, Lb)
    P = torch.softmax(E, dim=-1)                   # (..., La, Lb)
    beta = P @ Bt                                  # (..., La, D)
    alpha = P.transpose(-1, -2) @ At               # (..., Lb, D)
    return beta.numpy(), alpha.numpy()
'''
