NOTEBOOK = '10_attention_on_images'
CELL = 'image_to_tokens'
MISTAKE = 'Uses torch flatten/transpose and returns torch tensors instead of numpy arrays.'
NAMED_IF = r"tensor|torch|ndarray|numpy|type"
CODE = '''def image_to_tokens(X):
    X = torch.as_tensor(X)
    return X.flatten(-2).transpose(-1, -2)          # (..., H*W, C)


def tokens_to_image(T, H, W):
    T = torch.as_tensor(T)
    return T.transpose(-1, -2).unflatten(-1, (H, W))  # (..., C, H, W)
'''
