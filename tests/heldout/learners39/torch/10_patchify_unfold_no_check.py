NOTEBOOK = '10_attention_on_images'
CELL = 'patchify'
MISTAKE = "Uses torch's F.unfold, which silently drops the border when P does not divide H and W, and never raises the required ValueError."
NAMED_IF = r"ValueError|divid|raise|not divisible"
CODE = '''def patchify(X, patch):
    X = torch.as_tensor(X)
    *lead, C, H, W = X.shape
    cols = torch.nn.functional.unfold(X.reshape(-1, C, H, W), kernel_size=patch, stride=patch)   # (N, C*P*P, L)
    return cols.transpose(1, 2).reshape(*lead, -1, C * patch * patch).numpy()
'''
