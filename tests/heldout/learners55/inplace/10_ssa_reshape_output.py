NOTEBOOK = '10_attention_on_images'
CELL = 'spatial_self_attention'
MISTAKE = 'Reshapes the (..., H*W, Dv) output straight to (..., Dv, H, W) without swapping the axes.'
NAMED_IF = r"transpos|swap|reshape|channel|\border|tokens_to_image"
CODE = '''def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    Z, A = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
    Z = Z.reshape(*Z.shape[:-2], Z.shape[-1], H, W)
    return Z, A
'''
