NOTEBOOK = "10_attention_on_images"
CELL = "image_to_tokens"
MISTAKE = "tokens_to_image reshapes to (C, W, H) instead of (C, H, W), which only works for square maps."
NAMED_IF = r"square|H ?!= ?W|\(C, ?W, ?H\)|height.{0,30}width|width.{0,30}height|swap"
CODE = '''
def image_to_tokens(X):
    """A feature map as a sequence of pixel tokens."""
    X = np.asarray(X)
    C, H, W = X.shape[-3:]
    return np.swapaxes(X.reshape(X.shape[:-3] + (C, H * W)), -1, -2)


def tokens_to_image(T, H, W):
    """Pixel tokens back to a feature map (the inverse of image_to_tokens)."""
    T = np.asarray(T)
    C = T.shape[-1]
    return np.swapaxes(T, -1, -2).reshape(T.shape[:-2] + (C, W, H))
'''
