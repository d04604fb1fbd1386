"""Notebook 10: wrong implementations the catalogue does not list (the issue's list for 10)."""
from uncatalogued import U

_CA_INIT = '''
class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        hidden = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, hidden)
        self.fc2 = nn.Linear(hidden, channels)
'''


def _ca(body: str) -> str:
    return _CA_INIT + "\n    def forward(self, X):\n" + body


WRONG = [
    U("image_to_tokens", '''
import torch
def image_to_tokens(X):
    X = torch.as_tensor(X)
    return X.flatten(-2).transpose(-1, -2)


def tokens_to_image(T, H, W):
    channels_first = np.swapaxes(T, -1, -2)
    return channels_first.reshape(*T.shape[:-2], T.shape[-1], H, W)
''', "test_image_to_tokens", "in torch, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("image_to_tokens", '''
def image_to_tokens(X):
    C, H, W = X.shape[-3:]
    return np.einsum("chw->hwc", X).reshape(H * W, C)


def tokens_to_image(T, H, W):
    channels_first = np.swapaxes(T, -1, -2)
    return channels_first.reshape(*T.shape[:-2], T.shape[-1], H, W)
''', "test_image_to_tokens", "einsum for one map only", words=("batch axis", "leading axes", "leading axis"), kind="fixed-rank"),
    U("image_to_tokens", '''
def image_to_tokens(X):
    flat = X.reshape(*X.shape[:-2], -1)
    return np.swapaxes(flat, -1, -2)


def tokens_to_image(T, H, W):
    return np.swapaxes(T, -1, -2).reshape(-1, H, W)
''', "test_tokens_to_image", "tokens_to_image folds the batch into the channels", needs_layer=True, words=("batch axis", "leading axes"),
      kind="fixed-rank"),

    U("positional_encoding_2d", '''
def positional_encoding_2d(H, W, D):
    if D % 2:
        raise ValueError(f"D: expected an even number, got {D}")
    rows = attnlab.sinusoidal_positional_encoding(H, D // 2)
    cols = attnlab.sinusoidal_positional_encoding(W, D // 2)
    return np.concatenate([np.repeat(rows, W, axis=0), np.tile(cols, (H, 1))], axis=1)
''', "test_positional_encoding_2d", "checks D even, not a multiple of 4", words=("ValueError", "multiple of 4"),
      kind="contract"),
    U("positional_encoding_2d", '''
def positional_encoding_2d(H, W, D):
    if D % 4:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    rows = attnlab.sinusoidal_positional_encoding(H + 1, D // 2)[1:]
    cols = attnlab.sinusoidal_positional_encoding(W + 1, D // 2)[1:]
    return np.concatenate([np.repeat(rows, W, axis=0), np.tile(cols, (H, 1))], axis=1)
''', "test_positional_encoding_2d", "rows and columns counted from 1", needs_layer=True, words=("shift", "off by one", "from 1"),
      kind="off-by-one"),
    U("positional_encoding_2d", '''
import torch
def positional_encoding_2d(H, W, D):
    if D % 4:
        raise ValueError(f"D: expected a multiple of 4, got {D}")
    rows = attnlab.sinusoidal_positional_encoding(H, D // 2)
    cols = attnlab.sinusoidal_positional_encoding(W, D // 2)
    return torch.from_numpy(np.concatenate([np.repeat(rows, W, axis=0), np.tile(cols, (H, 1))], axis=1))
''', "test_positional_encoding_2d", "a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),

    U("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    C, H, W = X.shape[-3:]
    tokens = X.reshape(C, H * W).T
    Z, A = attnlab.self_attention(tokens, W_q, W_k, W_v)
    return Z.T.reshape(-1, H, W), A
''', "test_spatial_self_attention_batched", "one map only (reshape(C, H*W).T)", words=("batch axis", "leading axes", "leading axis"),
      kind="fixed-rank"),
    U("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    Z, A = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
    return Z.reshape(*Z.shape[:-2], H, W, Z.shape[-1]), A
''', "test_spatial_self_attention", "Z returned channels-last (H, W, Dv)", words=("shape", "axis", "channel"),
      kind="axes"),
    U("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    Z, A = attnlab.self_attention(attnlab.image_to_tokens(X), W_q, W_k, W_v)
    return attnlab.tokens_to_image(Z, H, W), np.swapaxes(A, -1, -2)
''', "test_spatial_self_attention", "A returned transposed", words=("transpose",), kind="transpose"),
    U("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    T = attnlab.image_to_tokens(X)
    Q, K, V = T @ W_q, T @ W_k, T @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_v.shape[1]), axis=-1)
    return attnlab.tokens_to_image(A @ V, H, W), A
''', "test_spatial_self_attention", "scaled by sqrt(Dv)", words=("scal", "sqrt"), kind="constant"),
    U("spatial_self_attention", '''
def spatial_self_attention(X, W_q, W_k, W_v):
    H, W = X.shape[-2:]
    T = attnlab.image_to_tokens(X)
    Q, K, V = T @ W_q, T @ W_k, T @ W_v
    A = attnlab.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(W_q.shape[1]), axis=-1)
    return attnlab.tokens_to_image(np.swapaxes(A, -1, -2) @ V, H, W), A
''', "test_spatial_self_attention", "Z = Aᵀ V", needs_layer=True, words=("transpose",), kind="transpose"),

    U("ChannelAttention", _ca('''
        s = torch.relu(self.fc2(torch.relu(self.fc1(X.mean(dim=(-2, -1))))))
        return X * s[..., None, None], s
'''), "test_channel_attention", "a ReLU gate instead of a sigmoid", needs_layer=True, words=("sigmoid",), kind="gate"),
    U("ChannelAttention", _ca('''
        s = torch.tanh(self.fc2(torch.relu(self.fc1(X.mean(dim=(-2, -1))))))
        return X * s[..., None, None], s
'''), "test_channel_attention", "a tanh gate instead of a sigmoid", needs_layer=True, words=("sigmoid",), kind="gate"),
    U("ChannelAttention", _ca('''
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(X.mean(dim=(-2, -1))))))
        return X + X * s[..., None, None], s
'''), "test_channel_attention", "X + X*s (a residual that is not there)", needs_layer=False, words=("residual", "X + ", "scale"),
      kind="extra step"),
    U("ChannelAttention", '''
class ChannelAttention(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        hidden = max(1, channels // reduction)
        self.fc1 = nn.Linear(channels, hidden, bias=False)
        self.fc2 = nn.Linear(hidden, channels, bias=False)

    def forward(self, X):
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(X.mean(dim=(-2, -1))))))
        return X * s[..., None, None], s
''', "test_channel_attention", "layers without bias", words=("bias",), kind="module"),
    U("ChannelAttention", _ca('''
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(X.mean(dim=(0, -2, -1))))))
        return X * s[..., None, None], s.expand(*X.shape[:-2])
'''), "test_channel_attention", "the squeeze over the batch too", needs_layer=True, words=("batch", "squeeze"), kind="axes"),
    U("ChannelAttention", _ca('''
        s = torch.sigmoid(self.fc2(self.fc1(torch.relu(X.mean(dim=(-2, -1))))))
        return X * s[..., None, None], s
'''), "test_channel_attention", "the ReLU before fc1 instead of after it", needs_layer=True, words=("relu", "order"),
      kind="order"),

    U("patchify", '''
def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
    grid = X.reshape(*X.shape[:-3], C, P, H // P, P, W // P)
    grid = np.moveaxis(grid, (-5, -4, -3, -2, -1), (-3, -2, -5, -1, -4))
    return grid.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
''', "test_patchify", "the map split as (P, H/P)", words=("order", "wrong places"), kind="axes"),
    U("patchify", '''
import torch
def patchify(X, patch):
    C, H, W = X.shape[-3:]
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
    grid = torch.as_tensor(X).unfold(-2, P, P).unfold(-2, P, P)
    grid = grid.movedim(-5, -3)
    return grid.reshape(*X.shape[:-3], (H // P) * (W // P), C * P * P)
''', "test_patchify", "torch unfold, a tensor back", words=("tensor", "torch", "numpy"), kind="torch/numpy"),
    U("patchify", '''
def patchify(X, patch):
    C, H, W = X.shape
    P = patch
    if H % P or W % P:
        raise ValueError(f"patch: expected a size that divides H={H} and W={W}, got {P}")
    grid = X.reshape(C, H // P, P, W // P, P).transpose(1, 3, 0, 2, 4)
    return grid.reshape((H // P) * (W // P), C * P * P)
''', "test_patchify", "one map only (C, H, W = X.shape)", words=("batch axis", "leading axes", "leading axis"), kind="fixed-rank"),
]
