NOTEBOOK = "12_what_attention_learns"
CELL = "gd_step_prediction"
MISTAKE = "Contracts x_query with Gamma's second index (x_query^T Gamma^T X^T y / N), which differs for a non-symmetric preconditioner."
NAMED_IF = r"transpos|Γᵀ|Gamma\.T|Gamma\^T|symmetric|index"
CODE = '''
def gd_step_prediction(X, y, x_query, Gamma):
    """The prediction after one preconditioned gradient step from w = 0."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    x_query = np.asarray(x_query, dtype=float)
    N = X.shape[-2]
    Xty = np.einsum("...nd,...n->...d", X, y) / N              # (..., d)
    w = np.einsum("ed,...e->...d", Gamma, Xty)                 # w_d = sum_e Gamma[e, d] (Xᵀy/N)_e
    return np.einsum("...d,...d->...", x_query, w)
'''
