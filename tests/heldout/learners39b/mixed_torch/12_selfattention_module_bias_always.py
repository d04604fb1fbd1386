NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = 'Creates the three nn.Linear layers with their default bias=True, ignoring the `bias` argument, so bias=False still gets (random) biases.'
NAMED_IF = 'bias'
CODE = '''\
class SelfAttention(nn.Module):
    """Single-head self-attention with learned projections."""

    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.d_k = d_k
        self.W_q = nn.Linear(d_in, d_k)
        self.W_k = nn.Linear(d_in, d_k)
        self.W_v = nn.Linear(d_in, d_v)

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        scores = Q @ K.transpose(-2, -1) / math.sqrt(self.d_k)   # (..., L, L)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        A = torch.softmax(scores, dim=-1)
        A = torch.nan_to_num(A, nan=0.0)
        return A @ V, A
'''
