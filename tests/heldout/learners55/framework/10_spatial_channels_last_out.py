NOTEBOOK = '10_attention_on_images'
CELL = 'spatial_self_attention'
MISTAKE = 'Reshapes the output tokens to a channels-last map (..., H, W, Dv) instead of (..., Dv, H, W).'
NAMED_IF = 'channels?[- ]?(last|first)|\\(\\.\\.\\., ?H, ?W, ?Dv\\)|layout|axes|transpos|move|reshape|NHWC'
CODE = '''def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    tokens = attnlab.image_to_tokens(X)
    Z, A = attnlab.self_attention(tokens, W_q, W_k, W_v)
    return Z.reshape(*Z.shape[:-2], H, W, Z.shape[-1]), A
'''
