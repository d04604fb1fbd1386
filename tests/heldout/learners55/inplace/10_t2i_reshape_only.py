NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'In tokens_to_image, reshapes (..., H*W, C) straight to (..., C, H, W) without swapping the last two axes first.'
NAMED_IF = r"transpos|swap|reshape|\border|inverse|channel"
CODE = '''def image_to_tokens(X):
    return np.swapaxes(X.reshape(*X.shape[:-2], -1), -1, -2)

def tokens_to_image(T, H, W):
    C = T.shape[-1]
    T = T.reshape(*T.shape[:-2], C, H, W)
    return T
'''
