NOTEBOOK = '03_self_attention'
CELL = 'SelfAttention'
MISTAKE = "Uses scores.masked_fill_(mask, -inf), which blocks where the mask is True: the course's convention (True = may attend) is inverted, and rows become nan."
NAMED_IF = r"convention|invert|opposite|~ ?mask|negat|True (=|means|is) (may attend|allowed)|flip|blocked? (the )?(allowed|wrong)|reversed"
CODE = '''class SelfAttention(nn.Module):
    def __init__(self, d_in, d_k, d_v, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_k, bias=bias)
        self.W_k = nn.Linear(d_in, d_k, bias=bias)
        self.W_v = nn.Linear(d_in, d_v, bias=bias)
        self.d_k = d_k

    def forward(self, X, mask=None):
        Q, K, V = self.W_q(X), self.W_k(X), self.W_v(X)
        scores = Q @ K.transpose(-1, -2)
        scores.div_(math.sqrt(self.d_k))
        if mask is not None:
            scores.masked_fill_(mask, float("-inf"))
        A = scores.softmax(dim=-1)
        return A @ V, A
'''
