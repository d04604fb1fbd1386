NOTEBOOK = '05_multi_head_attention'
CELL = 'split_heads'
MISTAKE = 'Returns the JAX/Flax layout (B, L, H, Dh): the reshape is right but the head axis is never moved in front of the tokens.'
NAMED_IF = '\\(B, ?L, ?H, ?Dh\\)|axes|transpos|swap|layout|order of (the )?axes|head axis|token axis'
CODE = '''def split_heads(X, num_heads):
    B, L, D = X.shape
    return X.reshape(B, L, num_heads, D // num_heads)
'''
