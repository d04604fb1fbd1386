NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = 'Uses scores.masked_fill(mask, -inf), which blocks the keys where mask is True (may attend): the mask convention is inverted.'
NAMED_IF = r'invert|opposite|convention|negat|flip|masked_fill|~|True\W+(=|means)?\W*(blocked|masked|ignored)'
FAILS = ('test_self_attention_module', 'test_self_attention_module_mask')
CODE = '''class SelfAttention(nn.Module):
    """Single-head self-attention with learned projections."""

    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)
        self.d_k = d_k

    def forward(self, X, mask=None):
        Q = self.W_q(X)
        K = self.W_k(X)
        V = self.W_v(X)
        scores = Q @ K.transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))
        A = torch.softmax(scores, dim=-1)
        A = torch.nan_to_num(A, nan=0.0)
        return A @ V, A
'''
