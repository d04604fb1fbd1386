NOTEBOOK = '05_multi_head_attention'
CELL = 'multi_head_attention'
MISTAKE = 'Computes the keys and values from X_q (self-attention habit) instead of X_kv.'
NAMED_IF = r"X_q|X_kv|keys? (and values? )?(from|of) (the )?(wrong|quer)|wrong input|self.attention"
CODE = '''def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    X = X_q
    Q = attnlab.split_heads(X @ W_q, num_heads)
    K = attnlab.split_heads(X @ W_k, num_heads)
    V = attnlab.split_heads(X @ W_v, num_heads)
    Z, A = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    return attnlab.merge_heads(Z) @ W_o, A
'''
