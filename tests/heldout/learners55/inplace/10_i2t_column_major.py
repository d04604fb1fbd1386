NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'Swaps H and W before flattening, numbering the pixels column by column (p = j*H + i) instead of row-major.'
NAMED_IF = r"column.major|row.major|j ?\* ?H|transposed (image|map)|\border|i ?\* ?W ?\+ ?j"
CODE = '''def image_to_tokens(X):
    X = np.swapaxes(X, -1, -2)
    X = X.reshape(*X.shape[:-2], -1)
    return np.swapaxes(X, -1, -2)


def tokens_to_image(T, H, W):
    C = T.shape[-1]
    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], C, H, W)
'''
