NOTEBOOK = '10_attention_on_images'
CELL = 'spatial_self_attention'
MISTAKE = 'Builds the tokens with X.reshape(C, H*W).T and the output with Z.T.reshape, which only works for one map; special-cases a batch of exactly one leading axis.'
NAMED_IF = 'batch|leading|\\.T\\b|transpos|dimension|extra ax'
CODE = '''def spatial_self_attention(X, W_q, W_k, W_v):
    C, H, W = X.shape[-3:]
    if X.ndim == 4:
        T = X.reshape(X.shape[0], C, H * W).transpose(0, 2, 1)
        Z, A = attnlab.self_attention(T, W_q, W_k, W_v)
        return Z.transpose(0, 2, 1).reshape(X.shape[0], -1, H, W), A
    T = X.reshape(C, H * W).T
    Z, A = attnlab.self_attention(T, W_q, W_k, W_v)
    return Z.T.reshape(-1, H, W), A
'''
