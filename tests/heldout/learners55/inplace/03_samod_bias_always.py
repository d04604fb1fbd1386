NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = 'Creates the three nn.Linear layers with their default bias=True, ignoring the bias argument.'
NAMED_IF = r"bias"
CODE = '''class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_k)
        self.W_k = nn.Linear(d_in, d_k)
        self.W_v = nn.Linear(d_in, d_v)
        self.d_k = d_k

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        scores = Q @ K.transpose(-1, -2) / math.sqrt(self.d_k)
        A = at.masked_softmax(scores, mask)
        return A @ V, A
'''
