NOTEBOOK = '12_what_attention_learns'
CELL = 'soft_align'
MISTAKE = "Computes alpha from the row-normalised E transposed (softmax over B's words) instead of normalising E over A's words (softmax of E^T over its rows)."
NAMED_IF = r"column|axis|transpos|normali[sz]|softmax (over|along)|direction|each word of B|E ?ᵀ|E\.T|E\^T"
CODE = '''def soft_align(A, B):
    A, B = torch.as_tensor(A), torch.as_tensor(B)
    E = A @ B.transpose(-1, -2)                          # (..., La, Lb)
    P = torch.from_numpy(attnlab.softmax(E.numpy(), axis=-1))
    beta = P @ B                                         # (..., La, D)
    alpha = P.transpose(-1, -2) @ A                      # (..., Lb, D)
    return beta.numpy(), alpha.numpy()
'''
