NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'tokens_to_image returns the channels-last map (..., H, W, C) instead of (..., C, H, W).'
NAMED_IF = 'channels?[- ]?(last|first)|\\(\\.\\.\\., ?H, ?W, ?C\\)|layout|axes|transpos|move|NHWC'
FAILS = ('test_tokens_to_image',)
CODE = '''def image_to_tokens(X):
    X = np.asarray(X)
    return np.swapaxes(X.reshape(*X.shape[:-2], -1), -1, -2)

def tokens_to_image(T, H, W):
    T = np.asarray(T)
    return T.reshape(*T.shape[:-2], H, W, T.shape[-1])
'''
