NOTEBOOK = '12_what_attention_learns'
CELL = 'icl_prompt'
MISTAKE = 'Builds the prompt with torch.cat and returns a torch tensor instead of a numpy array.'
NAMED_IF = r"tensor|torch|ndarray|numpy|type"
CODE = '''def icl_prompt(X, y, x_query):
    X, y, x_query = torch.as_tensor(X), torch.as_tensor(y), torch.as_tensor(x_query)
    examples = torch.cat([X, y.unsqueeze(-1)], dim=-1)                             # (..., N, d+1)
    query = torch.cat([x_query, torch.zeros_like(x_query[..., :1])], dim=-1)       # (..., d+1)
    return torch.cat([examples, query.unsqueeze(-2)], dim=-2)
'''
