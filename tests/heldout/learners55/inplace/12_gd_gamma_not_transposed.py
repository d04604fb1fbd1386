NOTEBOOK = '12_what_attention_learns'
CELL = 'gd_step_prediction'
MISTAKE = 'Applies Gamma to the row vector as v @ Gamma instead of v @ Gamma.T (Gamma acting on a column vector).'
NAMED_IF = r"transpos|Gamma\.?T|column vector|row vector|Γ ?ᵀ|Γ\^T|Gamma\^T|Γ acting"
CODE = '''def gd_step_prediction(X, y, x_query, Gamma):
    N = X.shape[-2]
    g = np.einsum("...nd,...n->...d", X, y)
    g /= N
    w1 = g @ Gamma
    return (w1 * x_query).sum(-1)
'''
