NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = 'Fills the scores with -inf where the mask is True (masked_fill(mask, -inf), the key_padding_mask convention), so True blocks instead of allowing.'
NAMED_IF = 'invert|opposite|revers|negat|flip|complement|~ ?mask|true ?(=|means|marks)? ?(blocked|masked|ignored|not allowed)|blocked|convention'
CODE = '''class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)
        self.d_k = d_k

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        S = Q @ K.transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            S = S.masked_fill(mask, float("-inf"))
        A = torch.softmax(S, dim=-1)
        A = torch.nan_to_num(A, nan=0.0)
        return A @ V, A
'''
