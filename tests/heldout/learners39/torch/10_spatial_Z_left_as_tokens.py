NOTEBOOK = '10_attention_on_images'
CELL = 'spatial_self_attention'
MISTAKE = 'Returns Z as tokens (..., H*W, Dv) and never turns it back into a map (..., Dv, H, W).'
NAMED_IF = r"tokens_to_image|back (in)?to (a|the|an) (map|image)|\(\.\.\., ?Dv, ?H, ?W\)|Dv, ?H, ?W|shape"
CODE = '''def spatial_self_attention(X, W_q, W_k, W_v):
    T = attnlab.image_to_tokens(X)                 # (..., H*W, C)
    Z, A = attnlab.self_attention(T, W_q, W_k, W_v)
    return Z, A
'''
