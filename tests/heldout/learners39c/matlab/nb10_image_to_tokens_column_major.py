NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'numbers the pixels column-major (p = j*H + i) instead of row-major, in both directions'
NAMED_IF = 'row.?major|column.?major|order|transpos|i ?\\* ?W|swap|\\bH\\b.{0,10}\\bW\\b'
CODE = '''def image_to_tokens(X):
    """A feature map as a sequence of pixel tokens."""
    X = np.asarray(X)
    Xt = np.swapaxes(X, -1, -2)                       # (..., C, W, H): walk down the columns
    return np.swapaxes(Xt.reshape(*X.shape[:-2], -1), -1, -2)


def tokens_to_image(T, H, W):
    """Pixel tokens back to a feature map (the inverse of image_to_tokens)."""
    T = np.asarray(T)
    C = T.shape[-1]
    return np.swapaxes(np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], C, W, H), -1, -2)
'''
