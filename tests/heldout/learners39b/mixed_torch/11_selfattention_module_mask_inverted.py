NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = "Uses masked_fill(mask, -inf), i.e. treats True as 'blocked' (nn.MultiheadAttention's convention) instead of 'may attend', so the mask is inverted."
NAMED_IF = 'invert|opposite|flip|negat|reversed|true.{0,30}(block|masked out|disallow|forbid)|convention|~ ?mask|wrong keys'
CODE = '''\
class SelfAttention(nn.Module):
    """Single-head self-attention with learned projections."""

    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.d_k = d_k
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)          # (..., L, d_k/d_v)
        scores = Q @ K.transpose(-2, -1) / math.sqrt(self.d_k)   # (..., L, L)
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))
        A = torch.softmax(scores, dim=-1)
        A = torch.nan_to_num(A, nan=0.0)                           # rows with no key: zeros
        return A @ V, A
'''
