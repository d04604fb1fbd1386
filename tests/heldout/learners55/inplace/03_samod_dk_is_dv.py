NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = 'Stores d_v under the name self.d_k, so the scores are scaled by sqrt(d_v) instead of sqrt(d_k).'
NAMED_IF = r"d_?v\b|value width|(wrong|incorrect) scal|sqrt|√|scale"
CODE = '''class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)
        self.d_k = d_v

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        scores = Q @ K.transpose(-1, -2)
        scores /= math.sqrt(self.d_k)
        A = at.masked_softmax(scores, mask)
        return A @ V, A
'''
