NOTEBOOK = '05_multi_head_attention'
CELL = 'multi_head_attention'
MISTAKE = "returns the attention weights averaged over the heads, (B, Lq, Lk), as torch's MultiheadAttention does by default"
NAMED_IF = 'average|mean|head axis|per head|shape|\\(B, ?H|\\bH\\b'
CODE = '''def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    """Multi-head attention: split into heads, attend in each, merge, project."""
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    Z, A = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    out = attnlab.merge_heads(Z) @ W_o
    return out, A.mean(axis=1)          # one summary map per example
'''
