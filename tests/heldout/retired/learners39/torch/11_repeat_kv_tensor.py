NOTEBOOK = '11_modern_attention'
CELL = 'repeat_kv'
MISTAKE = 'Repeats correctly with repeat_interleave but returns a torch tensor instead of a numpy array.'
NAMED_IF = r"tensor|torch|ndarray|numpy|type"
CODE = '''def repeat_kv(X, n_rep):
    return torch.as_tensor(X).repeat_interleave(n_rep, dim=1)
'''
