NOTEBOOK = '11_modern_attention'
CELL = 'grouped_query_attention'
MISTAKE = 'Checks the head counts with a bare assert, so a bad Hkv raises AssertionError instead of a ValueError naming K.'
NAMED_IF = r"ValueError|(should|must) raise|did not raise|does not raise|no error"
CODE = '''def grouped_query_attention(Q, K, V, mask=None):
    Hq, Hkv = Q.shape[1], K.shape[1]
    assert Hq % Hkv == 0
    K = attnlab.repeat_kv(K, Hq // Hkv)
    V = attnlab.repeat_kv(V, Hq // Hkv)
    return attnlab.scaled_dot_product_attention(Q, K, V, mask)
'''
