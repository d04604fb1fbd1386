NOTEBOOK = '10_attention_on_images'
CELL = 'spatial_self_attention'
MISTAKE = 'Passes W and H in the wrong order to tokens_to_image (a square test map hid it).'
NAMED_IF = 'H ?and ?W|W ?, ?H|swap|square|height|width|shape'
CODE = '''def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    T = attnlab.image_to_tokens(X)
    Z, A = attnlab.self_attention(T, W_q, W_k, W_v)
    return attnlab.tokens_to_image(Z, W, H), A
'''
