NOTEBOOK = '12_what_attention_learns'
CELL = 'gd_step_prediction'
MISTAKE = 'Steps along the gradient instead of against it: w_1 = +Gamma grad L(0) = -Gamma X^T y / N.'
NAMED_IF = r"\bsign|minus|negat|direction|descent|ascent|opposite"
CODE = '''def gd_step_prediction(X, y, x_query, Gamma):
    N = X.shape[-2]
    grad = -np.einsum("...nd,...n->...d", X, y) / N
    w1 = grad @ Gamma.T
    return (w1 * x_query).sum(-1)
'''
