NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = 'ignores the bias argument: the nn.Linear layers always have a bias'
NAMED_IF = 'bias'
CODE = '''class SelfAttention(nn.Module):
    """Single-head self-attention with learned projections."""

    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_k)
        self.W_k = nn.Linear(d_in, d_k)
        self.W_v = nn.Linear(d_in, d_v)
        self.d_k = d_k

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        A = at.masked_softmax(Q @ K.transpose(-1, -2) / math.sqrt(self.d_k), mask)
        return A @ V, A
'''
