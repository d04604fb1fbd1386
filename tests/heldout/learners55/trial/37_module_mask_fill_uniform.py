NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = 'Masks with masked_fill(-1e9) and a plain softmax; a fully masked row gets uniform weights instead of zeros.'
NAMED_IF = 'fully masked|nothing|empty|zero|uniform|no key|1e-?9'
CODE = '''class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)
        self.d_k = d_k

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        S = Q @ K.transpose(-1, -2) / math.sqrt(self.d_k)
        if mask is not None:
            S = S.masked_fill(~mask, -1e9)
        A = torch.softmax(S, dim=-1)
        return A @ V, A
'''
