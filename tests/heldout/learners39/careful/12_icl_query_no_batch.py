NOTEBOOK = "12_what_attention_learns"
CELL = "icl_prompt"
MISTAKE = "Adds the query row with x_query[None] (a new leading axis) instead of x_query[..., None, :], which is only right for an unbatched prompt."
NAMED_IF = r"batch|leading|axis|None"
CODE = '''
def icl_prompt(X, y, x_query):
    """Pack a regression prompt for a linear self-attention layer."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    x_query = np.asarray(x_query, dtype=float)
    examples = np.concatenate([X, y[..., None]], axis=-1)                      # (..., N, d+1)
    q = np.concatenate([x_query, np.zeros(x_query.shape[:-1] + (1,))], axis=-1)
    q = np.broadcast_to(q[None], examples.shape[:-2] + (1, examples.shape[-1]))
    return np.concatenate([examples, q], axis=-2)
'''
