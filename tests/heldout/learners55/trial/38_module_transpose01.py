NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = 'Transposes K with transpose(0, 1), which is right for one sequence but swaps the batch and length axes of a batch.'
NAMED_IF = 'batch|leading|transpos|dimension|ndim|3-?D|axes'
CODE = '''class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)
        self.d_k = d_k

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        if K.dim() == 2:
            S = Q @ K.transpose(0, 1)
        else:
            S = Q @ K.transpose(1, 2)
        S = S / math.sqrt(self.d_k)
        A = at.masked_softmax(S, mask)
        return A @ V, A
'''
