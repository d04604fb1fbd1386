NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = "Creates the layers with nn.Linear's default bias=True, ignoring the bias argument."
NAMED_IF = 'bias'
CODE = '''class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_k)
        self.W_k = nn.Linear(d_in, d_k)
        self.W_v = nn.Linear(d_in, d_v)
        self.d_k = d_k

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        A = at.masked_softmax(Q @ K.transpose(-2, -1) / math.sqrt(self.d_k), mask)
        return A @ V, A
'''
