NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'Reshapes (C, H, W) straight to (H*W, C) and back without moving the channel axis, mixing channels and pixels.'
NAMED_IF = 'transpos|moveaxis|channel|order|axes|reshape|pixel'
CODE = '''def image_to_tokens(X):
    C, H, W = X.shape[-3:]
    return X.reshape(*X.shape[:-3], H * W, C)


def tokens_to_image(T, H, W):
    C = T.shape[-1]
    return T.reshape(*T.shape[:-2], C, H, W)
'''
