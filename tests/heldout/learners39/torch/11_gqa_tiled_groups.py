NOTEBOOK = '11_modern_attention'
CELL = 'grouped_query_attention'
MISTAKE = 'Expands the key/value heads with Tensor.repeat (tiling), so query head h reads key/value head h % Hkv instead of h // (Hq/Hkv).'
NAMED_IF = r"tile|repeat_interleave|h ?% ?Hkv|modulo|0, ?1, ?0, ?1|0, ?0, ?1, ?1|in a row|consecutive|group|h ?// ?"
CODE = '''def grouped_query_attention(Q, K, V, mask=None):
    Hq, Hkv = Q.shape[1], K.shape[1]
    if Hq % Hkv != 0:
        raise ValueError(f"K has {Hkv} heads, which does not divide the {Hq} query heads")
    n_rep = Hq // Hkv
    K_rep = torch.as_tensor(K).repeat(1, n_rep, 1, 1).numpy()
    V_rep = torch.as_tensor(V).repeat(1, n_rep, 1, 1).numpy()
    return attnlab.scaled_dot_product_attention(Q, K_rep, V_rep, mask)
'''
