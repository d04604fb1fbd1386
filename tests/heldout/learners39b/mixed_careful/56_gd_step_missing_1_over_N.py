NOTEBOOK = '12_what_attention_learns'
CELL = 'gd_step_prediction'
MISTAKE = 'Leaves out the 1/N: predicts x_query Γ Xᵀ y instead of x_query Γ Xᵀ y / N.'
NAMED_IF = '1 ?/ ?n|/ ?n\\b|divid|mean|average|number of examples|normali|constant factor|factor (of )?n|scal'
CODE = '''\
def gd_step_prediction(X, y, x_query, Gamma):
    """The prediction after one preconditioned gradient step from w = 0."""
    w = Gamma @ np.swapaxes(X, -1, -2) @ y[..., None]      # (..., d, 1)
    return (x_query[..., None, :] @ w)[..., 0, 0]          # (...)
'''
