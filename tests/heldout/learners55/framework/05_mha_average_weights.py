NOTEBOOK = '05_multi_head_attention'
CELL = 'multi_head_attention'
MISTAKE = 'Returns the weights averaged over the heads, (B, Lq, Lk), as nn.MultiheadAttention does by default (average_attn_weights=True), instead of (B, H, Lq, Lk).'
NAMED_IF = 'averag|mean over (the )?heads|per[- ]head|head axis|\\(B, ?Lq, ?Lk\\)|each head'
CODE = '''def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    out, w = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    return attnlab.merge_heads(out) @ W_o, w.mean(axis=1)
'''
