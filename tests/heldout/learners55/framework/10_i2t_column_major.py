NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'Numbers the pixels column-major (token j*H + i, the (x, y) habit of image libraries) instead of row-major.'
NAMED_IF = 'column[- ]major|row[- ]major|transpos|j ?\\* ?H|order|(H|height) and (W|width)|swap'
CODE = '''def image_to_tokens(X):
    X = np.asarray(X)
    Xt = np.swapaxes(X, -1, -2)                        # (..., C, W, H)
    return np.swapaxes(Xt.reshape(*Xt.shape[:-2], -1), -1, -2)

def tokens_to_image(T, H, W):
    T = np.asarray(T)
    C = T.shape[-1]
    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], C, H, W)
'''
