NOTEBOOK = '12_what_attention_learns'
CELL = 'gd_step_prediction'
MISTAKE = 'Applies Gamma from the wrong side (row vector times Gamma, i.e. Gamma^T X^T y), which differs when Gamma is not symmetric.'
NAMED_IF = r"transpos|Γᵀ|Γ\^T|Gamma\.T|Gamma\^T|symmetric|wrong side|which side|from the (left|right)"
CODE = '''def gd_step_prediction(X, y, x_query, Gamma):
    X, y = torch.as_tensor(X), torch.as_tensor(y)
    xq, G = torch.as_tensor(x_query), torch.as_tensor(Gamma)
    N = X.shape[-2]
    Xty = torch.einsum("...nd,...n->...d", X, y)
    w = Xty @ G / N
    return (xq * w).sum(-1).numpy()
'''
