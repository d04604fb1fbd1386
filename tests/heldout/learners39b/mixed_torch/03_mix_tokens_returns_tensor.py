NOTEBOOK = '01_weighted_averages'
CELL = 'mix_tokens'
MISTAKE = 'Computes softmax(X Xᵀ) X correctly with torch but returns a torch tensor instead of a numpy array.'
NAMED_IF = 'tensor|torch|numpy array|np\\.ndarray|ndarray|type'
CODE = '''\
def mix_tokens(X):
    """Parameter-free self-attention softmax(X Xᵀ) X, softmax over each row."""
    import torch
    Xt = torch.as_tensor(X)
    scores = Xt @ Xt.transpose(-1, -2)          # (..., L, L)
    weights = torch.softmax(scores, dim=-1)     # rows sum to one
    return weights @ Xt                          # (..., L, D)
'''
