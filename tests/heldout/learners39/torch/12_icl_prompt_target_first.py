NOTEBOOK = '12_what_attention_learns'
CELL = 'icl_prompt'
MISTAKE = 'Puts the target column first, rows [y_i, x_i] and [0, x_query], instead of the target in the last column.'
NAMED_IF = r"(target|\by\b).{0,40}(first|left|column 0|before)|\[x_i, ?y_i\]|last column|right of|\[y_i, ?x_i\]"
CODE = '''def icl_prompt(X, y, x_query):
    X = torch.as_tensor(X)
    y = torch.as_tensor(y, dtype=X.dtype)
    xq = torch.as_tensor(x_query, dtype=X.dtype)
    rows = torch.cat([y[..., None], X], dim=-1)
    last = torch.cat([torch.zeros(*xq.shape[:-1], 1, dtype=X.dtype), xq], dim=-1)
    return torch.cat([rows, last[..., None, :]], dim=-2).numpy()
'''
