NOTEBOOK = '11_modern_attention'
CELL = 'repeat_kv'
MISTAKE = "Uses torch's Tensor.repeat along the head axis, which tiles the whole list of heads (0, 1, 0, 1) instead of repeating each head in a row (0, 0, 1, 1)."
NAMED_IF = r"tile|repeat_interleave|0, ?1, ?0, ?1|0, ?0, ?1, ?1|in a row|whole (list|array)|consecutive|each head|order of (the )?heads"
CODE = '''def repeat_kv(X, n_rep):
    X = torch.as_tensor(X)
    return X.repeat(1, n_rep, 1, 1).numpy()
'''
