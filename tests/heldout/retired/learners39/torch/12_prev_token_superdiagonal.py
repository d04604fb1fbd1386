NOTEBOOK = '12_what_attention_learns'
CELL = 'previous_token_score'
MISTAKE = 'Averages the diagonal above the main one (A[t, t+1], offset +1) instead of the one below it (A[t, t-1]).'
NAMED_IF = r"above|super.?diagonal|offset ?=? ?\+?1\b|t ?\+ ?1|next token|below the main|sub.?diagonal|offset ?=? ?-1"
CODE = '''def previous_token_score(weights):
    w = torch.as_tensor(weights)
    return float(torch.diagonal(w, offset=1, dim1=-2, dim2=-1).mean())
'''
