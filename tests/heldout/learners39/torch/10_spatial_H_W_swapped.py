NOTEBOOK = '10_attention_on_images'
CELL = 'spatial_self_attention'
MISTAKE = 'Calls tokens_to_image(Z, W, H) with height and width swapped, so the output map of a non-square image is scrambled (and has shape (Dv, W, H)).'
NAMED_IF = r"H and W|W and H|height.{0,30}width|width.{0,30}height|swap|transpos|\(Dv, ?W, ?H\)"
CODE = '''def spatial_self_attention(X, W_q, W_k, W_v):
    *_, H, W = X.shape
    Z, A = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
    return attnlab.tokens_to_image(Z, W, H), A
'''
