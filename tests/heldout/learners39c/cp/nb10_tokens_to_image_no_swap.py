NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'tokens_to_image reshapes (..., H*W, C) straight to (..., C, H, W) without swapping the token and channel axes'
NAMED_IF = 'transpos|swap|order|reshape|channel|ax[ie]s|inverse'
CODE = '''def image_to_tokens(X):
    """A feature map as a sequence of pixel tokens."""
    X = np.asarray(X)
    return np.swapaxes(X.reshape(*X.shape[:-2], X.shape[-2] * X.shape[-1]), -1, -2)


def tokens_to_image(T, H, W):
    """Pixel tokens back to a feature map (the inverse of image_to_tokens)."""
    T = np.asarray(T)
    return T.reshape(*T.shape[:-2], T.shape[-1], H, W)
'''
