NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'tokens_to_image reshapes (..., H*W, C) straight to (..., C, H, W) without first moving the channel axis in front.'
NAMED_IF = 'reshape|channels?[- ]?(last|first)|transpos|swap|move|scrambl|order'
FAILS = ('test_tokens_to_image',)
CODE = '''def image_to_tokens(X):
    X = np.asarray(X)
    return np.swapaxes(X.reshape(*X.shape[:-2], -1), -1, -2)

def tokens_to_image(T, H, W):
    T = np.asarray(T)
    return T.reshape(*T.shape[:-2], T.shape[-1], H, W)
'''
