NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'Reshapes (..., C, H, W) straight to (..., H*W, C) as if the map were channels-last, without moving the channel axis.'
NAMED_IF = 'reshape|channels?[- ]?(last|first)|transpos|swap|move|scrambl|order|NHWC'
CODE = '''def image_to_tokens(X):
    X = np.asarray(X)
    C, H, W = X.shape[-3:]
    return X.reshape(*X.shape[:-3], H * W, C)

def tokens_to_image(T, H, W):
    T = np.asarray(T)
    C = T.shape[-1]
    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], C, H, W)
'''
