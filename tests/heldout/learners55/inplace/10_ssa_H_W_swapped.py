NOTEBOOK = '10_attention_on_images'
CELL = 'spatial_self_attention'
MISTAKE = 'Passes (W, H) instead of (H, W) to tokens_to_image (wrong only for non-square maps).'
NAMED_IF = r"H and W|W, ?H|swap|non.square|height|width"
CODE = '''def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    Z, A = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
    return attnlab.tokens_to_image(Z, W, H), A
'''
