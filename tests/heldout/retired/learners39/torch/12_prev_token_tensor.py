NOTEBOOK = '12_what_attention_learns'
CELL = 'previous_token_score'
MISTAKE = 'Returns the mean as a 0-d torch tensor instead of a Python float.'
NAMED_IF = r"tensor|torch|ndarray|numpy|type|python float|\bfloat\b"
CODE = '''def previous_token_score(weights):
    w = torch.as_tensor(weights)
    return torch.diagonal(w, offset=-1, dim1=-2, dim2=-1).mean()
'''
