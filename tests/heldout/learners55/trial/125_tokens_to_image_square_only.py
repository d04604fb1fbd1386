NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'tokens_to_image reshapes to (W, H) and swaps the last two axes back (column-major), which agrees with row-major only on square maps.'
NAMED_IF = 'row-?major|column-?major|H ?and ?W|transpos|square|W ?, ?H|order|i ?\\* ?W'
CODE = '''def image_to_tokens(X):
    C, H, W = X.shape[-3:]
    return np.swapaxes(X.reshape(*X.shape[:-3], C, H * W), -1, -2)


def tokens_to_image(T, H, W):
    C = T.shape[-1]
    img = np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], C, W, H)
    return np.swapaxes(img, -1, -2)
'''
