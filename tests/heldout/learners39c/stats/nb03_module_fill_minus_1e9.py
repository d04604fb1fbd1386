NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = 'masks with masked_fill(-1e9) and a plain softmax: a token that may attend to nothing gets uniform weights, not zeros'
NAMED_IF = 'fully masked|uniform|no key|attend to nothing|empty|all.?zero|-1e9|large negative|zero output|nothing'
CODE = '''class SelfAttention(nn.Module):
    """Single-head self-attention with learned projections."""

    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)
        self.d_k = d_k

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        S = Q @ K.transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            S = S.masked_fill(~mask, -1e9)
        A = torch.softmax(S, dim=-1)
        return A @ V, A
'''
