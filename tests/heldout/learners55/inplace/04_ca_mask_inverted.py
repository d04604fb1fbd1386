NOTEBOOK = '04_masks_and_cross_attention'
CELL = 'cross_attention'
MISTAKE = 'Passes ~mask to the attention, as if the mask marked the blocked keys.'
NAMED_IF = r"invert|opposite|negat|~ ?mask|convention|flip|reversed|True (=|means) (may attend|blocked)"
CODE = '''def cross_attention(X_q, X_kv, W_q, W_k, W_v, mask=None):
    if mask is not None:
        mask = ~np.asarray(mask)
    return attnlab.scaled_dot_product_attention(X_q @ W_q, X_kv @ W_k, X_kv @ W_v, mask)
'''
