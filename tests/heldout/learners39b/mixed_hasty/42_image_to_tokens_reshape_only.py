NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'image_to_tokens reshapes (..., C, H, W) straight to (..., H*W, C) without moving the channel axis last, which scrambles channels and pixels (tokens_to_image is right).'
NAMED_IF = 'transpos|reshape|channel.{0,30}(last|axis|move)|axes|permut|moveaxis|scrambl'
CODE = '''\
def image_to_tokens(X):
    """A feature map as a sequence of pixel tokens."""
    C, H, W = X.shape[-3:]
    return X.reshape(*X.shape[:-3], H * W, C)                     # (..., H*W, C)


def tokens_to_image(T, H, W):
    """Pixel tokens back to a feature map (the inverse of image_to_tokens)."""
    C = T.shape[-1]
    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], C, H, W)  # (..., C, H, W)
'''
