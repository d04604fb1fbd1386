NOTEBOOK = '05_multi_head_attention'
CELL = 'multi_head_attention'
MISTAKE = 'Forgets the output projection W_o: returns the merged heads.'
NAMED_IF = 'W_?o|output projection|project'
CODE = '''def multi_head_attention(X_q, X_kv, W_q, W_k, W_v, W_o, num_heads, mask=None):
    Q = attnlab.split_heads(X_q @ W_q, num_heads)
    K = attnlab.split_heads(X_kv @ W_k, num_heads)
    V = attnlab.split_heads(X_kv @ W_v, num_heads)
    Z, A = attnlab.scaled_dot_product_attention(Q, K, V, mask)
    return attnlab.merge_heads(Z), A
'''
