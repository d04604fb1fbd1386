NOTEBOOK = '12_what_attention_learns'
CELL = 'gd_step_prediction'
MISTAKE = 'Forgets to divide X^T y by N, so the predictions are N times too large.'
NAMED_IF = r"1 ?/ ?N|/ ?N\b|divid|N times|factor (of )?N|mean"
CODE = '''def gd_step_prediction(X, y, x_query, Gamma):
    Xty = np.einsum("...nd,...n->...d", X, y)   # (..., d)
    w = Xty @ Gamma.T                            # Gamma X^T y, one row per prompt
    return (x_query * w).sum(-1)
'''
