NOTEBOOK = '05_multi_head_attention'
CELL = 'mha_module'
MISTAKE = 'Projects with X @ linear.weight (plus bias) instead of calling the nn.Linear (X @ weight.T + bias): every projection matrix is transposed.'
NAMED_IF = 'transpos|weight\\.t|\\.t\\b|nn\\.linear|x @ weight|weight matrix'
CODE = '''\
class MultiHeadAttention(nn.Module):
    """Multi-head attention with four nn.Linear(d_model, d_model) projections."""

    def __init__(self, d_model, num_heads, bias=False):
        super().__init__()
        self.d_model = d_model
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    @staticmethod
    def _project(linear, X):
        Y = X @ linear.weight
        if linear.bias is not None:
            Y = Y + linear.bias
        return Y

    def forward(self, X_q, X_kv, mask=None):
        """(B, Lq, D), (B, Lk, D) -> (output (B, Lq, D), weights (B, H, Lq, Lk))."""
        B, Lq, D = X_q.shape
        Lk = X_kv.shape[1]
        H = self.num_heads
        Dh = D // H
        Q = self._project(self.W_q, X_q).view(B, Lq, H, Dh).transpose(1, 2)    # (B, H, Lq, Dh)
        K = self._project(self.W_k, X_kv).view(B, Lk, H, Dh).transpose(1, 2)   # (B, H, Lk, Dh)
        V = self._project(self.W_v, X_kv).view(B, Lk, H, Dh).transpose(1, 2)   # (B, H, Lk, Dh)
        scores = Q @ K.transpose(-2, -1) / Dh ** 0.5                            # (B, H, Lq, Lk)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = torch.nan_to_num(weights, nan=0.0)
        out = (weights @ V).transpose(1, 2).reshape(B, Lq, D)                   # (B, Lq, D)
        return self._project(self.W_o, out), weights
'''
