"""Wrong implementations of notebook 10's exercises, written the way learners write them.

Each must lose the points of the grade cells in ``fails``, with a message naming its mistake.
``image_to_tokens`` and ``tokens_to_image`` share one solution cell, so each entry for that cell
carries a right version of the other function.
"""
from coursekit import Wrong

ITT = ("test_image_to_tokens",)
TTI = ("test_tokens_to_image",)
SSA = ("test_spatial_self_attention", "test_spatial_self_attention_batched")
CA = ("test_channel_attention",)
PF = ("test_patchify",)

RIGHT_ITT = '''
def image_to_tokens(X):
    return np.swapaxes(X.reshape(*X.shape[:-2], -1), -1, -2)
'''

RIGHT_TTI = '''
def tokens_to_image(T, H, W):
    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], T.shape[-1], H, W)
'''


def _tokens_cell(image_to_tokens: str = RIGHT_ITT, tokens_to_image: str = RIGHT_TTI) -> str:
    return image_to_tokens + tokens_to_image


def _se(init: str, forward: str) -> str:
    """A learner's ChannelAttention class with the given __init__ and forward bodies."""
    return f'''
class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
{init}

    def forward(self, X):
{forward}
'''


INIT = '''        hidden = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, hidden)
        self.fc2 = nn.Linear(hidden, channels)'''


def _forward(squeeze="X.mean(dim=(-2, -1))", excite="torch.sigmoid(self.fc2(torch.relu(self.fc1(z))))",
             out="X * s[..., :, None, None], s") -> str:
    return f'''        z = {squeeze}
        s = {excite}
        return {out}'''


WRONG = [
    # image_to_tokens ---------------------------------------------------------------------------
    Wrong("image_to_tokens", _tokens_cell('''
def image_to_tokens(X):
    C, H, W = X.shape[-3:]
    return X.reshape(*X.shape[:-3], H * W, C)
'''), fails=ITT, message="channels and positions swapped"),
    Wrong("image_to_tokens", _tokens_cell('''
def image_to_tokens(X):
    C, H, W = X.shape[-3:]
    return np.swapaxes(X, -1, -2).reshape(*X.shape[:-3], C, H * W).swapaxes(-1, -2)
'''), fails=ITT, message="column-major positions"),
    Wrong("image_to_tokens", _tokens_cell('''
def image_to_tokens(X):
    C, H, W = X.shape[-3:]
    return X.reshape(*X.shape[:-3], C, H * W)
'''), fails=ITT, message="the channel axis not moved"),
    Wrong("image_to_tokens", _tokens_cell('''
def image_to_tokens(X):
    C, H, W = X.shape
    return X.transpose(1, 2, 0).reshape(H * W, C)
'''), fails=ITT, message="axes counted from the front"),
    Wrong("image_to_tokens", _tokens_cell('''
def image_to_tokens(X):
    C, H, W = X.shape[-3:]
    return X.reshape(*X.shape[:-3], H * W, C).T
'''), fails=ITT, message="the right values, but in a different order", label="reshape then .T"),

    # tokens_to_image ---------------------------------------------------------------------------
    Wrong("image_to_tokens", _tokens_cell(tokens_to_image='''
def tokens_to_image(T, H, W):
    return T.reshape(*T.shape[:-2], T.shape[-1], H, W)
'''), fails=TTI, message="channels and positions swapped", label="tokens_to_image plain reshape"),
    Wrong("image_to_tokens", _tokens_cell(tokens_to_image='''
def tokens_to_image(T, H, W):
    C = T.shape[-1]
    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], C, W, H).swapaxes(-1, -2)
'''), fails=TTI, message="column-major positions", label="tokens_to_image column-major"),
    Wrong("image_to_tokens", _tokens_cell(tokens_to_image='''
def tokens_to_image(T, H, W):
    return np.swapaxes(T, -1, -2).reshape(*T.shape[:-2], T.shape[-1], W, H)
'''), fails=TTI, message="H and W swapped"),
    Wrong("image_to_tokens", _tokens_cell(tokens_to_image='''
def tokens_to_image(T, H, W):
    return T.reshape(*T.shape[:-2], H, W, T.shape[-1])
'''), fails=TTI, message="channels left last"),
    Wrong("image_to_tokens", _tokens_cell(tokens_to_image='''
def tokens_to_image(T, H, W):
    return T.T.reshape(T.shape[-1], H, W)
'''), fails=TTI, message="axes counted from the front", label="tokens_to_image T.T"),

    # positional_encoding_2d --------------------------------------------------------------------
    Wrong("positional_encoding_2d", '''
def positional_encoding_2d(H, W, D):
    if D % 4:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    def sinusoids(L, d):
        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
        pe = np.zeros((L, d))
        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
        return pe
    rows = np.repeat(sinusoids(H, D // 2), W, axis=0)     # pixel (i, j) -> row i
    return np.concatenate([rows, rows], axis=1)
''', fails=("test_positional_encoding_2d",), message="uses one axis twice"),
    Wrong("positional_encoding_2d", '''
def positional_encoding_2d(H, W, D):
    if D % 4:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    def sinusoids(L, d):
        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
        pe = np.zeros((L, d))
        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
        return pe
    rows = np.repeat(sinusoids(H, D // 2), W, axis=0)     # (H*W, D/2), row i repeated W times
    cols = np.tile(sinusoids(W, D // 2), (H, 1))          # (H*W, D/2), columns cycling
    return np.concatenate([cols, rows], axis=1)
''', fails=("test_positional_encoding_2d",), message="the halves swapped"),
    Wrong("positional_encoding_2d", '''
def positional_encoding_2d(H, W, D):
    if D % 4:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    def sinusoids(L, d):
        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
        pe = np.zeros((L, d))
        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
        return pe
    rows = np.tile(sinusoids(H, D // 2), (W, 1))          # column-major: i cycles fastest
    cols = np.repeat(sinusoids(W, D // 2), H, axis=0)
    return np.concatenate([rows, cols], axis=1)
''', fails=("test_positional_encoding_2d",), message="column-major positions"),
    Wrong("positional_encoding_2d", '''
def positional_encoding_2d(H, W, D):
    if D % 4:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    angles = np.arange(H * W)[:, None] / 10000 ** (np.arange(0, D, 2) / D)
    pe = np.zeros((H * W, D))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
    return pe
''', fails=("test_positional_encoding_2d",), message="a 1-D encoding of the flat index"),
    Wrong("positional_encoding_2d", '''
def positional_encoding_2d(H, W, D):
    if D % 4:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    def sinusoids(L, d):
        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
        pe = np.zeros((L, d))
        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
        return pe
    rows = np.repeat(sinusoids(H, D)[:, : D // 2], W, axis=0)
    cols = np.tile(sinusoids(W, D)[:, : D // 2], (H, 1))
    return np.concatenate([rows, cols], axis=1)
''', fails=("test_positional_encoding_2d",), message="frequencies of width D"),
    Wrong("positional_encoding_2d", '''
def positional_encoding_2d(H, W, D):
    def sinusoids(L, d):
        angles = np.arange(L)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
        pe = np.zeros((L, d))
        pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
        return pe
    rows = np.repeat(sinusoids(H, D // 2), W, axis=0)
    cols = np.tile(sinusoids(W, D // 2), (H, 1))
    return np.concatenate([rows, cols], axis=1)
''', fails=("test_positional_encoding_2d",), message="should raise ValueError"),

    # spatial_self_attention --------------------------------------------------------------------
    Wrong("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    C, H, W = X.shape[-3:]
    tokens = X.reshape(*X.shape[:-3], H * W, C)
    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1]))
    return attnlab.tokens_to_image(A @ V, H, W), A
''', fails=SSA, message="channels and positions swapped when flattening"),
    Wrong("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    Z, A = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
    return Z, A
''', fails=SSA, message="the output left as tokens"),
    Wrong("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    C, H, W = X.shape[-3:]
    Z, A = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
    return Z.reshape(*Z.shape[:-2], W_v.shape[1], H, W), A
''', fails=SSA, message="put back with a plain reshape"),
    Wrong("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    tokens = attnlab.image_to_tokens(X)
    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2))
    return attnlab.tokens_to_image(A @ V, H, W), A
''', fails=SSA, message="no scaling"),
    Wrong("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    C, H, W = X.shape[-3:]
    tokens = attnlab.image_to_tokens(X)
    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(C))
    return attnlab.tokens_to_image(A @ V, H, W), A
''', fails=SSA, message="scaling by √C"),
    Wrong("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    tokens = attnlab.image_to_tokens(X)
    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1]), axis=-2)
    return attnlab.tokens_to_image(A @ V, H, W), A
''', fails=SSA, message="a softmax over the wrong axis"),
    Wrong("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    tokens = attnlab.image_to_tokens(X)
    Q, K, V = tokens @ W_q, tokens @ W_k, tokens @ W_v
    A = attnlab.softmax(Q @ K.T / np.sqrt(W_q.shape[1]))
    return attnlab.tokens_to_image(A @ V, H, W), A
''', fails=("test_spatial_self_attention_batched",), message="`K.T` on a batch"),
    Wrong("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    Z, A = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
    return A, attnlab.tokens_to_image(Z, *X.shape[-2:])
''', fails=SSA, message="returning (A, Z)"),

    # ChannelAttention --------------------------------------------------------------------------
    Wrong("ChannelAttention", _se(INIT, _forward(excite="self.fc2(torch.relu(self.fc1(z)))")),
          fails=CA, message="the sigmoid forgotten"),
    Wrong("ChannelAttention", _se(INIT, _forward(excite="torch.softmax(self.fc2(torch.relu(self.fc1(z))), dim=-1)")),
          fails=CA, message="a softmax over the channels"),
    Wrong("ChannelAttention", _se(INIT, _forward(squeeze="X.mean(dim=(1, 2))")),
          fails=CA, message="the squeeze taken over the channels"),
    Wrong("ChannelAttention", _se(INIT, _forward(squeeze="X.mean(dim=(2, 3))")),
          fails=CA, message="axes counted from the front"),
    Wrong("ChannelAttention", _se(INIT, _forward(squeeze="X.amax(dim=(-2, -1))")),
          fails=CA, message="a max over the positions"),
    Wrong("ChannelAttention", _se(INIT, _forward(excite="torch.sigmoid(self.fc2(self.fc1(z)))")),
          fails=CA, message="no ReLU"),
    Wrong("ChannelAttention", _se(INIT, _forward(out="X, s")),
          fails=CA, message="X returned unscaled"),
    Wrong("ChannelAttention", _se('''        self.fc1 = nn.Linear(channels, channels // reduction)
        self.fc2 = nn.Linear(channels // reduction, channels)''', _forward()),
          fails=CA, message="a layer of the wrong size", label="no max(1, ...)"),
    Wrong("ChannelAttention", _se('''        self.squeeze = nn.Linear(channels, max(1, channels // reduction))
        self.excite = nn.Linear(max(1, channels // reduction), channels)''', '''        z = X.mean(dim=(-2, -1))
        s = torch.sigmoid(self.excite(torch.relu(self.squeeze(z))))
        return X * s[..., :, None, None], s'''),
          fails=CA, message="not the nn.Linear attributes fc1 and fc2"),

    # patchify ----------------------------------------------------------------------------------
    Wrong("patchify", '''
def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
    return X.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
''', fails=PF, message="patches cut by a plain reshape"),
    Wrong("patchify", '''
def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
    grid = X.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
    grid = np.moveaxis(grid, (-5, -4, -3, -2, -1), (-3, -4, -2, -5, -1))   # (..., W/P, H/P, C, P, P)
    return grid.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
''', fails=PF, message="the patch grid numbered column by column"),
    Wrong("patchify", '''
def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
    grid = X.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
    grid = np.moveaxis(grid, (-5, -4, -3, -2, -1), (-1, -5, -3, -4, -2))   # (..., H/P, W/P, P, P, C)
    return grid.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
''', fails=PF, message="ordered (row, column, channel)"),
    Wrong("patchify", '''
def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
    grid = X.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
    grid = np.moveaxis(grid, (-5, -4, -3, -2, -1), (-3, -5, -1, -4, -2))   # (..., H/P, W/P, C, P_col, P_row)
    return grid.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
''', fails=PF, message="rows and columns swapped inside a patch"),
    Wrong("patchify", '''
def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    grid = X[..., : H - H % P, : W - W % P]
    H, W = grid.shape[-2:]
    grid = grid.reshape(*X.shape[:-3], C, H // P, P, W // P, P)
    grid = np.moveaxis(grid, (-5, -4, -3, -2, -1), (-3, -5, -2, -4, -1))
    return grid.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
''', fails=PF, message="no error when P does not divide", label="cropped"),

    # predict, then run ------------------------------------------------------------------------
    Wrong("predict_shuffled_output", 'prediction_shuffled_output = "identical"\n',
          fails=("test_predict_shuffled_output",), message="does not care about order"),
    Wrong("predict_shuffled_output", 'prediction_shuffled_output = "changed completely"\n',
          fails=("test_predict_shuffled_output",), message="changes which pixels attend to which"),
    Wrong("predict_shuffled_output", 'prediction_shuffled_output = "the same"\n',
          fails=("test_predict_shuffled_output",), message="cannot be read"),
    Wrong("predict_receptive_field", "prediction_receptive_field = 9\n",
          fails=("test_predict_receptive_field",), message="one 3 x 3 view"),
    Wrong("predict_receptive_field", "prediction_receptive_field = 18\n",
          fails=("test_predict_receptive_field",), message="the two 3 x 3 views added"),
    Wrong("predict_receptive_field", "prediction_receptive_field = 256\n",
          fails=("test_predict_receptive_field",), message="every pixel, as for attention"),
]
