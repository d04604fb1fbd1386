NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'Reshapes (..., C, H, W) straight to (..., H*W, C) without moving the channel axis, which scrambles channels and pixels.'
NAMED_IF = r"transpos|swap|reshape|channel[^.]{0,30}(order|axis|last)|row.major|mix\w* (channels|pixels)|pixel \(i, ?j\)"
CODE = '''def image_to_tokens(X):
    C, H, W = X.shape[-3:]
    X = X.reshape(*X.shape[:-3], H * W, C)
    return X


def tokens_to_image(T, H, W):
    C = T.shape[-1]
    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], C, H, W)
'''
