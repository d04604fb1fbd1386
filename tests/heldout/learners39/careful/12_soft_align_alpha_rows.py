NOTEBOOK = "12_what_attention_learns"
CELL = "soft_align"
MISTAKE = "Builds alpha from the row-normalised weights transposed, softmax_rows(E)ᵀ A, instead of normalising each column of E (softmax over the words of A)."
NAMED_IF = r"column|softmax.{0,40}(Eᵀ|E\.T|transpos)|normali.{0,40}(axis|column|words of A)|axis"
CODE = '''
def soft_align(A, B):
    """Soft alignment of two sentences (decomposable attention's attend step)."""
    A = np.asarray(A, dtype=float)
    B = np.asarray(B, dtype=float)
    E = A @ np.swapaxes(B, -1, -2)                          # (..., La, Lb)
    W = attnlab.softmax(E, axis=-1)
    beta = W @ B
    alpha = np.swapaxes(W, -1, -2) @ A
    return beta, alpha
'''
