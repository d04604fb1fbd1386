NOTEBOOK = '12_what_attention_learns'
CELL = 'gd_step_prediction'
MISTAKE = 'Applies Gamma to the gradient as a row vector, g @ Gamma, where the prompt asks for Gamma as to a column vector (g @ Gamma.T).'
NAMED_IF = 'transpos|Gamma\\.T|Γ ?ᵀ|row vector|column vector|side|symmetric'
CODE = '''def gd_step_prediction(X, y, x_query, Gamma):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    N = X.shape[-2]
    g = np.einsum("...nd,...n->...d", X, y)
    w = g @ Gamma / N
    return (np.asarray(x_query, dtype=float) * w).sum(-1)
'''
