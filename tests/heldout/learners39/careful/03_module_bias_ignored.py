NOTEBOOK = "03_self_attention"
CELL = "SelfAttention"
MISTAKE = "Builds the three nn.Linear layers without passing bias=bias, so they always have a bias even when bias=False."
NAMED_IF = r"bias"
CODE = '''
class SelfAttention(nn.Module):
    """Single-head self-attention with learned projections."""

    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.d_k = d_k
        self.W_q = nn.Linear(d_in, d_k)
        self.W_k = nn.Linear(d_in, d_k)
        self.W_v = nn.Linear(d_in, d_v)

    def forward(self, X, mask=None):
        Q = self.W_q(X)
        K = self.W_k(X)
        V = self.W_v(X)
        scores = Q @ K.transpose(-2, -1) / math.sqrt(self.d_k)
        A = at.masked_softmax(scores, mask)
        return A @ V, A
'''
